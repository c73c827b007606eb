#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO and the devices stacked on others, in one netns (stacked.sh runs
# streams through such devices):
#
#   up-bridge, up-bond      <- port-bridge, port-bond (dummies)
#   up-macvlan, up-ipvlan   -> low-macvlan, low-ipvlan (dummies)
#   lro-low (dummy, LRO)    <- lro-low.5 (VLAN)
#
#  - A bridge or bond port, or the link of a macvlan or ipvlan, holds its
#    rx_handler for that driver: attaching LRO to it is refused, naming the
#    device that holds it, and attaches nothing. An ipvlan device takes no
#    rx_handler at all (IFF_NO_RX_HANDLER) and is refused with its own
#    message. The bridge, bond and macvlan themselves take LRO.
#  - The other way round, the kernel refuses to make a device LRO is
#    attached to a port or a macvlan/ipvlan link with its own error (it
#    asks no one first), and LRO stays as it was (Documentation/drivers.md).
#  - A VLAN is no master (NETDEV_PRECHANGEUPPER in device.c): it goes on
#    top of a device with LRO and comes off again, LRO staying as it was.
#  - Nothing in the kernel log.

source "$(dirname "$0")/lib.sh"
need_root
[ -x "$LROADM" ] || skip "no $LROADM (make)"

tmp=$(mktemp -d)
defer rm -rf "$tmp"

mark=$(log_mark)
lro_load
defer netns_del "$NS_SRV"
ip netns add "$NS_SRV"

up_ip() { ip -n "$NS_SRV" "$@"; }
# ip_fails_with PATTERN ARGS...: ip -n $NS_SRV ARGS fails, its stderr matching
# shellcheck disable=SC2317 # run by check()
ip_fails_with() {
	local pattern=$1
	shift
	! up_ip "$@" 2>"$tmp/err" && has_line "$pattern" "$(<"$tmp/err")" && return 0
	echo "    ip $* did not fail with: $pattern"
	sed 's/^/    | /' "$tmp/err"
	return 1
}
# By hand, so that loading it does not create a bond0 in the init netns.
[ -d /sys/module/bonding ] || modprobe bonding max_bonds=0
shown=$(adm show)
for kind in bridge bond; do
	up_ip link add up-$kind type $kind
	up_ip link add port-$kind type dummy
	up_ip link set port-$kind master up-$kind
	check "a $kind port is refused, naming the $kind" \
		refused_with "^Error: lro: port-$kind is a port of $kind up-$kind: attach LRO to it\.\$" \
		adm set port-$kind
done
# An ipvlan device takes no rx_handler at all (IFF_NO_RX_HANDLER): LRO
# cannot be attached to it either.
for kind in macvlan ipvlan; do
	up_ip link add low-$kind type dummy
	up_ip link add up-$kind link low-$kind type $kind
	advice=": attach LRO to it"
	[ $kind = macvlan ] || advice=
	check "the link of $kind up-$kind is refused, naming it" \
		refused_with "^Error: lro: low-$kind is the link of $kind up-$kind$advice\.\$" \
		adm set low-$kind
done
check "an ipvlan device is refused: it takes no rx_handler" \
	refused_with '^Error: lro: up-ipvlan \(ipvlan\) takes no rx_handler\.$' adm set up-ipvlan
check "nothing attached by the refused sets" same "$shown" "$(adm show)"
for kind in bridge bond macvlan; do
	check "LRO attaches to the $kind itself" adm set up-$kind
	adm del up-$kind
done
up_ip link add lro-low type dummy
adm set lro-low max_aggr 7
shown=$(adm show lro-low)
for kind in macvlan ipvlan; do
	check "no $kind on a device with LRO: the kernel's EBUSY" \
		ip_fails_with '^RTNETLINK answers: Device or resource busy$' \
		link add on-lro link lro-low type $kind
	check "... and no $kind made" ip_fails_with 'does not exist' link show on-lro
done
check "no bridge port with LRO: the kernel's EBUSY" \
	ip_fails_with '^RTNETLINK answers: Device or resource busy$' link set lro-low master up-bridge
check "no bond port with LRO: the bond's message" \
	ip_fails_with '^Error: Device is in use and cannot be enslaved\.$' link set lro-low master up-bond
check "LRO unchanged after the refused links" same "$shown" "$(adm show lro-low)"
check "... and lro-low is no port" ip netns exec "$NS_SRV" test ! -e /sys/class/net/lro-low/master
# A VLAN is no master: it goes on and comes off, LRO staying as it was.
check "a VLAN on a device with LRO" up_ip link add link lro-low name lro-low.5 type vlan id 5
check "... and off it again" up_ip link del lro-low.5
check "LRO unchanged by the VLAN" same "$shown" "$(adm show lro-low)"

check "kernel log is clean" log_clean_since "$mark"
exit $RET
