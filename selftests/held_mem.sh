#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What LRO holds for remote senders is bounded by memory, not only by
# max_desc x max_aggr segments: past max_held_bytes of truesize on a CPU,
# the oldest packets go up (flush_mem). A flood of 1-byte segments over
# 4096 flows, 8 each, with room for every one of them in the descriptors
# and a 1 s hold timer, would otherwise pin 32768 skbs.
#
# Under the debug kernel a segment takes ~20 ms to send, so what a 1 s
# hold can gather is small: there the flood is 256 flows of 1000-byte
# segments against a 64 KiB limit, and what is held without a real limit
# is printed, not checked.
#
#   ns cli                         ns srv
#   veth-cli  ------------------  veth-srv  LRO: max_desc 8192, max_aggr 64,
#   (tcpcraft.py, CPU 0)                    flush_timeout_us 1000000,
#                                           max_held_bytes 131072
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root
TMP=$(mktemp -d)
defer rm -rf "$TMP"

limit=131072 mss=1 flows=4096
[ "$LRO_SCALE" -gt 1 ] && limit=65536 mss=1000 flows=256
# Sent to an address nobody has: once LRO sends them up, IP drops them
# without a word (no forwarding), instead of TCP answering each with a
# reset: work that only slows the flood down.
NOBODY=10.77.0.99
flood() {
	local t=$SECONDS

	craft --flows $flows --segs 8 --mss $mss --sport "$1" --dst $NOBODY
	echo "    ($((flows * 8)) segments sent in $((SECONDS - t)) s)"
}

t=$SECONDS
lro_load
veth_pair_setup
adm set veth-srv max_desc 8192 max_aggr 64 flush_timeout_us 1000000 \
	max_held_bytes $limit >/dev/null
check "max_held_bytes reads back (sysfs)" \
	eq "$(ip netns exec "$NS_SRV" cat /sys/class/net/veth-srv/lro/max_held_bytes)" $limit

echo "    (set up in $((SECONDS - t)) s)"

# The limit: every sample of held_bytes within it, and eviction at work.
held_sampler "$TMP/bytes" held_bytes
flood 1024 &
flooder=$!
check "the box answers during the flood" timeout 20 ip -n "$NS_SRV" link show veth-srv
wait $flooder
sleep 1.5
most=$(held_max "$TMP/bytes")
echo "    held_bytes: at most $most of $limit; flush_mem $(lro_stat flush_mem)"
# The engine evicts right after taking the segment that went past the
# limit (the engine tests check that after every segment); a reader on
# the other CPU may catch that moment, wider under the debug kernel: one
# 1-byte segment (960 bytes of truesize) over at most.
check "held_bytes never above max_held_bytes (+ one segment)" le "$most" $((limit + 2048))
check "held_bytes came near it (the flood was held)" ge "$most" $((limit / 2))
check "the oldest packets went up for it (flush_mem)" ge "$(lro_stat flush_mem)" 1
check "nothing held after the hold time: segments" eq "$(lro_stat held_segs)" 0
check "nothing held after the hold time: bytes" eq "$(lro_stat held_bytes)" 0
# 8 segments per flow, each taken once
echo "    pkts_in $(lro_stat pkts_in) bytes_in $(lro_stat bytes_in) bytes_out $(lro_stat bytes_out)"
check "every segment was taken" eq "$(lro_stat aggregated)" $((flows * 8))

# The same flood with the largest limit: far more is held. (What the
# limit keeps out; with no limit at all the whole flood would be.)
adm stats veth-srv reset
adm set veth-srv max_held_bytes 1073741824
held_sampler "$TMP/nolimit" held_bytes
flood 8192
sleep 1.5
most=$(held_max "$TMP/nolimit")
echo "    held_bytes without a real limit: at most $most"
[ "$LRO_SCALE" -gt 1 ] ||
	check "without a real limit, the flood holds over twice as much" ge "$most" $((2 * limit))
check "... and nothing is flushed for memory" eq "$(lro_stat flush_mem)" 0
check "nothing held after the hold time" eq "$(lro_stat held_bytes)" 0

t=$SECONDS
check "LRO detaches" adm del veth-srv
echo "    (detached in $((SECONDS - t)) s)"
exit $RET
