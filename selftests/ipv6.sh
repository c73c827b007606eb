#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO for TCP over IPv6, end to end over veth (the pair of veth_pair_setup
# in lib_topo.sh, dual-stack: fd77::1 and fd77::2 beside the IPv4 addresses):
#  - an IPv4 and an IPv6 stream of the same size with LRO, both byte-exact:
#    the IPv6 one reaches the IP layer in as few packets per MB as the IPv4
#    one (Ip6InReceives against IpInReceives, within 10%) and in fewer than
#    with LRO disabled, in order, its bytes adding up;
#  - IPv6 (and IPv4) streams over a VLAN device on top of the pair:
#    byte-exact, and coalesced by LRO on the VLAN device (LRO on the lower
#    veth never sees them);
#  - forwarding, IPv4 and IPv6: a router namespace with LRO on its ingress
#    veth forwards the aggregates out of a veth without TSO/GSO into a
#    1280-byte MTU: path MTU discovery brings the sender down to it, the
#    aggregates are segmented again on the way out, the stream arrives
#    byte-exact;
#  - nothing in the kernel log.
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, since bpf_descs.sh crafts held IPv6 flows and control.sh puts
# a VLAN on an attached device and streams through a disabled one)

source "$(dirname "$0")/lib.sh"
need_root

TMP=$(mktemp -d)
defer rm -rf "$TMP"
# The forwarding topology's namespaces (fwd_setup).
NS_FA=lro-fa-$$
NS_FR=lro-fr-$$
NS_FB=lro-fb-$$

# As in datapath.sh: veth queues each frame to the sending CPU's backlog,
# which drops beyond netdev_max_backlog (1000) frames, and a lost segment
# makes TCP queue what follows out of order. Room for a whole window.
sysctl_set net.core.netdev_max_backlog 10000

lro_load
mark=$(log_mark)
veth_pair_setup
defer kill_jobs
# nodad: usable at once, no duplicate address detection to wait for
ip -n "$NS_CLI" addr add $CLI_IP6/64 dev veth-cli nodad
ip -n "$NS_SRV" addr add $SRV_IP6/64 dev veth-srv nodad
# One receiving CPU, as RSS gives a flow on a NIC (datapath.sh says why).
ip netns exec "$NS_SRV" sh -c 'echo 1 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
# Under the debug kernel, hold segments across receive batches, as
# datapath.sh does: how many join per batch there depends on the host.
hold=0
[ "$LRO_DEBUG_KERNEL" != 1 ] || hold=100000
MB=$(scaled 16)
# IPv4: 1448 payload bytes a segment (20 + 20 + 12 bytes of headers in a
# 1500 MTU); IPv6: 1428 (40 + 20 + 12).
HDR4=52
HDR6=72

cli_tx_dropped() {
	ip netns exec "$NS_CLI" cat /sys/class/net/veth-cli/statistics/tx_dropped
}
# 128 KB writes (see below)
env_stream() { STREAM_BS=131072 stream_tcp "$@"; }

# --- IPv4 and IPv6 streams, LRO on and off ---------------------------------
#
# How many packets reach IP per MB depends mostly on the sender: every PSH
# ends a packet, and TCP sets one at the end of each write, whenever it
# waits for send buffer, and every half window. With socat's 8 KB writes,
# runs of one family in one guest gave 22 to 125 IPv4 packets per MB. So
# the streams compared write 128 KB at a time, and a hold (2 ms; one
# receiving CPU, see above) keeps the end of a receive batch from ending
# packets too. Even so a run of either family now and then ends ~50 more
# packets than the one before it (PSH and size flushes, unaggregated
# frames: 280 against 416 IP receives in 16 MB). The families take turns,
# and each is judged by its best run, until IPv6's is within 10% of
# IPv4's, 8 rounds at most (4 under the debug kernel): an engine that
# coalesces IPv6 worse loses in every round. With a third guest busy on
# the 2-CPU host, 4 rounds were once not enough (best 315 against 381 IP
# receives, 308 and 312 of them PSH flushes: the sender's doing).
cmp_hold=2000
[ "$LRO_DEBUG_KERNEL" != 1 ] || cmp_hold=100000
check "lroadm set veth-srv max_aggr 64 flush_timeout_us $cmp_hold" \
	adm set veth-srv max_aggr 64 flush_timeout_us $cmp_hold
