#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What LRO sends up goes through the device's receive path a second time
# (rx.c: lro_rx_deliver()). Packet taps, tc and netfilter ingress saw its
# bytes already, as the segments that brought them, before the rx_handler
# took those: they must not see them again. And without LRO_F_NAPI, where
# held packets go up through netif_rx(), a segment passed after its flow's
# packet was flushed must not overtake that packet.
#
#   [ns cli] veth-cli --- veth-srv [ns srv: LRO, tcpdump, tc clsact
#                                   matchall, nft netdev ingress counter]
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root
command -v nft >/dev/null || skip "nft is missing (make deps)"
TMP=$(mktemp -d)
defer rm -rf "$TMP"
sysctl_set net.core.netdev_max_backlog 10000	# as in datapath.sh
mark=$(log_mark)

lro_load
veth_pair_setup
ip netns exec "$NS_SRV" sh -c 'echo 1 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
srv() { ip netns exec "$NS_SRV" "$@"; }
rx_packets() { srv cat /sys/class/net/veth-srv/statistics/rx_packets; }

# Without LRO_F_NAPI (features none) held packets go up through netif_rx()'s
# backlog: a segment passed at once (a FIN, a lone PSH segment) overtook
# its flow's packet waiting there. Seen before: 2 to 11 TCPOFOQueue over
# three 16 MB streams; 2 when only a segment passed just after a flush
# went behind it.
adm set veth-srv max_aggr 64 features none >/dev/null
MB=$(scaled 16)
ofo0=$(tcpext "$NS_SRV" TCPOFOQueue)
for i in 1 2 3; do
	check "features none: $MB MB stream $i is byte-exact" stream_tcp "$MB"
done
check "features none: nothing reordered (TCPOFOQueue)" \
	eq "$(tcpext "$NS_SRV" TCPOFOQueue)" "$ofo0"

# Each hook counts the packets that reached veth-srv once, not once more
# as the aggregates LRO sends up. Seen before: tc 2.0x, nft and tcpdump
# likewise (aggregates count as their gso_segs).
adm set veth-srv features napi >/dev/null
# The debug kernel has neither matchall nor nftables: taps only there.
have_tc=1 have_nft=1
srv tc qdisc add dev veth-srv clsact &&
	srv tc filter add dev veth-srv ingress matchall action pass 2>/dev/null ||
	have_tc=0
srv nft add table netdev lro_test 2>/dev/null &&
	srv nft add chain netdev lro_test in \
		'{ type filter hook ingress device veth-srv priority 0; }' &&
	srv nft add rule netdev lro_test in counter || have_nft=0
ip netns exec "$NS_SRV" tcpdump -i veth-srv -Q in -n -w /dev/null 2> "$TMP/tcpdump" &
dump=$!
sleep 1	# tcpdump listening
agg0=$(lro_stat aggregated)
rx0=$(rx_packets)
check "hooks on: $MB MB stream is byte-exact" stream_tcp "$MB"
rx=$(($(rx_packets) - rx0))
kill $dump	# SIGINT is ignored in background jobs; TERM prints the counts too
wait $dump
tc_pkts=none nft_pkts=none
[ $have_tc = 0 ] || tc_pkts=$(srv tc -s filter show dev veth-srv ingress |
			      awk '/Sent/ { print $4; exit }')
[ $have_nft = 0 ] || nft_pkts=$(srv nft list chain netdev lro_test in |
	awk '/counter/ { for (i = 1; i < NF; i++) if ($i == "packets") print $(i + 1) }')
dump_pkts=$(awk '/packets captured/ { print $1 }' "$TMP/tcpdump")
echo "veth-srv rx_packets $rx, LRO aggregated $(($(lro_stat aggregated) - agg0))"
echo "tc $tc_pkts, nft $nft_pkts, tcpdump $dump_pkts"
check "LRO aggregated the stream" ge $(($(lro_stat aggregated) - agg0)) $((rx / 2))
# A few frames more than rx_packets: ARP, IPv6 router solicitations.
[ $have_tc = 0 ] ||
	check "tc ingress saw each packet once" le "$tc_pkts" $((rx + rx / 50 + 10))
[ $have_nft = 0 ] ||
	check "nft ingress saw each packet once" le "$nft_pkts" $((rx + rx / 50 + 10))
check "tcpdump saw each packet once" le "$dump_pkts" $((rx + rx / 50 + 10))
# tcpdump's own buffer may drop a few under load (11609 of 11633 seen)
check "... and nearly all of them" ge "$dump_pkts" $((rx * 9 / 10))
check "kernel log is clean" log_clean_since "$mark"
exit $RET
