#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmem.sh OUT -- the guest side of 'make bench''s memory figure: the kernel
# memory LRO's state takes per attached device, as a container host with
# an all-netns auto rule pays it (README). BENCH_KMEM_PAIRS veth pairs (250:
# 500 devices) are created and deleted once to warm the slab caches, then
# created without LRO and deleted, and created again under the rule
# "lroadm auto add all-netns kind veth". Each time the devices are up
# (a veth pair only receives when both ends are), the caches dropped, and
# the kernel's memory read from /proc/meminfo: Slab (which counts large
# kmalloc()s too), Percpu, VmallocUsed, KernelStack and PageTables.
# (MemFree moved by megabytes from run to run: free pages sit on per-CPU
# lists it does not count.) What the devices took with LRO less what they
# took without, over their number, is kmem_per_device_kb: the per-device
# state, the settings, sysfs, and the per-CPU descriptor tables the first
# attached device brings. One line goes to OUT/kmem.txt.

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
	awk '/^(Slab|Percpu|VmallocUsed|KernelStack|PageTables):/ { kb += $2 }
	     END { print kb }' /proc/meminfo
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

lro_load || die "cannot load lro.ko"
step "kmem: $(nproc) CPUs, $PAIRS veth pairs: warm-up, without LRO, with an auto rule"
pairs add
pairs del
plain=$(took)
pairs del
"$LROADM" auto add all-netns kind veth >/dev/null || die "lroadm auto add failed"
trap cleanup EXIT
with=$(took)
attached=0
for i in $(seq "$PAIRS"); do
	[ -d /sys/class/net/lkm$i/lro ] && [ -d /sys/class/net/lkp$i/lro ] &&
		attached=$((attached + 2))
done
[ "$attached" -eq $((2 * PAIRS)) ] || die "LRO is attached to $attached of $((2 * PAIRS)) devices"
cleanup
trap - EXIT
lro_unload || die "cannot unload lro.ko"
echo "kmem cpus=$(nproc) devices=$((2 * PAIRS)) plain_kb=$plain lro_kb=$with" \
	"per_device_kb=$(awk -v a="$with" -v b="$plain" -v n=$((2 * PAIRS)) \
		'BEGIN { printf "%.2f", (a - b) / n }')" | tee -a "$OUT/kmem.txt"
