#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MSG_ZEROCOPY completions arrive as fast with LRO as without, while the
# receiving application does not read for a while.
#
# A zerocopy skb reaches LRO on veth: veth_xmit() -> __dev_forward_skb()
# orphans fragments with skb_orphan_frags(), which leaves MSG_ZEROCOPY's
# alone (SKBFL_DONT_ORPHAN), so the segments cross the pair still pointing
# at the sender's pages, and __netif_receive_skb_core() calls the
# rx_handler before its skb_orphan_frags_rx(), the copy that releases them
# for a local receiver. A segment LRO merged would be chained on the
# held packet's frag_list once its frags[] are full; that copy covers the
# head's frags[] only, so the segment would keep the sender's pages, and
# its completion, until the application reads it. LRO passes zerocopy
# segments (lro_skb_plain()): pkts_in counts them, nothing aggregates.
#
# The sender (selftests/tools/zerocopy) writes pieces of 128 bytes, one per
# page, so any two segments held together overflow frags[]. The receiver
# sleeps DELAY ms before it reads; the completions must come in well under
# that, and every byte must arrive as sent, though the sender rewrites its
# pages as soon as the completions let it.
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root

ZC=$BUILD/selftests/tools/zerocopy
[ -x "$ZC" ] || { echo "FAIL: no $ZC (make)"; exit $ksft_fail; }
tmp=$(mktemp -d)
defer rm -rf "$tmp"

DELAY=3000
WRITES=6
BYTES=$((WRITES * 17 * 128))

lro_load
veth_pair_setup

# zc_run NAME: one connection; leaves the sender's line in $tmp/NAME.send
# and the receiver's in $tmp/NAME.recv; succeeds when both succeeded.
zc_run() {
	local rc=0

	ip netns exec "$NS_SRV" "$ZC" recv 5001 $DELAY > "$tmp/$1.recv" 2>&1 &
	local srv=$!
	ip netns exec "$NS_CLI" "$ZC" send $SRV_IP 5001 $WRITES $((DELAY * 4)) \
		> "$tmp/$1.send" 2>&1 || rc=1
	wait $srv || rc=1
	echo "# $1: $(cat "$tmp/$1.send"); $(cat "$tmp/$1.recv")"
	return $rc
}
# completed_ms NAME: how long the completions took
completed_ms() { sed -n 's/^completed \([0-9]*\) ms .*/\1/p' "$tmp/$1.send"; }
fast() { # fast NAME: completions in less than half the receiver's delay
	local ms

	ms=$(completed_ms "$1")
	[ -n "$ms" ] || { echo "    no completion time"; return 1; }
	le "$ms" $((DELAY / 2))
}

check "without LRO: every completion came, every byte as sent" zc_run nolro
check "without LRO: completions before the receiver reads" fast nolro

check "attach LRO to veth-srv" adm set veth-srv max_aggr 64
in0=$(lro_stat pkts_in)
agg0=$(lro_stat aggregated)
check "with LRO: every completion came, every byte as sent" zc_run lro
echo "# LRO: pkts_in +$(($(lro_stat pkts_in) - in0)), aggregated +$(($(lro_stat aggregated) - agg0))"
check "with LRO: completions before the receiver reads" fast lro
check "the zerocopy segments reached LRO" ge $(($(lro_stat pkts_in) - in0)) $((BYTES / 1448))
check "and LRO merged none of them" eq "$(lro_stat aggregated)" "$agg0"
exit $RET
