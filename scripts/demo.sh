#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [OUTDIR [SHOWN]] -- the main job, run inside the test guest by
# 'make demo' (and by selftests/demo.sh, which checks what it prints).
#
# One bulk TCP stream over a veth pair (selftests/lib.sh's
# veth_pair_setup: sender TSO/GSO off, receiver GRO off), sent as iperf3
# sends, in 128 KB writes, into a receiver with no offload, with kernel GRO
# and with LRO at the module's shipped defaults; DEMO_RUNS rounds of the
# three, interleaved, and a table of their medians: throughput, IP-layer
# receives, segments per packet and CPU per MB (measured as bench/guest.sh
# measures them). Then four streams at once, paced by netem, LRO holding
# segments, while 'lroadm descs' takes snapshots until one has a flow in
# it (up to three rounds of streams; or it says none was caught), and
# 'lroadm stats'. Writes OUTDIR/demo.png (throughput and IP receives per receiver,
# gnuplot), OUTDIR/demo.dat (its numbers) and OUTDIR/demo-runs.txt (each
# run's), and names the picture as
# SHOWN/demo.png: 'make demo' writes to the guest's result share, /run/vm,
# which is build/demo on the host.
#
#   DEMO_MB     megabytes per stream (64)
#   DEMO_RUNS   rounds (3)
#   DEMO_CFGS   the receivers compared ("no-offload kernel-GRO LRO-defaults";
#               also LRO-hold-1ms)
#   DEMO_PACE_MB, DEMO_PACE_MBIT  the 4 streams while lroadm descs looks:
#               megabytes in all (32), and netem's rate on veth-cli (400)
#   DEMO_HOLD_US  LRO's hold time then (1000)
#   VM_ICOUNT   1 when the guest's clock counts instructions (make demo
#               VM_ICOUNT=1): said under the table

source "$(dirname "$0")/../selftests/lib.sh"
set -e

OUTDIR=${1:-/tmp/lro-demo}
SHOWN=${2:-$OUTDIR}
DEMO_MB=${DEMO_MB:-64}
DEMO_RUNS=${DEMO_RUNS:-3}
DEMO_HOLD_US=${DEMO_HOLD_US:-1000}
DEMO_PACE_MB=${DEMO_PACE_MB:-32}
DEMO_PACE_MBIT=${DEMO_PACE_MBIT:-400}
RR=$BUILD/bench/rr
CFGS=${DEMO_CFGS:-no-offload kernel-GRO LRO-defaults}

say() { printf '\n== %s\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }
srv() { ip netns exec "$NS_SRV" "$@"; }
[ -x "$RR" ] && [ -x "$LROADM" ] || die "build first: make"
mkdir -p "$OUTDIR"
TMP=$(mktemp -d)
trap 'veth_pair_cleanup; rm -rf "$TMP"' EXIT

snmp() { # snmp NS PROTO FIELD: a counter of /proc/net/snmp (as bench/guest.sh)
	ip netns exec "$1" awk -v p="$2:" -v k="$3" '$1 == p {
		if (!n) { for (i = 2; i <= NF; i++) idx[$i] = i; n = 1 }
		else print $idx[k] }' /proc/net/snmp
}
# The guest's busy CPU time, all CPUs, in USER_HZ ticks: all but idle and
# iowait (as bench/drivers.sh). Sender and receiver share the guest.
cpu_busy() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; }

lro_detach() { ! srv test -d /sys/class/net/veth-srv/lro || adm del veth-srv; }
lro_attach() { lro_detach; adm set veth-srv "$@" >/dev/null; }
gro() { srv ethtool -K veth-srv gro "$1" >/dev/null; }
config() {
	case $1 in
	no-offload) lro_detach; gro off ;;
	kernel-GRO) lro_detach; gro on ;;
	LRO-defaults) gro off; lro_attach ;;
	LRO-hold-1ms) gro off; lro_attach flush_timeout_us 1000 ;;
	*) die "unknown receiver $1" ;;
	esac
}

