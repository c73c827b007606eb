# SPDX-License-Identifier: GPL-2.0
#
# lib.sh's topology part: the two namespaces and the veth pair most tests
# use, the emulated NICs' addresses, and waiting for a listener. Sourced
# by lib.sh, not by a test.

# The two-host topology most tests use:
#
#   netns $NS_CLI                         netns $NS_SRV
#   +------------------+                  +------------------+
#   | veth-cli         |------------------| veth-srv  (LRO)  |
#   | 10.77.0.1/24     |    veth pair     | 10.77.0.2/24     |
#   | TSO/GSO off      |                  | GRO off          |
#   +------------------+                  +------------------+
#
# The sender's TSO/GSO are off so MSS-sized segments cross the pair, and the
# receiver's GRO is off so only LRO can coalesce them.
NS_CLI=lro-cli-$$
NS_SRV=lro-srv-$$
CLI_IP=10.77.0.1
SRV_IP=10.77.0.2
# The pair's IPv6 addresses, for the tests that add them
CLI_IP6=fd77::1
SRV_IP6=fd77::2

# ns_pair_add: the namespaces $NS_CLI and $NS_SRV, deleted at exit
# (veth_pair_cleanup, deferred at the first call: a test may set up again)
NS_PAIR_DEFERRED=0
ns_pair_add() {
	[ "$NS_PAIR_DEFERRED" = 1 ] || { defer veth_pair_cleanup; NS_PAIR_DEFERRED=1; }
	ip netns add "$NS_CLI"
	ip netns add "$NS_SRV"
}

veth_pair_setup() {
	ns_pair_add
	ip -n "$NS_CLI" link add veth-cli type veth peer name veth-srv netns "$NS_SRV"
	ip -n "$NS_CLI" addr add $CLI_IP/24 dev veth-cli
	ip -n "$NS_SRV" addr add $SRV_IP/24 dev veth-srv
	ip -n "$NS_CLI" link set lo up
	ip -n "$NS_SRV" link set lo up
	ip -n "$NS_CLI" link set veth-cli up
	ip -n "$NS_SRV" link set veth-srv up
	nsenter --net="/run/netns/$NS_CLI" ethtool -K veth-cli tso off gso off >/dev/null
	nsenter --net="/run/netns/$NS_SRV" ethtool -K veth-srv gro off >/dev/null
}

veth_pair_cleanup() { netns_del "$NS_CLI" "$NS_SRV"; }

# netns_del NS...: deletes those of the namespaces that exist, in one ip
netns_del() {
	local ns
	for ns; do echo "netns del $ns"; done | ip -force -batch - 2>/dev/null
	true
}

# dev_addrs_up NS DEV IP IP6: DEV in NS up, with IP/24 and IP6/64 (nodad:
# usable at once), and NS's lo up; one ip, as each costs a second or more
# under the debug kernel
dev_addrs_up() {
	ip -n "$1" -batch - <<-EOF
		addr add $3/24 dev $2
		addr add $4/64 dev $2 nodad
		link set lo up
		link set $2 up
	EOF
}

# nic_setup KIND: the emulated NIC KIND (e100, usb-net) that scripts/vmrun
# added for VM_NICS, and the e1000 wired to it: loads their drivers (built
# in under the debug kernel), waits for both devices and prints "PEER DEV",
# their names in the init netns. Fails when the guest has no such NIC: a
# test that needs one says so in a "# vm-nics: KIND" line, from which
# scripts/check.sh sets VM_NICS for its guest.
nic_setup() {
	local kind=$1 n=0 k='' mods i peer dev

	for k in ${VM_NICS//,/ }; do
		[ "$k" = "$kind" ] && break
		n=$((n + 1))
	done
	if [ "$k" != "$kind" ]; then
		echo "no $kind NIC in this guest (VM_NICS='${VM_NICS:-}'): run it with scripts/check.sh" >&2
		return 1
	fi
	case $kind in
	e100) mods="e1000 e100" ;;
	usb-net) mods="e1000 xhci_pci cdc_ether" ;;
	esac
	for k in $mods; do
		modprobe -q "$k" || { echo "modprobe $k failed" >&2; return 1; }
	done
	# By MAC address (scripts/vmrun): USB enumeration takes a moment.
	for i in $(seq $((100 * LRO_SCALE))); do
		peer=$(grep -lx "52:54:00:4c:0$n:01" /sys/class/net/*/address 2>/dev/null)
		dev=$(grep -lx "52:54:00:4c:0$n:02" /sys/class/net/*/address 2>/dev/null)
		[ -n "$peer" ] && [ -n "$dev" ] && break
		sleep 0.1
	done
	if [ -z "$peer" ] || [ -z "$dev" ]; then
		echo "$kind NIC or its e1000 did not appear (peer '$peer', NIC '$dev')" >&2
		return 1
	fi
	peer=${peer%/address} dev=${dev%/address}
	echo "${peer##*/} ${dev##*/}"
}

wait_port() { # wait_port NS PORT: until something listens on PORT in NS
	local i
	for i in $(seq 100); do
		[ -e "/run/netns/$1" ] || return 1
		[ -z "$(nsenter --net="/run/netns/$1" ss -Htln "sport = :$2")" ] || return 0
		sleep 0.05
	done
	return 1
}
