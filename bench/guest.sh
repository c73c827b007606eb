#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh micro|stream OUT  -- the guest side of 'make bench' (bench/run.sh)
#
#   micro   (run with VM_ICOUNT=1) lro_bench.ko: per-segment cost of the
#           LRO engine, kernel GRO and no offload; the engine without and
#           with the null BPF merge policy (bpf/lro_policy_null.bpf.c);
#           flow scaling of the engine, of GRO and of the 2007 linear scan
#           (lro.ko linear_lookup=1). Appends the module's result lines,
#           each prefixed by "engine", "policy_none", "policy_null" or
#           "seed", to OUT/micro.txt.
#   stream  one bulk TCP stream over a veth pair (lib.sh's
#           veth_pair_setup: sender TSO/GSO off, receiver GRO off) with no
#           offload, kernel GRO and LRO, interleaved, written 128 KB at a
#           time (as iperf3) and 8 KB at a time (as socat, lib.sh's
#           stream_tcp: configurations w8_*); over IPv6 without offload
#           and with LRO tuned (configurations v6_*, 128 KB writes);
#           request/response latency;
#           the same with 8 and 64 parallel streams; the truesize per byte
#           that TCP is handed; the hold timer sweep; one bulk stream and
#           one request/response flow at once, under each hold timer of
#           the sweep and under the adaptive BPF merge policy
#           (bpf/lro_policy_adaptive.bpf.c). One line per run in
#           OUT/stream.txt.
#
# Sizes (environment): BENCH_MB (stream size, 64), BENCH_REPS (interleaved
# repetitions, 5), BENCH_RR (round trips per latency run, 5000),
# BENCH_TOTAL (micro-benchmark segments per round, 16384), BENCH_ROUNDS
# (timed rounds, 5), BENCH_TUNED_US (LRO hold timer of the "tuned"
# setting, 1000), BENCH_SWEEP (hold timers swept, "0 50 200 1000"),
# BENCH_PAR (parallel stream counts, "8 64"), BENCH_PAR_REPS (their
# interleaved repetitions, 5), BENCH_MIX_MB (stream size of the runs of a
# stream and request/response at once, 32), BENCH_MIX_REPS (their
# interleaved repetitions, 5).

source "$(dirname "$0")/../selftests/lib.sh"
set -euo pipefail

mode=${1:-}
OUT=${2:-}
[ -n "$mode" ] && [ -d "$OUT" ] || { echo "usage: guest.sh micro|stream OUTDIR" >&2; exit 2; }

BENCH_MB=${BENCH_MB:-64}
BENCH_REPS=${BENCH_REPS:-5}
BENCH_RR=${BENCH_RR:-5000}
BENCH_TOTAL=${BENCH_TOTAL:-16384}
BENCH_ROUNDS=${BENCH_ROUNDS:-5}
BENCH_TUNED_US=${BENCH_TUNED_US:-1000}
BENCH_SWEEP=${BENCH_SWEEP:-0 50 200 1000}
BENCH_PAR=${BENCH_PAR:-8 64}
BENCH_PAR_REPS=${BENCH_PAR_REPS:-5}
BENCH_MIX_MB=${BENCH_MIX_MB:-32}
BENCH_MIX_REPS=${BENCH_MIX_REPS:-5}
BENCH_KO=$BUILD/bench/kmod/lro_bench.ko
RR=$BUILD/bench/rr
SCALE_FLOWS="1 8 64 512 4096"

die() { echo "guest.sh: $*" >&2; exit 1; }
# This build's lro.ko, by path: the guest's module index is shared by every
# vmrun on the machine and may hold another build's.
lro_insmod() { lro_unload; insmod "$BUILD/kmod/lro.ko" "$@" || die "insmod lro.ko $* failed"; }
step() { echo "bench: $*"; }	# run.sh adds the host's time

