#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke run of the micro-benchmark of 'make bench' (bench/kmod/)
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

positive() { # positive DECIMAL: a number above zero
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ && ! $1 =~ ^0*(\.0*)?$ ]] || { echo "    ($1 is not > 0)"; return 1; }
}

# run_bench TAG: load lro_bench.ko with tiny counts and check its lines.
# Parsed with shell builtins only: under the debug kernel every process
# started costs a second or more.
run_bench() {
	local tag=$1 line path kv n=0 lro_bytes='' gro_bytes='' lro_segs='' gro_segs=''
	local -A f

	if ! insmod "$KO" cases=$CASES total=128 rounds=1 warmup=0; then
		check "$tag: insmod lro_bench.ko" false
		return
	fi
	while read -r path line; do
		echo "$tag: $path $line"
		n=$((n + 1))
		f=()
		for kv in $line; do
			f[${kv%%=*}]=${kv#*=}
		done
		check "$tag: $path ${f[flows]} flows: checks passed" eq "${f[ok]}" 1
		check "$tag: $path ${f[flows]} flows: cost is positive" positive "${f[ns_per_seg]}"
		if [ "${f[flows]}" = 1 ]; then
			case $path in
			lro) lro_bytes=${f[bytes]}; lro_segs=${f[segs_out]} ;;
			gro) gro_bytes=${f[bytes]}; gro_segs=${f[segs_out]} ;;
			esac
		fi
	done < "$RESULTS"
	rmmod lro_bench
	check "$tag: one result per case" eq "$n" 7
	check "$tag: LRO and GRO delivered payload bytes" ge "${lro_bytes:-0}" 1
	check "$tag: LRO and GRO delivered the same payload bytes" eq "$lro_bytes" "$gro_bytes"
	check "$tag: LRO and GRO delivered the same segments" eq "$lro_segs" "$gro_segs"
}

# This build's lro.ko, by path, with and without the 2007 linear scan.
lro_unload
check "insmod lro.ko" insmod "$BUILD/kmod/lro.ko"
run_bench engine
check "rmmod lro" rmmod lro
check "insmod lro.ko linear_lookup=1" insmod "$BUILD/kmod/lro.ko" linear_lookup=1
check "linear_lookup is set" eq "$(cat /sys/module/lro/parameters/linear_lookup 2>&1)" Y
run_bench seed
lro_unload
exit $RET
