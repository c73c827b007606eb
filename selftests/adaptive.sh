#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The adaptive feature (a default): where each of a device's packets goes
# up alone on a CPU, LRO stops taking its segments there, as if it were
# not attached, and takes them again once they merge (kmod/rx.c,
# lro_lone_*()). On the veth pair (lib_topo.sh), with hand-made segments:
# tcpcraft.py sends each with its own send(), so each is a receive batch
# of its own (hold_timer.sh), and goes up alone at flush_timeout_us 0.
#
#  - at the defaults, 200 such segments of one flow: after 16 batch ends
#    that merged nothing the next 64 pass untaken (lone_passed), then 16
#    are taken to look, then 128 more may pass: at least 150 pass, every
#    one reaches IP, nothing stays held;
#  - with the feature off (features napi) all 200 are taken;
#  - a bulk stream after the lone ones is coalesced as usual;
#  - a hold timer set by hand means exactly that: nothing passes untaken;
#  - nothing in the kernel log.

source "$(dirname "$0")/lib.sh"
need_root

lro_load
mark=$(log_mark)
veth_pair_setup

# trickle SPORT: 200 in-sequence full-MSS segments (no PSH) of one flow,
# each in a batch of its own; the IP receives they made in $TRICKLE_IP
trickle() {
	local in0

	adm stats veth-srv reset
	in0=$(ip_in_receives "$NS_SRV")
	craft --segs 200 --mss 1448 --sport "$1"
	TRICKLE_IP=$(($(ip_in_receives "$NS_SRV") - in0))
}

check "lroadm set veth-srv (the defaults)" adm set veth-srv
check "the defaults' features: napi,adaptive" \
	output_says "$(adm show veth-srv)" ' features napi,adaptive '

trickle 41000
echo "    defaults: $(lro_stats_line veth-srv)"
check "defaults: at least 150 of 200 lone segments passed untaken" \
	ge "$(lro_stat lone_passed)" 150
check "defaults: at most 50 taken" le "$(lro_stat aggregated)" 50
check "defaults: each taken one went up alone" \
	eq "$(lro_stat aggregated)" "$(lro_stat flushed)"
check "defaults: all 200 reached IP" ge "$TRICKLE_IP" 200
check "defaults: nothing held" eq "$(lro_stat held_segs)" 0

check "features napi (adaptive off)" adm set veth-srv features napi
trickle 42000
check "adaptive off: all 200 taken" eq "$(lro_stat aggregated)" 200
check "adaptive off: none passed untaken" eq "$(lro_stat lone_passed)" 0

# Lone again first, then a stream: its segments merge at a look.
adm set veth-srv features napi,adaptive
trickle 43000
check "lone again before the stream" ge "$(lro_stat lone_passed)" 150
adm stats veth-srv reset
check "stream after the lone segments byte-exact" stream_tcp "$(scaled 16)"
stats=$(lro_stats_settled)
echo "    stream: $(lro_stats_line veth-srv)"
check_coalesced "stream after lone segments" \
	"$(stat_of aggregated "$stats")" "$(stat_of flushed "$stats")"

check "flush_timeout_us 1000 set by hand" adm set veth-srv flush_timeout_us 1000
trickle 44000
check "a hold set by hand: all 200 taken" eq "$(lro_stat aggregated)" 200
check "a hold set by hand: none passed untaken" eq "$(lro_stat lone_passed)" 0

check "kernel log is clean" log_clean_since "$mark"
exit $RET