# bench_cases TAG CASES [PARAM...]: load lro_bench.ko with CASES (and
# PARAMs), keep its results
bench_cases() {
	local tag=$1 cases=$2
	shift 2
	insmod "$BENCH_KO" cases="$cases" total="$BENCH_TOTAL" rounds="$BENCH_ROUNDS" "$@" ||
		die "insmod lro_bench.ko cases=$cases $* failed (see dmesg)"
	sed "s/^/$tag /" /sys/kernel/debug/lro_bench/results >> "$OUT/micro.txt"
	sed 's/^/    /' /sys/kernel/debug/lro_bench/results
	rmmod lro_bench
}

bpffs_mount() { mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf; }

# policy_load NAME: register bpf/NAME.bpf.c's policy (lroadm policy load);
# prints the name it is registered as
policy_load() {
	bpffs_mount
	"$LROADM" policy load "$BUILD/bpf/$1.bpf.o" || die "lroadm policy load $1.bpf.o failed"
}

# policy_unload NAME: unregister it (lroadm policy unload)
policy_unload() { "$LROADM" policy unload "$1" || die "lroadm policy unload $1 failed"; }

# lro_unused: wait until nothing holds lro.ko (an unloaded policy's
# struct_ops map lets go of it once freed, after an RCU grace period)
lro_unused() {
	local i
	for i in $(seq 100); do
		[ "$(cat /sys/module/lro/refcnt)" != 0 ] || return 0
		sleep 0.1
	done
	die "lro.ko is still in use 10 s on"
}

scale_cases() { # scale_cases PATH: PATH:Nx8 for every N
	local n s=
	for n in $SCALE_FLOWS; do s+="${s:+,}$1:${n}x8"; done
	echo "$s"
}

micro() {
	[ -f "$BENCH_KO" ] || die "$BENCH_KO not built (make)"
	: > "$OUT/micro.txt"
	lro_insmod
	step "micro: cost per segment, 1 flow (batches of 64) and 8 flows x 8"
	bench_cases engine "lro:1x64,gro:1x64,off:1x64,direct:1x64,free:1x64,lro:8x8,gro:8x8,off:8x8,direct:8x8"
	local pol
	pol=$(policy_load lro_policy_null)
	step "micro: cost per segment, LRO without and with the $pol policy: 1 flow (batches of 64) and 8 flows x 8"
	bench_cases policy_none "lro:1x64,lro:8x8"
	bench_cases "policy_$pol" "lro:1x64,lro:8x8" policy="$pol"
	policy_unload "$pol"
	step "micro: flow scaling, LRO engine (hash lookup): $SCALE_FLOWS flows x 8 segments"
	bench_cases engine "$(scale_cases lro)"
	step "micro: flow scaling, kernel GRO: $SCALE_FLOWS flows x 8 segments"
	bench_cases engine "$(scale_cases gro)"
	lro_unused
	lro_insmod linear_lookup=1
	[ "$(cat /sys/module/lro/parameters/linear_lookup)" = Y ] ||
		die "lro.ko has no linear_lookup parameter"
	step "micro: flow scaling, 2007 linear scan (lro linear_lookup=1): $SCALE_FLOWS flows x 8 segments"
	bench_cases seed "$(scale_cases lro)"
	rmmod lro
}

# --- streams over the veth pair ---

