#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, run inside the test guest by 'make demo': put LRO on the
# receiving end of a veth pair, stream TCP through it, show what LRO did.

source "$(dirname "$0")/../selftests/lib.sh"
trap veth_pair_cleanup EXIT
set -e

say() { printf '\n== %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

lro_load
veth_pair_setup
say "veth pair $NS_CLI/veth-cli -> $NS_SRV/veth-srv (sender TSO/GSO off, receiver GRO off)"

say "without LRO: 16 MB of TCP"
ip0=$(ip_in_receives "$NS_SRV")
stream_tcp 16
ip1=$(ip_in_receives "$NS_SRV")
echo "byte-exact; the receiver's IP layer saw $((ip1 - ip0)) packets"

say "with LRO"
run ip netns exec "$NS_SRV" "$LROADM" set veth-srv max_aggr 32
run ip netns exec "$NS_SRV" "$LROADM" show veth-srv
stream_tcp 16
ip2=$(ip_in_receives "$NS_SRV")
echo "byte-exact; the receiver's IP layer saw $((ip2 - ip1)) packets"
run ip netns exec "$NS_SRV" "$LROADM" -j -p stats veth-srv
agg=$(lro_stat aggregated)
flushed=$(lro_stat flushed)
echo "segments per packet (aggregated/flushed): $(awk "BEGIN { printf \"%.1f\", $agg / $flushed }")"

say "with a 1 ms hold timer"
run ip netns exec "$NS_SRV" "$LROADM" stats veth-srv reset
run ip netns exec "$NS_SRV" "$LROADM" set veth-srv max_aggr 64 flush_timeout_us 1000
stream_tcp 16
ip3=$(ip_in_receives "$NS_SRV")
agg=$(lro_stat aggregated)
flushed=$(lro_stat flushed)
echo "byte-exact; the receiver's IP layer saw $((ip3 - ip2)) packets;" \
     "segments per packet: $(awk "BEGIN { printf \"%.1f\", $agg / $flushed }")"

say "mid-stream: the flows LRO holds right now (BPF iterator, lroadm descs)"
run ip netns exec "$NS_SRV" "$LROADM" set veth-srv flush_timeout_us 20000
ip netns exec "$NS_SRV" iperf3 -s -1 >/dev/null 2>&1 &
wait_port "$NS_SRV" 5201
ip netns exec "$NS_CLI" iperf3 -c "$SRV_IP" -P 4 -t 6 >/dev/null 2>&1 &
echo "\$ lroadm descs veth-srv interval 100 count 40  # the first table with flows in it"
ip netns exec "$NS_SRV" "$LROADM" descs veth-srv interval 100 count 40 |
	awk 'BEGIN { RS = "" } NF > 13 { print; found = 1; exit }
	     END { if (!found) print "(no snapshot caught a held flow)" }'
wait
