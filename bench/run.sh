#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh -- 'make bench': LRO against kernel GRO, no offload and the 2007
# seed, side by side, in QEMU guests (scripts/vmrun). See
# Documentation/bench.md.
#
#   1. guest with VM_ICOUNT=1: lro_bench.ko, per-segment cost (also with
#      the null BPF merge policy) and flow scaling (bench/guest.sh micro)
#   2. guest with VM_ICOUNT=1 too (BENCH_STREAM_ICOUNT=0: the wall clock):
#      veth streams, request/response, the hold timer sweep, a stream and
#      request/response at once under each timer and the adaptive policy
#      (bench/guest.sh stream)
#   3. guest with VM_NICS=e100,usb-net (on the wall clock: QEMU's e100
#      receives nothing under -icount): LRO off and on over drivers
#      without GRO, e100 and usb-net; then a guest with VM_ICOUNT=1 for
#      tun, which needs no emulated NIC (bench/drivers.sh)
#   4. bench/report.py: the table (build/bench/table.txt, also printed),
#      build/bench.json, build/bench/scaling.dat
#   5. gnuplot: build/bench/flow_scaling.png
#
# The BENCH_* sizes of bench/guest.sh may be set here; they are passed into
# the guests. BENCH_ONLY=micro|stream|drivers runs one guest and skips the
# report.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
export BUILD
out=$BUILD/bench
micro_vm=$BUILD/vm/bench-micro
stream_vm=$BUILD/vm/bench-stream
drivers_vm=$BUILD/vm/bench-drivers
drivers_tun_vm=$BUILD/vm/bench-drivers-tun
kmem_vm=$BUILD/vm/bench-kmem

die() { echo "bench: $*" >&2; exit 1; }
step() { echo "bench: [$(date +%T)] $*"; }

for f in "$BUILD/kmod/lro.ko" "$out/kmod/lro_bench.ko" "$out/rr" "$BUILD/userspace/lroadm" \
	"$BUILD/bpf/lro_policy_null.bpf.o" "$BUILD/bpf/lro_policy_adaptive.bpf.o"; do
	[ -e "$f" ] || die "$f is missing: build first ('make', or 'make bench' which builds)"
done
command -v python3 >/dev/null || die "python3 missing (make deps)"

# What else runs on this machine: other guests, and the load average.
others() {
	{ pgrep -a -f '^qemu-system-x86_64 ' || true; } |
		grep -v -c -e "$micro_vm" -e "$stream_vm" -e "$drivers_vm" \
			-e "$drivers_tun_vm" -e "$kmem_vm" || true
}
load1() { cut -d' ' -f1 /proc/loadavg; }
load_start=$(load1)
others_start=$(others)
step "host: $(nproc) CPUs, load average $load_start, $others_start other QEMU guest(s) running"
if [ "$others_start" -gt 0 ] || awk "BEGIN { exit !($load_start >= 1) }"; then
	echo "bench: warning: the machine is busy; throughput and latency figures will be noisy" >&2
fi
sampler() {
	local max_o=0 max_l=0 o l
	while :; do
		o=$(others)
		l=$(load1)
		[ "$o" -le "$max_o" ] || max_o=$o
		awk "BEGIN { exit !($l > $max_l) }" && max_l=$l
		echo "$max_o $max_l" > "$out/host-load"
		sleep 5
	done
}
mkdir -p "$out" "$micro_vm" "$stream_vm" "$drivers_vm" "$drivers_tun_vm" "$kmem_vm"
sampler &
sampler_pid=$!
trap 'kill $sampler_pid 2>/dev/null' EXIT
start=$(date +%s)

pass="BENCH_MB BENCH_REPS BENCH_RR BENCH_TOTAL BENCH_ROUNDS BENCH_TUNED_US BENCH_SWEEP BENCH_PAR BENCH_PAR_REPS
      BENCH_MIX_MB BENCH_MIX_REPS BENCH_DRV_MB BENCH_DRV_REPS BENCH_DRV_HOLD_US BENCH_DRV_KINDS BENCH_DRV_TUN_MB BENCH_KMEM_PAIRS BENCH_KMEM_ROUNDS"
export VM_ENV_PASS="${VM_ENV_PASS:-} $pass"

guest() { # guest SCRIPT VMOUT [VAR=VALUE...]: one guest running bench/SCRIPT
	local script=$1 vmout=$2 rc=0 mode=${1##* }
	mode=${mode%.sh}
	shift 2
	# The guest's clock may be instruction-counted: progress lines get
	# the host's time.
	set +e
	env VM_OUT="$vmout" VM_TIMEOUT="${VM_TIMEOUT:-900}" "$@" \
		"$top/scripts/vmrun" "bench/$script /run/vm" |
		while IFS= read -r line; do
			case $line in
			"bench: "*) echo "bench: [$(date +%T)] ${line#bench: }" ;;
			*) echo "$line" ;;
			esac
		done
	rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" -eq 0 ] || die "the $mode guest failed (exit $rc; console: $vmout/console.log)"
	# Not a test, but a warning or oops makes the numbers suspect.
	local bad
	bad=$(grep -E -e "$(grep -v '^#' "$top/scripts/kernel-log-patterns")" "$vmout/console.log" || true)
	if [ -n "$bad" ]; then
		head -n 5 <<< "$bad" | sed 's/^/bench: warning: guest kernel log: /' >&2
		echo "bench: warning: see $vmout/console.log" >&2
	fi
}

