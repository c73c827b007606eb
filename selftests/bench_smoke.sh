#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke run of the micro-benchmark of 'make bench' (bench/kmod/lro_bench.c)
# with tiny counts, so the bench module keeps building, loading and
# measuring: the LRO engine and kernel GRO fed the same segments must both
# report a positive cost, pass the module's own checks (every segment and
# byte reached the sink) and deliver the same payload bytes in the same
# number of segments; so must the 2007 linear scan (lro.ko linear_lookup=1).
# The full benchmark is 'make bench', not part of 'make check'.

source "$(dirname "$0")/lib.sh"
need_root

KO=$BUILD/bench/kmod/lro_bench.ko
RESULTS=/sys/kernel/debug/lro_bench/results
CASES=lro:1x64,gro:1x64,lro:8x8,gro:8x8,off:2x4,direct:2x4,free:2x4

[ -f "$KO" ] || { echo "FAIL: $KO not built (make)"; exit $ksft_fail; }

field() { # field LINE NAME: the value of NAME=... in a result line
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<< "$1"
}

# run_bench TAG: load lro_bench.ko with tiny counts and check its lines
run_bench() {
	local tag=$1 out line path lro_bytes='' gro_bytes='' lro_segs='' gro_segs=''

	if ! insmod "$KO" cases=$CASES total=128 rounds=1 warmup=0; then
		check "$tag: insmod lro_bench.ko" false
		return
	fi
	out=$(cat "$RESULTS")
	rmmod lro_bench
	echo "$out" | sed "s/^/$tag: /"
	check "$tag: one result per case" eq "$(wc -l <<< "$out")" 7
	while read -r line; do
		path=${line%% *}
		check "$tag: $path $(field "$line" flows) flows: checks passed" \
			eq "$(field "$line" ok)" 1
		check "$tag: $path $(field "$line" flows) flows: cost is positive" \
			awk "BEGIN { exit !($(field "$line" ns_per_seg) > 0) }"
		if [ "$(field "$line" flows)" = 1 ]; then
			case $path in
			lro) lro_bytes=$(field "$line" bytes); lro_segs=$(field "$line" segs_out) ;;
			gro) gro_bytes=$(field "$line" bytes); gro_segs=$(field "$line" segs_out) ;;
			esac
		fi
	done <<< "$out"
	check "$tag: LRO and GRO delivered payload bytes" ge "${lro_bytes:-0}" 1
	check "$tag: LRO and GRO delivered the same payload bytes" eq "$lro_bytes" "$gro_bytes"
	check "$tag: LRO and GRO delivered the same segments" eq "$lro_segs" "$gro_segs"
}

lro_unload
check "modprobe lro" modprobe lro
run_bench engine
check "rmmod lro" rmmod lro
check "modprobe lro linear_lookup=1" modprobe lro linear_lookup=1
check "linear_lookup is set" eq "$(cat /sys/module/lro/parameters/linear_lookup 2>&1)" Y
run_bench seed
lro_unload
check "modprobe lro (default parameters again)" modprobe lro
exit $RET