declare -A best agg flushed passed bytes_in bytes_out held
ofo0=$(tcpext "$NS_SRV" TCPOFOQueue)
drop0=$(cli_tx_dropped)
port=5001
rounds=8
[ "$LRO_DEBUG_KERNEL" != 1 ] || rounds=4	# not compared there (below); the sums
for round in $(seq $rounds); do
	for fam in IPv4 IPv6; do
		adm stats veth-srv reset
		if [ $fam = IPv4 ]; then
			count=ip_in_receives dst=$SRV_IP
		else
			count=ip6_in_receives dst=$SRV_IP6
		fi
		ip0=$($count "$NS_SRV")
		check "$fam: $MB MB stream with LRO is byte-exact ($round)" \
			env_stream "$MB" $((port++)) $dst
		ip1=$($count "$NS_SRV")
		stats=$(lro_stats_settled)
		[ -n "$stats" ] || echo "    (counters did not settle)"
		n=$((ip1 - ip0))
		[ -n "${best[$fam]}" ] && [ "${best[$fam]}" -le $n ] || best[$fam]=$n
		for k in agg:aggregated flushed:flushed bytes_in:bytes_in bytes_out:bytes_out held:held_segs; do
			declare -n sum=${k%%:*}
			sum[$fam]=$((${sum[$fam]:-0} + $(stat_of "${k#*:}" "$stats")))
		done
		passed[$fam]=$((${passed[$fam]:-0} + $(stat_of pkts_in "$stats") - $(stat_of aggregated "$stats")))
		echo "$fam ($round): IP receives $((ip1 - ip0)), $(echo "$stats" | grep -E 'aggregated|flushed|flush_push|flush_batch|flush_size|pkts_in' | tr -s ' \n' ' ')"
	done
	[ $((best[IPv6] * 10)) -gt $((best[IPv4] * 11)) ] || break
done
ofo1=$(tcpext "$NS_SRV" TCPOFOQueue)
drop1=$(cli_tx_dropped)
v4=${best[IPv4]} v6=${best[IPv6]}
for fam in IPv4 IPv6; do
	echo "$fam: best run ${best[$fam]} IP receives ($(ratio "${best[$fam]}" "$MB") per MB); $round runs: aggregated ${agg[$fam]}, flushed ${flushed[$fam]} ($(ratio "${agg[$fam]}" "${flushed[$fam]}") per packet), passed unaggregated ${passed[$fam]}"
done
segs6=$((round * MB * 1048576 / (1500 - HDR6)))
# Under the debug kernel the sender sets PSH on nearly every few segments
# and at random (509 of 514 flushes PSH; IPv4's best and worst runs 225
# and 660 IP receives, CI of 2026-12-04): the comparison says nothing of
# LRO there, and is only shown.
if [ "$LRO_DEBUG_KERNEL" != 1 ]; then
	check "IPv6: IP receives per MB within 10% of IPv4's (best runs)" \
		le $((v6 * 10)) $((v4 * 11))
else
	echo "IPv6 best run $v6, IPv4 best run $v4 IP receives (not compared under the debug kernel)"
