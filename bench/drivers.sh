#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# drivers.sh OUT  -- the drivers guest of 'make bench' (bench/run.sh runs
# it with VM_NICS=e100,usb-net)
#
# LRO off and on, interleaved, on the receiving end of each device whose
# driver has no GRO (Documentation/drivers.md):
#
#   e100     QEMU's i82559er, from an e1000 through a QEMU hub
#   usb-net  QEMU's usb-net on xHCI (cdc_ether, usbnet), from an e1000
#   tun      a tap written by a userspace relay (tap_relay) from another
#            tap, without IFF_NAPI
#
# each with the sender in $NS_CLI and the receiver in $NS_SRV (as
# selftests/lib_nic.sh and selftests/tun.sh set them up). Configurations:
# off, lro (the module's defaults), and for tun lro_hold (flush_timeout_us
# BENCH_DRV_HOLD_US, 1000: on a tap each write() is a receive batch of its
# own, so the defaults coalesce nothing there). One line per run in
# OUT/drivers.txt: throughput, IP receives, and the guest's softirq and
# busy CPU time (/proc/stat, in USER_HZ ticks; the guest runs on the wall
# clock, since QEMU's e100 receives nothing under -icount).
#
# Sizes (environment): BENCH_DRV_MB (per stream, 16), BENCH_DRV_REPS
# (interleaved repetitions, 5), BENCH_DRV_KINDS (the devices, "e100
# usb-net tun").
#
# Where the CPU goes: BENCH_DRV_PROFILE=1 samples the whole guest with
# perf (cpu-clock) while each stream runs and prints, after the run's
# line, the samples spent busy and idle, the busiest symbols and lro.ko's.
# Under VM_ICOUNT=1 (tun only: QEMU's NICs receive nothing then) a sample
# is a fixed number of guest instructions: the host's load does not
# stretch the counts, though the relay's scheduling still moves them by up
# to a quarter from run to run (take several BENCH_DRV_REPS):
#
#   BENCH_DRV_KINDS=tun BENCH_DRV_PROFILE=1 VM_ICOUNT=1 \
#	VM_ENV_PASS="BENCH_DRV_KINDS BENCH_DRV_PROFILE" \
#	scripts/vmrun bench/drivers.sh /tmp

source "$(dirname "$0")/../selftests/lib.sh"
set -euo pipefail

OUT=${1:-}
[ -d "$OUT" ] || { echo "usage: drivers.sh OUTDIR" >&2; exit 2; }
BENCH_DRV_MB=${BENCH_DRV_MB:-16}
BENCH_DRV_REPS=${BENCH_DRV_REPS:-5}
BENCH_DRV_HOLD_US=${BENCH_DRV_HOLD_US:-1000}
BENCH_DRV_KINDS=${BENCH_DRV_KINDS:-e100 usb-net tun}
BENCH_DRV_PROFILE=${BENCH_DRV_PROFILE:-0}
PERF_HZ=20000
RR=$BUILD/bench/rr
RELAY=$BUILD/selftests/tools/tap_relay

die() { echo "drivers.sh: $*" >&2; exit 1; }
step() { echo "bench: $*"; }	# run.sh adds the host's time
srv() { ip netns exec "$NS_SRV" "$@"; }

RELAY_PID=
cleanup() {
	[ -z "$RELAY_PID" ] || { kill "$RELAY_PID" 2>/dev/null; wait "$RELAY_PID" 2>/dev/null || true; }
	RELAY_PID=
	veth_pair_cleanup || true	# the NICs go back to the init netns
}
trap cleanup EXIT

# setup KIND: KIND's sender end in $NS_CLI, its receiving device $DEV in
# $NS_SRV, addressed, up, with a carrier
setup() {
	local kind=$1 peer i

	cleanup
	ip netns add "$NS_CLI"
	ip netns add "$NS_SRV"
	if [ "$kind" = tun ]; then
		[ -c /dev/net/tun ] || modprobe tun
		coproc RELAYC { exec taskset -c $(($(nproc) - 1)) "$RELAY" tap-cli tap-srv 2>/dev/null; }
		RELAY_PID=$RELAYC_PID
		local ready
		read -r -t 60 -u "${RELAYC[0]}" ready || true
		[ "$ready" = ready ] || die "tap_relay did not start"
		peer=tap-cli DEV=tap-srv
	else
		local names
		names=$(nic_setup "$kind") || die "no $kind NIC"
		read -r peer DEV <<< "$names"
	fi
	ip link set "$peer" netns "$NS_CLI"
	ip link set "$DEV" netns "$NS_SRV"
	ip netns exec "$NS_CLI" ethtool -K "$peer" tso off gso off > /dev/null
	# e100: TCP's window within its 256 receive buffers, as
	# selftests/e100.sh explains (QEMU's i82559er stalled once here).
	[ "$kind" != e100 ] || srv sysctl -q net.ipv4.tcp_rmem="4096 131072 262144"
	ip -n "$NS_CLI" addr add "$CLI_IP/24" dev "$peer"
	ip -n "$NS_SRV" addr add "$SRV_IP/24" dev "$DEV"
	ip -n "$NS_CLI" link set lo up
	ip -n "$NS_SRV" link set lo up
	ip -n "$NS_CLI" link set "$peer" up
	ip -n "$NS_SRV" link set "$DEV" up
	for i in $(seq 300); do
		[ "$(ip netns exec "$NS_CLI" cat "/sys/class/net/$peer/carrier" 2>/dev/null)" = 1 ] &&
		[ "$(srv cat "/sys/class/net/$DEV/carrier" 2>/dev/null)" = 1 ] && return 0
		sleep 0.1
	done
	die "$kind: no carrier"
}