srv() { ip netns exec "$NS_SRV" "$@"; }
snmp() { # snmp NS PROTO FIELD: a counter of /proc/net/snmp
	ip netns exec "$1" awk -v p="$2:" -v k="$3" '$1 == p {
		if (!n) { for (i = 2; i <= NF; i++) idx[$i] = i; n = 1 }
		else print $idx[k] }' /proc/net/snmp
}
# TCP counters of a run: sender retransmissions; receiver out-of-order
# queueing, queue pruning and collapsing (receive buffer pressure)
tcp_counters() {
	echo "$(snmp "$NS_CLI" Tcp RetransSegs) $(tcpext "$NS_SRV" TCPOFOQueue)" \
	     "$(tcpext "$NS_SRV" PruneCalled) $(tcpext "$NS_SRV" TCPRcvCollapsed)"
}
lro_attached() { srv test -d /sys/class/net/veth-srv/lro; }
lro_detach() { ! lro_attached || adm del veth-srv >/dev/null; }
lro_stats() { # the counters a run reports, as key=value
	local k
	for k in aggregated flushed flush_batch flush_timer flush_push flush_size \
		 flush_max_aggr flush_seq flush_flags no_desc; do
		printf ' %s=%s' "$k" "$(lro_stat $k)"
	done
}
gro_set() { # gro_set on|off FLUSH_TIMEOUT_NS DEFER_HARD_IRQS
	srv ethtool -K veth-srv gro "$1" >/dev/null
	srv sh -c "echo $2 > /sys/class/net/veth-srv/gro_flush_timeout &&
		   echo $3 > /sys/class/net/veth-srv/napi_defer_hard_irqs"
}

# lro_set [SETTING VALUE...]: LRO attached afresh, with the module's shipped
# defaults but for what is given
lro_set() {
	lro_detach
	adm set veth-srv "$@" >/dev/null || die "lroadm set veth-srv $* failed"
}

# config NAME: set the receiver up for one of the compared settings
config() {
	case $1 in
	off) lro_detach; gro_set off 0 0 ;;
	gro) lro_detach; gro_set on 0 0 ;;
	gro_tuned) lro_detach; gro_set on 1000000 1 ;;
	lro) gro_set off 0 0; lro_set ;;
	lro_tuned) gro_set off 0 0; lro_set flush_timeout_us "$BENCH_TUNED_US" ;;
	lro_t*) gro_set off 0 0; lro_set flush_timeout_us "${1#lro_t}" ;;
	adaptive) gro_set off 0 0; lro_set flush_timeout_us 0 policy adaptive ;;
	*) die "unknown config $1" ;;
	esac
	if lro_attached; then
		adm stats veth-srv reset >/dev/null
	fi
}

PORT=6000
# The receiver's IPv6 address (streams() adds it beside $SRV_IP).
SRV_IP6=fd77::2
# ip_rx FAMILY: the receiver's IP-layer receives (InReceives) of FAMILY
ip_rx() {
	if [ "$1" = 6 ]; then
		ip netns exec "$NS_SRV" awk '$1 == "Ip6InReceives" { print $2 }' /proc/net/snmp6
	else
		snmp "$NS_SRV" Ip InReceives
	fi
}

# stream CFG REP: one bulk stream; prints one line, and records it unless
# REP is 0 (warm-up). CFG is a config, prefixed by w8_ for 8 KB writes,
# pN_ for N parallel streams (BENCH_MB in all) or v6_ for IPv6.
stream() {
	local cfg=$1 rep=$2 port=$((PORT++)) res ip0 ip1 seg0 seg1 extra='' mb=$BENCH_MB
	local kb=128 conns=1 fam=4 dst=$SRV_IP sink=sink
	case $cfg in
	w8_*) kb=8; config "${cfg#w8_}" ;;
	p[0-9]*_*) conns=${cfg%%_*}; conns=${conns#p}; config "${cfg#*_}" ;;
	v6_*) fam=6; dst=$SRV_IP6; sink=sink6; config "${cfg#v6_}" ;;
	*) config "$cfg" ;;
	esac
	ip0=$(ip_rx $fam)
	seg0=$(snmp "$NS_CLI" Tcp OutSegs)
	local t0 t1
	read -r -a t0 <<< "$(tcp_counters)"
	srv "$RR" $sink $port "$conns" > "$OUT/sink.out" &
	local pid=$!
	wait_port "$NS_SRV" $port || die "sink did not listen on $port"
	ip netns exec "$NS_CLI" "$RR" send "$dst" $port "$mb" $kb "$conns" ||
		die "stream ($cfg) failed"
	wait $pid || die "sink ($cfg) failed"
	ip1=$(ip_rx $fam)
	seg1=$(snmp "$NS_CLI" Tcp OutSegs)
	read -r -a t1 <<< "$(tcp_counters)"
	res=$(cat "$OUT/sink.out")
	[ "${res%% *}" = "bytes=$((mb << 20))" ] || die "sink got $res, not $mb MB"
	if lro_attached; then
		extra=$(lro_stats)
	fi
	res="stream cfg=$cfg rep=$rep mb=$mb write_kb=$kb conns=$conns $res ip_rx=$((ip1 - ip0)) segs=$((seg1 - seg0))"
	res+=" retrans=$((t1[0] - t0[0])) ofo=$((t1[1] - t0[1])) prune=$((t1[2] - t0[2]))"
	res+=" collapsed=$((t1[3] - t0[3]))$extra"
	echo "$res"
	[ "$rep" = 0 ] || echo "$res" >> "$OUT/stream.txt"
}