fi
check "IPv6: LRO took (almost) every data segment" ge "${agg[IPv6]}" $((segs6 * 9 / 10))
check_coalesced "IPv6" "${agg[IPv6]}" "${flushed[IPv6]}"
check "nothing held after the streams" eq $((held[IPv4] + held[IPv6])) 0
check "no segment dropped on the way (veth-cli tx_dropped)" eq "$drop1" "$drop0"
check "no reordering (TCPOFOQueue)" eq "$ofo1" "$ofo0"
# Every segment that joined another gave up its IPv6, TCP and timestamp
# headers; frames LRO passed (neighbour discovery) count in and out alike.
echo "IPv6: bytes in ${bytes_in[IPv6]}, out ${bytes_out[IPv6]}, merged headers $(((agg[IPv6] - flushed[IPv6]) * HDR6))"
check "IPv6: bytes out == bytes in - merged headers ($HDR6 bytes each)" \
	eq "${bytes_out[IPv6]}" $((bytes_in[IPv6] - (agg[IPv6] - flushed[IPv6]) * HDR6))

check "lroadm disable veth-srv" adm disable veth-srv
moff=$((MB / 4 + 1))
ip0=$(ip6_in_receives "$NS_SRV")
check "IPv6: $moff MB stream with LRO disabled is byte-exact" env_stream $moff $((port++)) $SRV_IP6
ip1=$(ip6_in_receives "$NS_SRV")
off=$((ip1 - ip0))
echo "IPv6, LRO off: Ip6InReceives $off ($(ratio "$off" $moff) per MB)"
# v6 / MB <= 0.9 * off / moff: fewer by a margin the few frames that are
# not the stream's (neighbour discovery, MLD) cannot make up
check "IPv6: at least 10% fewer IP receives per MB than with LRO off" \
	le $((v6 * moff * 10)) $((off * MB * 9))
check "lroadm enable veth-srv" adm enable veth-srv

# --- IPv6 over a VLAN ---------------------------------------------------------
#
# A VLAN device on each end of the pair. veth has tx-vlan-offload on: the
# tag travels in the skb's metadata, as a driver's hardware VLAN extraction
# hands it over (an in-band tag is moved there too, by skb_vlan_untag(),
# before anything else looks at the frame). __netif_receive_skb_core()
# gives a tagged frame to its VLAN device (vlan_do_receive()) before it
# calls the lower device's rx_handler, so LRO on veth-srv sees none of the
# VLAN's frames: shown, not asserted. LRO on the VLAN device gets them,
# untagged, and must coalesce them.
ip -n "$NS_CLI" link add link veth-cli name veth-cli.10 type vlan id 10
ip -n "$NS_SRV" link add link veth-srv name veth-srv.10 type vlan id 10
ip -n "$NS_CLI" addr add fd78::1/64 dev veth-cli.10 nodad
ip -n "$NS_SRV" addr add fd78::2/64 dev veth-srv.10 nodad
ip -n "$NS_CLI" addr add 10.78.0.1/24 dev veth-cli.10
ip -n "$NS_SRV" addr add 10.78.0.2/24 dev veth-srv.10
ip -n "$NS_CLI" link set veth-cli.10 up
ip -n "$NS_SRV" link set veth-srv.10 up
ip netns exec "$NS_CLI" ethtool -K veth-cli.10 tso off gso off >/dev/null
echo "# veth-cli: $(ip netns exec "$NS_CLI" ethtool -k veth-cli | grep tx-vlan-offload)"
check "lroadm set veth-srv flush_timeout_us $hold" adm set veth-srv flush_timeout_us $hold
adm stats veth-srv reset
check "VLAN 10, IPv6, LRO on veth-srv: $(scaled 2) MB stream is byte-exact" \
	stream_tcp "$(scaled 2)" 5004 fd78::2
stats=$(lro_stats_settled)
echo "# VLAN 10, IPv6: LRO on veth-srv saw $(stat_of pkts_in "$stats") frames, aggregated $(stat_of aggregated "$stats")"

check "lroadm set veth-srv.10 max_aggr 64 flush_timeout_us $hold" \
	adm set veth-srv.10 max_aggr 64 flush_timeout_us $hold
