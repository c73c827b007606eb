#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmem.sh OUT -- the guest side of 'make bench''s memory figure: the kernel
# memory LRO's state takes per attached device, as a container host with
# an all-netns auto rule pays it (README). BENCH_KMEM_PAIRS veth pairs (250:
# 500 devices) are created and deleted once to warm the slab caches, then
# created without LRO and deleted, and created again under the rule
# "lroadm auto add all-netns kind veth", BENCH_KMEM_ROUNDS times (3),
# the median round reported. Each time the devices are up (a veth pair
# only receives when both ends are) and the caches dropped, the kernel's
# memory is counted as the objects in use in every slab cache
# (/proc/slabinfo: active objects x object size) plus Percpu and
# VmallocUsed (/proc/meminfo). Counted in pages instead (Slab, MemFree),
# a round moved by 1 kB per device from one to the next: slab pages
# partly used, free pages on per-CPU lists. What the devices took with LRO
# less what they took without, over their number, is kmem_per_device_kb:
# the per-device state, the settings, sysfs, and each CPU's state of the
# devices that received there. Not in it: the per-CPU descriptor tables
# (one per CPU for all devices, 256 x 136 bytes at the defaults, page
# allocations that slabinfo does not list). One line goes to OUT/kmem.txt.

source "$(dirname "$0")/../selftests/lib.sh"
set -euo pipefail

OUT=${1:-}
[ -d "$OUT" ] || { echo "usage: kmem.sh OUTDIR" >&2; exit 2; }
PAIRS=${BENCH_KMEM_PAIRS:-250}

die() { echo "kmem.sh: $*" >&2; exit 1; }
step() { echo "bench: $*"; }	# run.sh adds the host's time

# The kernel's memory in kB once it settled: RCU callbacks run, caches
# dropped
kmem() {
	sleep 2
	sync
	echo 3 > /proc/sys/vm/drop_caches
	{
		awk 'NR > 2 { b += $2 * $4 } END { printf "%d\n", b / 1024 }' /proc/slabinfo
		awk '/^(Percpu|VmallocUsed):/ { kb += $2 } END { print kb }' /proc/meminfo
	} | awk '{ kb += $1 } END { print kb }'
}

pairs() { # pairs add|del
	local i
	for i in $(seq "$PAIRS"); do
		if [ "$1" = add ]; then
			echo "link add lkm$i type veth peer name lkp$i"
			echo "link set lkm$i up"
			echo "link set lkp$i up"
		else
			echo "link del lkm$i"
		fi
	done | ip -batch - || die "ip link $1 of $PAIRS veth pairs failed"
}

# took: the kB $PAIRS pairs take, created and up
took() {
	local before after
	before=$(kmem)
	pairs add
	after=$(kmem)
	echo $((after - before))
}

cleanup() {
	"$LROADM" auto del all-netns kind veth >/dev/null 2>&1 || true
	pairs del 2>/dev/null || true
}

ROUNDS=${BENCH_KMEM_ROUNDS:-3}
lro_load || die "cannot load lro.ko"
step "kmem: $(nproc) CPUs, $PAIRS veth pairs: warm-up, then $ROUNDS rounds without LRO and with an auto rule"
pairs add
pairs del
trap cleanup EXIT
per=()
for r in $(seq "$ROUNDS"); do
	plain=$(took)
	pairs del
	"$LROADM" auto add all-netns kind veth >/dev/null || die "lroadm auto add failed"
	with=$(took)
	attached=0
	for i in $(seq "$PAIRS"); do
		[ -d /sys/class/net/lkm$i/lro ] && [ -d /sys/class/net/lkp$i/lro ] &&
			attached=$((attached + 2))
	done
	[ "$attached" -eq $((2 * PAIRS)) ] ||
		die "LRO is attached to $attached of $((2 * PAIRS)) devices"
	cleanup
	per+=("$(awk -v a="$with" -v b="$plain" -v n=$((2 * PAIRS)) \
		'BEGIN { printf "%.2f", (a - b) / n }')")
	echo "# round $r: without LRO $plain kB, with $with kB: ${per[-1]} kB per device"
done
trap - EXIT
lro_unload || die "cannot unload lro.ko"
# the median round
median=$(printf '%s\n' "${per[@]}" | sort -n | sed -n "$(( (ROUNDS + 1) / 2 ))p")
echo "kmem cpus=$(nproc) devices=$((2 * PAIRS)) rounds=$ROUNDS per_device_kb=$median" \
	"rounds_kb=$(IFS=,; echo "${per[*]}")" | tee -a "$OUT/kmem.txt"