config() { # config off|lro|lro_hold
	[ ! -d "/sys/module/lro" ] || adm del "$DEV" > /dev/null 2>&1 || true
	case $1 in
	off) ;;
	lro) adm set "$DEV" > /dev/null ;;
	lro_hold) adm set "$DEV" flush_timeout_us "$BENCH_DRV_HOLD_US" > /dev/null ;;
	esac
}

# The guest's CPU time in USER_HZ ticks: softirq (where e100's and
# usbnet's receive runs), and busy, all but idle and iowait (a tap's
# receive runs in the relay's write(), as system time).
cpu_ticks() { awk '$1 == "cpu" { print $8, $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

# sender ARGS...: run the sender, under perf when profiling
sender() {
	if [ "$BENCH_DRV_PROFILE" = 1 ]; then
		perf record -q -a -e cpu-clock -F $PERF_HZ -o "$OUT/perf.data" -- "$@" 2>/dev/null
	else
		"$@"
	fi
}

# profile: what the last sender's perf record saw. Idle is the idle loop's
# symbols; at PERF_HZ under -icount shift=0, a sample is 1e9 / PERF_HZ
# guest instructions.
profile() {
	[ "$BENCH_DRV_PROFILE" = 1 ] || return 0
	perf report -i "$OUT/perf.data" --stdio --no-children -n --sort sym -q \
		2>/dev/null > "$OUT/perf.txt" || die "perf report failed"
	awk -v hz=$PERF_HZ '{ if ($0 ~ /safe_halt|default_idle|cpuidle|poll_idle/) idle += $2; else busy += $2
		if ($4 ~ /^lro_/) lro += $2 }
	     END { printf "  perf samples busy=%d idle=%d lro_functions=%d (a sample: %d instructions under -icount)\n",
		   busy, idle, lro, 1e9 / hz }' "$OUT/perf.txt"
	grep -v -E 'safe_halt|default_idle|cpuidle|poll_idle' "$OUT/perf.txt" | head -25 | sed 's/^/  /'
	echo "  lro.ko's functions:"
	grep -E '\] lro_' "$OUT/perf.txt" | sed 's/^/  /' || true
}

PORT=7000
# run KIND CFG REP: one stream; one line, recorded unless REP is 0
run() {
	local kind=$1 cfg=$2 rep=$3 port=$((PORT++)) ip0 ip1 s0 s1 b0 b1 res extra=''

	config "$cfg"
	ip0=$(ip_in_receives "$NS_SRV")
	read -r s0 b0 <<< "$(cpu_ticks)"
	srv "$RR" sink $port 1 > "$OUT/sink.out" &
	local pid=$!
	wait_port "$NS_SRV" $port || die "sink did not listen on $port"
	sender ip netns exec "$NS_CLI" "$RR" send "$SRV_IP" $port "$BENCH_DRV_MB" 128 1 ||
		die "$kind stream ($cfg) failed"
	wait $pid || die "$kind sink ($cfg) failed"
	read -r s1 b1 <<< "$(cpu_ticks)"
	ip1=$(ip_in_receives "$NS_SRV")
	res=$(cat "$OUT/sink.out")
	[ "${res%% *}" = "bytes=$((BENCH_DRV_MB << 20))" ] || die "sink got $res, not $BENCH_DRV_MB MB"
	if [ "$cfg" != off ]; then
		extra=" aggregated=$(dev_stat "$DEV" aggregated)"
		extra+=" flushed=$(dev_stat "$DEV" flushed)"
	fi
	res="driver drv=${kind/-/} cfg=$cfg rep=$rep mb=$BENCH_DRV_MB $res ip_rx=$((ip1 - ip0))"
	res+=" softirq_ticks=$((s1 - s0)) busy_ticks=$((b1 - b0))$extra"
	echo "$res"
	[ "$rep" = 0 ] || { echo "$res" >> "$OUT/drivers.txt"; profile; }
}

[ -x "$RR" ] || die "$RR not built (make)"
[ -x "$RELAY" ] || die "$RELAY not built (make)"
[ "$BENCH_DRV_PROFILE" != 1 ] || sysctl -q kernel.kptr_restrict=0	# symbols
: > "$OUT/drivers.txt"
lro_unload
insmod "$BUILD/kmod/lro.ko" || die "insmod lro.ko failed"
for kind in $BENCH_DRV_KINDS; do
	cfgs="off lro"
	[ "$kind" != tun ] || cfgs="off lro lro_hold"
	setup "$kind"
	step "drivers: $kind ($DEV): warm-up, then $BENCH_DRV_REPS rounds of $cfgs ($BENCH_DRV_MB MB each)"
	run "$kind" off 0 > /dev/null
	for r in $(seq "$BENCH_DRV_REPS"); do
		for cfg in $cfgs; do
			run "$kind" "$cfg" "$r"
		done
	done
done
cleanup
rmmod lro
step "done"