if [ "${BENCH_ONLY:-micro}" = micro ]; then
	step "1/6 micro-benchmark guest (instruction-counted clock, VM_ICOUNT=1)"
	guest "guest.sh micro" "$micro_vm" VM_ICOUNT=1
fi
if [ "${BENCH_ONLY:-stream}" = stream ]; then
	step "2/6 stream guest (veth pair: no offload, GRO, LRO; latency; hold timer sweep)"
	guest "guest.sh stream" "$stream_vm" VM_ICOUNT="${BENCH_STREAM_ICOUNT:-1}"
fi
if [ "${BENCH_ONLY:-drivers}" = drivers ]; then
	# The NICs on the wall clock: under -icount QEMU's e100 (i82559er)
	# received nothing at all (ip -s link: 0 packets, not even ARP). The
	# tap needs no NIC: its own guest runs under -icount, where the host
	# does not move its figures (on the wall clock its rate swung between
	# about 350 and 540 Mbit/s from one run to the next).
	kinds=${BENCH_DRV_KINDS:-e100 usb-net tun}
	nics=$(tr ' ' '\n' <<< "$kinds" | grep -v -e '^tun$' -e '^$' | paste -sd, || true)
	rm -f "$drivers_vm/drivers.txt" "$drivers_tun_vm/drivers.txt"
	if [ -n "$nics" ]; then
		step "3/6 drivers guest (${nics//,/, }: LRO off and on, wall clock)"
		guest drivers.sh "$drivers_vm" VM_ICOUNT=0 VM_NICS="$nics" \
			BENCH_DRV_KINDS="${nics//,/ }"
	fi
	if grep -qw tun <<< "$kinds"; then
		# 64 MB a stream (BENCH_DRV_TUN_MB): at this guest's rate
		# 16 MB took under 20 ticks of busy CPU, too coarse a count.
		step "3/6 drivers guest (tun: LRO off, defaults and a hold, -icount)"
		guest drivers.sh "$drivers_tun_vm" VM_ICOUNT=1 BENCH_DRV_KINDS=tun \
			BENCH_DRV_MB="${BENCH_DRV_TUN_MB:-64}"
	fi
	cat "$drivers_vm/drivers.txt" "$drivers_tun_vm/drivers.txt" \
		> "$out/drivers.txt" 2>/dev/null || true
fi
if [ "${BENCH_ONLY:-kmem}" = kmem ]; then
	step "4/6 memory guests (kernel memory per attached device, 2 and 4 vCPUs)"
	rm -f "$kmem_vm/kmem.txt"
	for smp in 2 4; do
		guest kmem.sh "$kmem_vm" VM_ICOUNT=0 VM_SMP=$smp
	done
fi
[ -z "${BENCH_ONLY:-}" ] || exit 0

step "5/6 report"
read -r others_max load_max < "$out/host-load" || { others_max=$others_start; load_max=$load_start; }
python3 "$top/bench/report.py" "$micro_vm/micro.txt" "$stream_vm/stream.txt" "$out" \
	"$BUILD/bench.json" --drivers "$out/drivers.txt" --kmem "$kmem_vm/kmem.txt" host_load1_start="$load_start" host_load1_max="$load_max" \
	host_other_guests_max="$others_max" bench_seconds=$(($(date +%s) - start)) \
	lro_tuned_flush_timeout_us="${BENCH_TUNED_US:-1000}" \
	stream_icount="${BENCH_STREAM_ICOUNT:-1}" ||
	die "report failed"

step "6/6 flow-scaling plot"
if command -v gnuplot >/dev/null; then
	gnuplot <<EOF || die "gnuplot failed"
set terminal pngcairo noenhanced size 900,600 font ",11"
set output "$out/flow_scaling.png"
set title "Per-segment cost vs. interleaved flows (8 segments per flow per flush)\nQEMU TCG -icount shift=0: 1 ns = 1 guest instruction"
set xlabel "flows"
set ylabel "ns per segment"
set logscale xy
set xrange [0.7:6000]
set key top left
set grid
plot "$out/scaling.dat" using 1:2 with linespoints lw 2 title "LRO engine (hash lookup)", \
     "$out/scaling.dat" using 1:3 with linespoints lw 2 title "2007 linear scan (linear_lookup=1)", \
     "$out/scaling.dat" using 1:4 with linespoints lw 2 title "kernel GRO (napi_gro_receive)"
EOF
else
	echo "bench: gnuplot missing (make deps): no plot" >&2
fi
echo "bench: results in $BUILD/bench.json, table in $out/table.txt, plot in $out/flow_scaling.png"
echo "bench: $(($(date +%s) - start)) s; host load average max $load_max, other QEMU guests seen: $others_max"