# rr CFG REP: one request/response run of 64-byte messages
rr() {
	local cfg=$1 rep=$2 port=$((PORT++)) res
	config "$cfg"
	srv "$RR" echo $port &
	local pid=$!
	wait_port "$NS_SRV" $port || die "echo server did not listen on $port"
	res=$(ip netns exec "$NS_CLI" "$RR" ping "$SRV_IP" $port "$BENCH_RR" 64) ||
		die "request/response ($cfg) failed"
	wait $pid || die "echo server ($cfg) failed"
	local extra=
	if lro_attached; then
		extra=$(lro_stats)
	fi
	echo "rr cfg=$cfg rep=$rep $res$extra" | tee -a "$OUT/stream.txt"
}

# adaptive_learnt PORT: what the adaptive policy learnt of the flow to
# PORT (bpf/lro_policy_adaptive.bpf.c's map), as key=value
adaptive_learnt() {
	local v
	v=$(bpftool -j map dump name lro_adaptive | jq -r --argjson p "$1" '.[].formatted |
		select(.key.dport == $p) | .value |
		"policy_hold_us=\(.hold_us) policy_peak_hold_us=\(.peak_hold_us) policy_flushes=\(.flushes)"') ||
		die "cannot read the adaptive policy's map"
	[ -n "$v" ] || die "the adaptive policy learnt nothing of the flow to port $1"
	echo "$v"
}

# mixed CFG REP: one bulk stream (128 KB writes) and one request/response
# flow (64-byte messages) over the pair at once (rr mixed: the round trips
# from just before the stream's first write until the sink has closed it).
# One line with both, recorded.
mixed() {
	local cfg=$1 rep=$2 sport=$((PORT++)) eport=$((PORT++)) res extra= t0 t1 rtt
	config "$cfg"
	read -r -a t0 <<< "$(tcp_counters)"
	srv "$RR" sink $sport > "$OUT/sink.out" &
	local spid=$!
	srv "$RR" echo $eport &
	local epid=$!
	wait_port "$NS_SRV" $sport || die "sink did not listen on $sport"
	wait_port "$NS_SRV" $eport || die "echo server did not listen on $eport"
	rtt=$(ip netns exec "$NS_CLI" "$RR" mixed "$SRV_IP" $sport $eport "$BENCH_MIX_MB" 64) ||
		die "mixed run ($cfg) failed"
	wait $spid || die "mixed ($cfg): sink failed"
	wait $epid || die "mixed ($cfg): echo server failed"
	read -r -a t1 <<< "$(tcp_counters)"
	res=$(cat "$OUT/sink.out")
	[ "${res%% *}" = "bytes=$((BENCH_MIX_MB << 20))" ] || die "sink got $res, not $BENCH_MIX_MB MB"
	res+=" $rtt retrans=$((t1[0] - t0[0])) ofo=$((t1[1] - t0[1]))"
	if lro_attached; then
		extra=$(lro_stats)
	fi
	if [ "$cfg" = adaptive ]; then
		extra+=" $(adaptive_learnt "$sport")"
	fi
	echo "mixed cfg=$cfg rep=$rep mb=$BENCH_MIX_MB $res$extra" | tee -a "$OUT/stream.txt"
}

# truesize CFG: one stream with bench/truesize.bpf.c attached to
# tcp_v4_rcv(): the truesize per byte of what TCP is handed. Apart from
# the timed runs, which run without the probe.
TS_PIN=/sys/fs/bpf/lro_bench_truesize
truesize() {
	local cfg=$1 sums
	bpffs_mount
	rm -f "$TS_PIN"
	bpftool prog load "$BUILD/bench/truesize.bpf.o" "$TS_PIN" autoattach ||
		die "cannot load the truesize probe"
	stream "$cfg" 0 >/dev/null
	sums=$(bpftool -j map dump name ts_sum | jq -r '.[0].formatted.value |
		"pkts=\(.pkts) bytes=\(.bytes) truesize=\(.truesize)"') ||
		die "cannot read the truesize probe"
	rm -f "$TS_PIN"
	echo "truesize cfg=$cfg $sums" | tee -a "$OUT/stream.txt"
}

streams() {
	[ -x "$RR" ] || die "$RR not built (make)"
	[ -x "$LROADM" ] || die "$LROADM not built (make)"
	: > "$OUT/stream.txt"
	lro_insmod
	trap veth_pair_cleanup EXIT
	veth_pair_setup
	ip -n "$NS_CLI" addr add fd77::1/64 dev veth-cli nodad
	ip -n "$NS_SRV" addr add $SRV_IP6/64 dev veth-srv nodad
	adm set veth-srv >/dev/null || die "lroadm cannot attach LRO to veth-srv"

	step "stream: warm-up"
	BENCH_MB=8 stream off 0 >/dev/null
	local r cfg t
	for r in $(seq "$BENCH_REPS"); do
		step "stream: round $r of $BENCH_REPS: off, gro, gro_tuned, lro, lro_tuned, in 128 KB and 8 KB writes, and IPv6 off and lro_tuned (${BENCH_MB} MB each)"
		for cfg in off gro gro_tuned lro lro_tuned; do
			stream $cfg "$r"
			stream "w8_$cfg" "$r"
		done
		stream v6_off "$r"
		stream v6_lro_tuned "$r"
	done
	for r in $(seq "$BENCH_PAR_REPS"); do
		for n in $BENCH_PAR; do
			step "streams: round $r of $BENCH_PAR_REPS: $n parallel streams: off, gro, lro (${BENCH_MB} MB in all)"
			for cfg in off gro lro; do
				stream "p${n}_$cfg" "$r"
			done
		done
	done
	step "truesize: what tcp_v4_rcv() is handed, per byte: off, gro, lro"
	for cfg in off gro lro; do
		truesize $cfg
	done
	for r in $(seq 3); do
		step "rr: round $r of 3: off, lro ($BENCH_RR round trips of 64 bytes)"
		rr off "$r"
		rr lro "$r"
	done
	for t in $BENCH_SWEEP; do
		step "sweep: flush_timeout_us $t: streams (128 KB and 8 KB writes) and request/response"
		stream "lro_t$t" 1
		stream "w8_lro_t$t" 1
		rr "lro_t$t" 1
	done
	step "sweep: reference without LRO"
	rr off 4
	local pol
	pol=$(policy_load lro_policy_adaptive)
	[ "$pol" = adaptive ] || die "lro_policy_adaptive.bpf.o registered '$pol', not adaptive"
	for r in $(seq "$BENCH_MIX_REPS"); do
		step "mixed: round $r of $BENCH_MIX_REPS: a ${BENCH_MIX_MB} MB stream and 64-byte request/response at once, flush_timeout_us $BENCH_SWEEP, then the adaptive policy"
		for t in $BENCH_SWEEP; do
			mixed "lro_t$t" "$r"
		done
		mixed adaptive "$r"
	done
	lro_detach
	policy_unload adaptive
}

case $mode in
micro) micro ;;
stream) streams ;;
*) die "unknown mode $mode (micro|stream)" ;;
esac
step "done"