PORT=6000
# run CFG: one DEMO_MB stream into receiver CFG; appends "CFG MBIT/S IP_RX
# SEGS TICKS" to $TMP/runs
run() {
	local port=$((PORT++)) ip0 ip1 seg0 seg1 c0 c1 res

	config "$1"
	srv "$RR" sink $port > "$TMP/sink" &
	wait_port "$NS_SRV" $port || die "the sink did not listen"
	ip0=$(ip_in_receives "$NS_SRV")
	seg0=$(snmp "$NS_CLI" Tcp OutSegs)
	c0=$(cpu_busy)
	ip netns exec "$NS_CLI" "$RR" send "$SRV_IP" $port "$DEMO_MB" 128 || die "stream ($1) failed"
	wait $! || die "sink ($1) failed"
	c1=$(cpu_busy)
	seg1=$(snmp "$NS_CLI" Tcp OutSegs)
	ip1=$(ip_in_receives "$NS_SRV")
	res=$(cat "$TMP/sink")
	[ "${res%% *}" = "bytes=$((DEMO_MB << 20))" ] || die "the sink got $res, not $DEMO_MB MB"
	res=${res##*mbit_s=}
	echo "$1 ${res%% *} $((ip1 - ip0)) $((seg1 - seg0)) $((c1 - c0))" >> "$TMP/runs"
}

lro_load
veth_pair_setup
echo "veth pair: $NS_CLI/veth-cli (sender: TSO/GSO off, so 1448-byte segments cross)"
echo "        -> $NS_SRV/veth-srv (receiver: no offload, kernel GRO or LRO)"
say "one TCP stream of $DEMO_MB MB in 128 KB writes into each receiver, $DEMO_RUNS rounds, medians"
run no-offload	# warm-up, not counted
: > "$TMP/runs"
for _ in $(seq "$DEMO_RUNS"); do
	for cfg in $CFGS; do
		run "$cfg"
	done
done
# The medians per receiver, in $CFGS's order: a table, and demo.dat for
# the picture.
python3 - "$TMP/runs" "$OUTDIR/demo.dat" "$DEMO_MB" "$(getconf CLK_TCK)" $CFGS <<'EOF'
import statistics as st, sys
runs, dat, mb, hz, cfgs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
rows = {c: [] for c in cfgs}
for line in open(runs):
    c, mbit, ip_rx, segs, ticks = line.split()
    rows[c].append((float(mbit), int(ip_rx), int(segs) / int(ip_rx), int(ticks) * 1000 / hz / mb))
fmt = "{:<14} {:>8} {:>12} {:>12} {:>10}"
print(fmt.format("receiver", "Mbit/s", "IP receives", "segs/packet", "CPU ms/MB"))
spread = []
with open(dat, "w") as f:
    f.write("# receiver Mbit/s IP_receives segs/packet CPU_ms/MB (medians) Mbit/s_min Mbit/s_max\n")
    for c in cfgs:
        m = [st.median(r[i] for r in rows[c]) for i in range(4)]
        lo, hi = min(r[0] for r in rows[c]), max(r[0] for r in rows[c])
        print(fmt.format(c, f"{m[0]:.0f}", f"{m[1]:.0f}", f"{m[2]:.1f}", f"{m[3]:.1f}"))
        f.write(f"{c} {m[0]:.0f} {m[1]:.0f} {m[2]:.1f} {m[3]:.1f} {lo:.0f} {hi:.0f}\n")
        spread.append(f"{c} {lo:.0f}-{hi:.0f}")
print(f"Mbit/s, lowest-highest of the {len(rows[cfgs[0]])} rounds: " + ", ".join(spread))
EOF
cp "$TMP/runs" "$OUTDIR/demo-runs.txt"
echo "IP receives: Ip InReceives in the receiver's netns (/proc/net/snmp); segs/packet: the"
echo "sender's TCP segments per IP receive; CPU: the whole guest's busy time (both ends), /proc/stat."
if [ "${VM_ICOUNT:-0}" = 1 ]; then
	clock="QEMU -icount: 1 ns = 1 guest instruction"
	echo "The guest's clock counts instructions ($clock): a busy host does not move these."
else
	clock="the wall clock"
	echo "The guest runs on the wall clock: a busy host moves Mbit/s and CPU (README: the demo)."
fi

say "mid-stream: the flows LRO holds right now (lroadm descs: a BPF iterator)"
# On veth a burst of segments arrives in one receive batch and leaves LRO
# at its PSH, in the same softirq: a snapshot would seldom find a flow
# held. A wire spreads segments out; netem's rate does it here.
echo "\$ tc qdisc add dev veth-cli root netem rate ${DEMO_PACE_MBIT}mbit   # pace the sender as a wire would"
ip netns exec "$NS_CLI" tc qdisc add dev veth-cli root netem rate "${DEMO_PACE_MBIT}mbit" limit 10000
echo "\$ lroadm set veth-srv flush_timeout_us $DEMO_HOLD_US   # and hold segments up to $DEMO_HOLD_US us"
gro off
lro_attach flush_timeout_us "$DEMO_HOLD_US"
echo "\$ lroadm descs veth-srv interval 20   # while 4 streams run: the first snapshot with flows"
# Its BPF program takes a moment to load: the streams start once its
# first snapshot is out.
srv "$LROADM" descs veth-srv interval 20 > "$TMP/descs" 2>&1 &
descs=$!
for _ in $(seq 100); do
	[ -s "$TMP/descs" ] || ! kill -0 $descs 2>/dev/null && break
	sleep 0.1
done
# A snapshot is a paragraph: the header, then one row per held flow.
caught() {
	awk 'BEGIN { RS = "" } { if (split($0, l, "\n") > 1) { print; exit } }' "$TMP/descs"
}
# On a busy host netem may release a write's segments together, and
# every snapshot of a round can miss: up to three rounds of streams, until
# one snapshot holds a flow.
for round in 1 2 3; do
	pport=$((PORT + 100 + round))
	srv "$RR" sink $pport 4 > /dev/null &
	sink=$!
	wait_port "$NS_SRV" $pport || die "the sink did not listen"
	ip netns exec "$NS_CLI" "$RR" send "$SRV_IP" $pport "$DEMO_PACE_MB" 128 4 &
	send=$!
	while kill -0 $send 2>/dev/null && [ -z "$(caught)" ]; do
		sleep 0.05
	done
	wait $send || die "the 4 streams failed"
	wait $sink || die "their sink failed"
	[ -z "$(caught)" ] || break
done
kill $descs 2>/dev/null || true
wait $descs 2>/dev/null || true
ip netns exec "$NS_CLI" tc qdisc del dev veth-cli root
if [ -n "$(caught)" ]; then
	caught
else
	sed -n 1p "$TMP/descs"
	echo "(none caught: no snapshot of the $(grep -c '^dev ' "$TMP/descs") taken during the streams held a flow)"
fi

say "lroadm stats veth-srv   # LRO's counters for those 4 streams (three to a line)"
adm stats veth-srv | awk 'NR == 1 { print; next }
	{ printf "    %-16s %10s%s", $1, $2, NR % 3 == 1 ? "\n" : "   " }
	END { if (NR % 3 != 1) print "" }'

# The picture: throughput and IP receives per receiver.
gnuplot <<EOF || die "gnuplot failed"
set terminal pngcairo noenhanced size 1000,500 font ",11"
set output "$OUTDIR/demo.png"
set multiplot layout 1,2 title "One TCP stream over veth, $DEMO_MB MB in 128 KB writes, median of $DEMO_RUNS\nQEMU guest, 2 vCPUs, $clock"
set style fill solid 0.85 border -1
set boxwidth 0.6
set bmargin 4
set yrange [0:*]
set offsets 0.5, 0.5, graph 0.1, 0
set grid ytics
unset key
c(i) = i == 0 ? 0x999999 : i == 1 ? 0x4477aa : 0xcc3311
# "kernel-GRO" as "kernel" over "GRO"
name(s) = strstrt(s, "-") ? s[1:strstrt(s, "-") - 1] . "\n" . s[strstrt(s, "-") + 1:] : s
set title "throughput, Mbit/s (higher is better; whiskers: lowest-highest round)"
plot "$OUTDIR/demo.dat" using 0:2:(c(\$0)):xtic(name(strcol(1))) with boxes lc rgb variable, \
     "" using 0:2:6:7 with yerrorbars lc rgb "black" pt 0, \
     "" using 0:7:2 with labels offset 2.2,0.8
set title "IP-layer receives (fewer is better)"
plot "$OUTDIR/demo.dat" using 0:3:(c(\$0)):xtic(name(strcol(1))) with boxes lc rgb variable, \
     "" using 0:3:3 with labels offset 0,0.8
unset multiplot
EOF
echo
echo "the picture: $SHOWN/demo.png"