# vlan_stream NAME MB DST PORT HDR: a stream over the VLAN, then its checks
vlan_stream() {
	local stats agg flushed segs

	check "VLAN 10, $1: $2 MB stream with LRO on veth-srv.10 is byte-exact" \
		stream_tcp "$2" "$4" "$3"
	stats=$(lro_stats_settled veth-srv.10)
	adm stats veth-srv.10 reset
	agg=$(stat_of aggregated "$stats")
	flushed=$(stat_of flushed "$stats")
	segs=$(($2 * 1048576 / (1500 - $5)))
	echo "VLAN 10, $1: LRO on veth-srv.10 saw $(stat_of pkts_in "$stats") frames, aggregated $agg, flushed $flushed ($(ratio "$agg" "$flushed") per packet), segments ~$segs"
	check "VLAN 10, $1: LRO took (almost) every data segment" ge "$agg" $((segs * 9 / 10))
	check_coalesced "VLAN 10, $1" "$agg" "$flushed"
}
# IPv4 first: what the same path does for the family LRO has always had.
vlan_stream IPv4 "$(scaled 4)" 10.78.0.2 5005 $HDR4
vlan_stream IPv6 "$(scaled 8)" fd78::2 5006 $HDR6

# --- forwarding -------------------------------------------------------------
#
#   netns $NS_FA          netns $NS_FR (router)                 netns $NS_FB
#   veth-cli ------------ veth-srv (LRO)   veth-fwd ----------- veth-far
#   10.79.1.1             10.79.1.2        10.79.2.1            10.79.2.2
#   fd79:1::1             fd79:1::2        fd79:2::1            fd79:2::2
#   MTU 1500, TSO/GSO off MTU 1500, GRO off MTU 1280, TSO/GSO off MTU 1500
#
# The receiver's own MTU is 1500, so its SYN-ACK offers the MSS of a 1500
# MTU, as a host behind a narrower hop does: the sender's first segments
# are too big for veth-fwd, and only path MTU discovery (ICMP fragmentation
# needed, ICMPv6 packet too big, from the router) brings them down. What
# LRO builds of them is forwarded as one packet and segmented again in
# software on veth-fwd, which has no TSO. The bar for coalescing is lower
# than elsewhere: the debug kernel's router got 1.9 and 2.0 segments per
# packet with 1 MB streams in 8 KB writes (the other kernel: ~10).
fwd_setup() {
	local ns

	defer netns_del "$NS_FA" "$NS_FR" "$NS_FB"
	for ns in $NS_FA $NS_FR $NS_FB; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
	done
	ip -n "$NS_FA" link add veth-cli type veth peer name veth-srv netns "$NS_FR"
	ip -n "$NS_FR" link add veth-fwd type veth peer name veth-far netns "$NS_FB"
	ip -n "$NS_FR" link set veth-fwd mtu 1280
	ip -n "$NS_FA" addr add 10.79.1.1/24 dev veth-cli
	ip -n "$NS_FA" addr add fd79:1::1/64 dev veth-cli nodad
	ip -n "$NS_FR" addr add 10.79.1.2/24 dev veth-srv
	ip -n "$NS_FR" addr add fd79:1::2/64 dev veth-srv nodad
	ip -n "$NS_FR" addr add 10.79.2.1/24 dev veth-fwd
	ip -n "$NS_FR" addr add fd79:2::1/64 dev veth-fwd nodad
	ip -n "$NS_FB" addr add 10.79.2.2/24 dev veth-far
	ip -n "$NS_FB" addr add fd79:2::2/64 dev veth-far nodad
	ip -n "$NS_FA" link set veth-cli up
	ip -n "$NS_FR" link set veth-srv up
	ip -n "$NS_FR" link set veth-fwd up
	ip -n "$NS_FB" link set veth-far up
	ip -n "$NS_FA" route add default via 10.79.1.2
	ip -n "$NS_FA" -6 route add default via fd79:1::2
	ip -n "$NS_FB" route add default via 10.79.2.1
	ip -n "$NS_FB" -6 route add default via fd79:2::1
	ip netns exec "$NS_FR" sysctl -q net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
	ip netns exec "$NS_FA" ethtool -K veth-cli tso off gso off >/dev/null
	ip netns exec "$NS_FR" ethtool -K veth-srv gro off >/dev/null
	ip netns exec "$NS_FR" ethtool -K veth-fwd tso off gso off >/dev/null
	ip netns exec "$NS_FR" sh -c 'echo 1 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
}
# Run with the router as $NS_SRV (adm, lro_stats_settled), the
# stream from $NS_FA to $NS_FB.
fwd_stream() { NS_CLI=$NS_FA NS_SRV=$NS_FB env_stream "$@"; }
fwd_stats() { NS_SRV=$NS_FR lro_stats_settled; }
fwd_dev() { ip netns exec "$NS_FR" cat /sys/class/net/veth-fwd/statistics/"$1"; }
pmtu_is() { ip -n "$NS_FA" route get "$2" | grep -q "mtu $1\b"; }
ip_stat() { # ip_stat NS NAME: a counter of the Ip: lines of /proc/net/snmp
	ip netns exec "$1" awk -v k="$2" '/^Ip:/ {
		if (!n) { for (i = 2; i <= NF; i++) idx[$i] = i; n = 1 }
		else print $idx[k] }' /proc/net/snmp
}
# fwd_run NAME DST PORT HDR FORWARDED: a stream through the router, then
# its checks; FORWARDED names a function printing the router's count of
# forwarded datagrams.
fwd_run() {
	local name=$1 dst=$2 port=$3 hdr=$4 fn=$5 fwd0 fwd1 tx0 tx1 rx0 rx1 stats agg
	local flushed segs fmb fwd

	fmb=$(scaled 8)
	NS_SRV=$NS_FR adm stats veth-srv reset
	fwd0=$($fn)
	tx0=$(fwd_dev tx_packets)
	rx0=$(fwd_dev rx_packets)
	check "forwarding, $name: $fmb MB stream through the router is byte-exact" \
		fwd_stream "$fmb" "$port" "$dst"
	fwd1=$($fn)
	tx1=$(fwd_dev tx_packets)
	rx1=$(fwd_dev rx_packets)
	# forwarded towards $NS_FB: all forwarded but what came back (ACKs)
	fwd=$((fwd1 - fwd0 - (rx1 - rx0)))
	stats=$(fwd_stats)
	agg=$(stat_of aggregated "$stats")
	flushed=$(stat_of flushed "$stats")
	segs=$((fmb * 1048576 / (1280 - hdr)))
	echo "forwarding, $name: router aggregated $agg, flushed $flushed ($(ratio "$agg" "$flushed") per packet, $(stat_of flush_push "$stats") at PSH), forwarded $fwd packets towards $NS_FB, veth-fwd sent $((tx1 - tx0)), segments of a 1280 MTU ~$segs"
	echo "# $NS_FA: $(ip -n "$NS_FA" route get "$dst" | head -n 2 | tr -s ' \n' ' ')"
	check "forwarding, $name: path MTU 1280 learnt by the sender" pmtu_is 1280 "$dst"
	check "forwarding, $name: LRO on the router took most segments" ge "$agg" $((segs / 2))
	check "forwarding, $name: at least 3 segments per 2 packets" ge $((agg * 2)) $((flushed * 3))
	check "forwarding, $name: aggregates forwarded (2 for 3 segments at most), segmented on veth-fwd" \
		le $((fwd * 3)) $(((tx1 - tx0) * 2))
}
fwd_setup
check "router: lroadm set veth-srv max_aggr 64 flush_timeout_us $hold" \
	"$LROADM" -n "$NS_FR" set veth-srv max_aggr 64 flush_timeout_us $hold
fwd_run IPv4 10.79.2.2 5007 $HDR4 "ip_stat $NS_FR ForwDatagrams"
fwd_run IPv6 fd79:2::2 5008 $HDR6 "snmp6 $NS_FR Ip6OutForwDatagrams"

check "kernel log clean" log_clean_since "$mark"
exit $RET
