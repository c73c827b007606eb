#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on a device stacked on the receiving veth, which holds that veth's
# rx_handler, so LRO cannot be attached to the veth itself (uppers.sh
# checks the refusals):
#
#   $NS_CLI                 $NS_SRV
#   veth-cli 10.77.0.1 ---- veth-srv (no address) -> up0 10.77.0.2 (LRO)
#
#   up0 a bridge with veth-srv as its port: LRO on the bridge device sees
#       what the bridge passes up to its own stack (br_pass_frame_up() ->
#       netif_receive_skb() on the bridge), so it coalesces traffic to the
#       bridge's addresses, not traffic the bridge forwards;
#   up0 a bond with veth-srv as its port (bond_handle_frame() hands each
#       frame on with skb->dev the bond: RX_HANDLER_ANOTHER);
#   up0 a macvlan on veth-srv (macvlan_handle_frame(), the same for a
#       frame to the macvlan's address).
#
# For each: a stream to 10.77.0.2 is byte-exact, LRO on up0 took (almost)
# every segment, built packets of 2 segments or more (1.5 under the debug
# kernel: lib.sh), and the IP layer saw at most half (1/1.5) of the
# segments; nothing in the kernel log. (An ipvlan device
# takes no rx_handler: Documentation/drivers.md.)
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root

# As in datapath.sh: room in the backlog for a whole receive window.
sysctl_set net.core.netdev_max_backlog 10000

lro_load
# By hand, so that loading it does not create a bond0 in the init netns.
[ -d /sys/module/bonding ] || modprobe bonding max_bonds=0
mark=$(log_mark)
MB=$(scaled 4)
# Under the debug kernel a hold, as datapath.sh explains.
hold=0
[ "$LRO_DEBUG_KERNEL" != 1 ] || hold=100000

# upper_setup KIND: up0 of KIND over veth-srv, with $SRV_IP; one ip per
# netns, as under the debug kernel each costs a second or more
upper_setup() {
	local cmds

	case $1 in
	bridge)
		cmds="link add up0 type bridge
		      link set veth-srv master up0" ;;
	bond)
		cmds="link add up0 type bond
		      link set veth-srv down
		      link set veth-srv master up0" ;;
	macvlan)
		cmds="link add up0 link veth-srv type macvlan" ;;
	esac
	ip -n "$NS_SRV" -batch - <<-EOF
		$cmds
		link set veth-srv up
		addr add $SRV_IP/24 dev up0
		link set up0 up
	EOF
	# The sender's frames go to up0's address. A macvlan's link also
	# answers ARP for the macvlan's address (arp_ignore 0), and when its
	# answer came first the stream bypassed the macvlan, and LRO on it
	# (macvlan_handle_frame() passes frames to the link's own address).
	ip -n "$NS_CLI" neigh replace $SRV_IP dev veth-cli nud permanent \
		lladdr "$(ip -n "$NS_SRV" -br link show up0 | awk '{ print $3 }')"
}

veth_pair_setup
ip -n "$NS_SRV" addr flush dev veth-srv
# One receiving CPU, as datapath.sh says why.
ip netns exec "$NS_SRV" sh -c 'echo 1 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
segs=$((MB * 1048576 / 1448))
for kind in bridge bond macvlan; do
	upper_setup $kind
	check "$kind: lroadm set up0" adm set up0 max_aggr 64 flush_timeout_us $hold
	ip0=$(ip_in_receives "$NS_SRV")
	check "$kind: $MB MB stream to up0 byte-exact" stream_tcp "$MB"
	ip1=$(ip_in_receives "$NS_SRV")
	stats=$(lro_stats_settled up0)
	agg=$(stat_of aggregated "$stats")
	flushed=$(stat_of flushed "$stats")
	echo "$kind: segments ~$segs, aggregated $agg, flushed $flushed," \
		"IP receives $((ip1 - ip0))"
	check "$kind: LRO on up0 took (almost) every data segment" ge "${agg:-0}" $((segs * 9 / 10))
	check_coalesced "$kind" "${agg:-0}" "${flushed:-0}" $((ip1 - ip0)) $segs
	check "$kind: lroadm del up0" adm del up0
	ip -n "$NS_SRV" link del up0
done
check "kernel log is clean" log_clean_since "$mark"
exit $RET
