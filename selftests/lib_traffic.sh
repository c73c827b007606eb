# SPDX-License-Identifier: GPL-2.0
#
# lib.sh's traffic part: streams across the pair, and the counters that
# say what LRO and the IP layer did with them (lroadm stats, /proc/net/snmp,
# held segments, crafted frames, descriptor snapshots). Sourced by lib.sh.

# IP-layer packets received in a netns (InReceives in /proc/net/snmp).
# nsenter rather than ip netns exec, which also remounts /sys: /proc/net
# follows the reader's netns. Under the debug kernel each process started
# costs a second or more; these run in loops.
ip_in_receives() {
	nsenter --net="/run/netns/$1" awk '/^Ip:/ { if (seen++) print $4 }' /proc/net/snmp
}
# The same for IPv6, and any other counter of /proc/net/snmp6.
ip6_in_receives() { snmp6 "$1" Ip6InReceives; }
snmp6() { # snmp6 NS NAME
	nsenter --net="/run/netns/$1" awk -v k="$2" '$1 == k { print $2 }' /proc/net/snmp6
}

# stream_tcp MB [PORT [DST]]: send MB megabytes of random data from
# $NS_CLI to $NS_SRV (address DST, default $SRV_IP; IPv6 if it has a colon)
# over one TCP connection; succeeds when the receiver got exactly what was
# sent. Each end gives up after STREAM_TIMEOUT s (default 120, times
# LRO_SCALE). The sender retries its connect every 100 ms until the
# receiver listens: polling for the listener (wait_port) starts processes,
# which takes seconds under the debug kernel. STREAM_BS sets the size of
# the sender's writes (socat's 8 KB by default).
stream_tcp() {
	local mb=$1 port=${2:-5001} dst=${3:-$SRV_IP} tcp=TCP dir
	[[ $dst != *:* ]] || { tcp=TCP6; dst="[$dst]"; }
	dir=$(mktemp -d)
	head -c "$((mb << 20))" /dev/urandom > "$dir/tx"
	local t=${STREAM_TIMEOUT:-$((120 * LRO_SCALE))}
	ip netns exec "$NS_SRV" timeout "$t" socat -u $tcp-LISTEN:$port,reuseaddr OPEN:"$dir/rx",creat,trunc &
	local srv=$!
	ip netns exec "$NS_CLI" timeout "$t" \
		socat -u ${STREAM_BS:+-b "$STREAM_BS"} OPEN:"$dir/tx" $tcp:$dst:$port,retry=$((t * 10)),interval=0.1
	wait $srv
	local ok=1
	cmp -s "$dir/tx" "$dir/rx" && ok=0
	rm -rf "$dir"
	return $ok
}

# stream_bg MB PORT [DST]: stream_tcp in the background, its pid in $BG;
# stream_ok PORT then says whether it was byte-exact (after a wait).
STREAM_BG_DIR=
stream_bg() {
	[ -n "$STREAM_BG_DIR" ] || STREAM_BG_DIR=$(mktemp -d)
	( stream_tcp "$@" && touch "$STREAM_BG_DIR/ok.$2" ) > /dev/null 2>&1 &
	BG=$!
}
stream_ok() { [ -n "$STREAM_BG_DIR" ] && test -e "$STREAM_BG_DIR/ok.$1"; }

# lro_taken DEV N: until LRO on DEV (in $NS_SRV) has taken N segments
# (pkts_in), at most 60 s (times LRO_SCALE); one lroadm for all the reads
# (stat_stream), started by lro_taking DEV before what is awaited starts,
# or else here: a short stream could end while lroadm starts.
LRO_TAKING_FD=
lro_taking() { exec {LRO_TAKING_FD}< <(stat_stream "$1" pkts_in 0.1); }
lro_taken() {
	local v n=0 rc=1

	[ -n "$LRO_TAKING_FD" ] || lro_taking "$1"
	# Not a pipe, which would wait for the sampler to notice: it ends at
	# its next sample, once its reading end is closed.
	while read -r -u "$LRO_TAKING_FD" v &&
	      [ $((n += 1)) -le $((600 * LRO_SCALE)) ]; do
		[ "$v" -lt "$2" ] || { rc=0; break; }
	done
	exec {LRO_TAKING_FD}<&-
	LRO_TAKING_FD=
	return $rc
}

# lro_stats_line DEV: the counters of LRO on DEV (in $NS_SRV) that say how
# packets were made, on one line
lro_stats_line() {
	adm stats "$1" | grep -E ' (aggregated|flushed|pkts_in|lone_passed|flush_[a-z]+) [1-9]' | tr -s ' \n' ' '
	echo
}
# measure_lro DEV: the test's own "measure FAMILY LABEL" over IPv4 (lro4),
# then IPv6 (lro6), each from reset counters of LRO on DEV, which it leaves
# in $stats4 and $stats6 (lro_stats_settled) and shows (lro_stats_line)
measure_lro() {
	local f

	for f in 4 6; do
		adm stats "$1" reset
		measure $f lro$f
		printf -v "stats$f" %s "$(lro_stats_settled "$1")"
		lro_stats_line "$1"
	done
}

# off_receives F: after measure_lro, IPv$F's IP receives with LRO off
# (IPR[off$F], the test's), or else the segments LRO took in (pkts_in of
# $stats$F): the same, give or take a few
off_receives() {
	local -n st=stats$1
	echo "${IPR[off$1]:-$(stat_of pkts_in "$st")}"
}
# check_receives_cut F X WHAT: IPv$F's IP receives with LRO (IPR[lro$F])
# were at most 1/X (said WHAT) of those with LRO off (off_receives)
check_receives_cut() {
	check "IPv$1: IP receives with LRO at most $3 of LRO off's" \
		awk -v a="${IPR[lro$1]}" -v b="$(off_receives "$1")" -v x="$2" 'BEGIN { exit !(a * x <= b) }'
}

# stream_across DEV MB PORT WHAT CMD...: a stream of MB MB to PORT, and once
# LRO on DEV (in $NS_SRV) has taken a quarter of it, CMD (checked as WHAT)
# while it still runs; the stream must complete byte-exact (if not, runs
# $STREAM_DIAG, when set)
stream_across() {
	local dev=$1 mb=$2 port=$3 what=$4

	shift 4
	lro_taking "$dev"
	stream_bg "$mb" "$port"
	check "LRO took a quarter of the stream" lro_taken "$dev" $((mb * 1048576 / 1448 / 4))
	check "... the stream still running" kill -0 $BG
	check "$what while the stream runs" "$@"
	wait $BG
	check "stream across $what byte-exact" stream_ok "$port" || ${STREAM_DIAG:-:}
}
# LRO on the receiving end of the pair: lroadm in $NS_SRV (lroadm -n
# joins the netns itself).
adm() { "$LROADM" -n "$NS_SRV" "$@"; }
dev_stat() { # dev_stat DEV NAME: a counter of LRO on DEV in $NS_SRV
	adm stats "$1" | awk -v n="$2" '$1 == n { print $2 }'
}
lro_stat() { dev_stat veth-srv "$1"; }	# lro_stat NAME: one of veth-srv's
# stat_stream DEV NAME SECONDS: DEV's counter NAME (in $NS_SRV), one line
# every SECONDS, from one lroadm reading commands from a pipe (lroadm -b),
# so no process starts per sample: under the debug kernel starting one
# takes longer than the longest hold time (1 s). Ends when its reader does.
# (sed -u: mawk, Debian's awk, reads its input a block at a time.)
STAT_STREAM_SH='
	d=$(mktemp -d) && mkfifo "$d/never" && exec 9<> "$d/never" && rm -r "$d" || exit 1
	while echo "stats $1"; do
		read -r -t "$3" -u 9 _	# a FIFO nobody writes: a sleep
	done | "$4" -b - | sed -un "s/^ *$2 \\([0-9]*\\)\$/\\1/p"'
stat_stream() {
	ip netns exec "$NS_SRV" bash -c "$STAT_STREAM_SH" stat_stream "$1" "$2" "$3" "$LROADM"
}
# lro_stats_settled [DEV]: all of DEV's counters (default veth-srv, in
# $NS_SRV), one "name value" per line, from one netlink reply, once two
# replies 100 ms apart agree.
# Frames a test did not send cross LRO at any time (the kernel's own IPv6
# router solicitations, backing off from 4 s, and MLD reports): one that
# arrives between two reads, or is counted in but not yet out while the
# reply is built, breaks an identity among counters by one frame.
lro_stats_settled() {
	local dev=${1:-veth-srv} prev now i

	now=$(adm stats "$dev") || return 1
	for i in $(seq 50); do
		sleep 0.1
		prev=$now
		now=$(adm stats "$dev") || return 1
		if [ "$now" = "$prev" ]; then
			echo "$now"
			return 0
		fi
	done
	return 1
}
stat_of() { # stat_of NAME STATS: one counter of lro_stats_settled's output
	local name value
	while read -r name value; do
		[ "$name" != "$1" ] || echo "$value"
	done <<< "$2"
}
# held_sampler FILE [COUNTER]: writes veth-srv's held_segs (or COUNTER)
# to FILE every 50 ms (stat_stream); returns once the first sample is in.
# held_max FILE stops it and prints the most it saw.
# Read once after craft, the counter would come too late under the debug
# kernel, where starting a process takes longer than the longest hold
# time (1 s).
held_sampler() {
	local i

	: > "$1"
	setsid ip netns exec "$NS_SRV" bash -c "$STAT_STREAM_SH" held_sampler \
		veth-srv "${2:-held_segs}" 0.05 "$LROADM" > "$1" &
	HELD_SAMPLER=$!
	for i in $(seq 600); do
		[ -s "$1" ] && break
		sleep 0.1
	done
}
held_max() {
	kill -- -"$HELD_SAMPLER" 2>/dev/null	# its process group (setsid)
	wait "$HELD_SAMPLER" 2>/dev/null
	sort -n "$1" | tail -n 1
}
srv_mac() { ip -n "$NS_SRV" -br link show veth-srv | awk '{ print $3 }'; }

# craft ARGS...: hand-made segments from veth-cli to veth-srv (tcpcraft.py),
# sent from CPU 0. veth hands each frame to the backlog of the CPU that sent
# it, and LRO's state is per CPU: a sender that migrates mid-train (seen
# under the debug kernel) splits one flow over two engines, and the counts
# the tests expect (one timer flush, one descriptor per flow) with it.
craft() {
	ip netns exec "$NS_CLI" taskset -c 0 python3 "$SELFTESTS/tcpcraft.py" --dev veth-cli \
		--dst-mac "$(srv_mac)" --src $CLI_IP --dst $SRV_IP "$@"
}

# descs_start FILE ARGS...: lroadm -j descs ARGS (in $NS_SRV) in the
# background, its pid in DESCS_PID, writing FILE (stderr: FILE.err);
# returns once it wrote a snapshot or died (loading its BPF program takes
# seconds under the debug kernel)
descs_start() {
	local f=$1 i

	shift
	"$LROADM" -n "$NS_SRV" -j descs "$@" > "$f" 2> "$f.err" &
	DESCS_PID=$!
	for i in $(seq $((600 * LRO_SCALE))); do
		[ -s "$f" ] || ! kill -0 $DESCS_PID 2>/dev/null && break
		sleep 0.1
	done
}

# descs_show_crafted PEER DEV [CPU]: lroadm descs shows a flow held on DEV
# (in $NS_SRV): three hand-made segments without PSH (tcpcraft.py, 3 x 1000
# bytes to port 9, source port 45001 and up) sent out of PEER (in $NS_CLI)
# and held by a 1 s hold timer, while lroadm descs -- started first:
# loading its BPF program takes seconds under the debug kernel -- takes a
# snapshot every 100 ms. Succeeds when a snapshot shows the flow (on CPU,
# when given); tries three flows, as a slow guest may take more than the
# hold time to send them or to look. Leaves the hold timer at 1 s.
# (A stream's own flow is seldom caught held: the sender's PSH ends each
# of its bursts, and its segments arrive in bursts; Documentation/drivers.md.)
descs_show_crafted() {
	local peer=$1 dev=$2 cpu=${3:-} dir pid sport n=0

	"$LROADM" -n "$NS_SRV" set "$dev" flush_timeout_us 1000000 || return 1
	dir=$(mktemp -d)
	descs_start "$dir/descs" "$dev" interval 100
	pid=$DESCS_PID
	for sport in 45001 45002 45003; do
		ip netns exec "$NS_CLI" python3 "$SELFTESTS/tcpcraft.py" --dev "$peer" \
			--dst-mac "$(ip -n "$NS_SRV" -br link show "$dev" | awk '{ print $3 }')" \
			--src $CLI_IP --dst $SRV_IP --sport $sport --segs 3 --mss 1000 --ts
		sleep 1.5	# past the hold time
		n=$(python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    try:
        rows = json.loads(l)
    except ValueError:	# a line being written
        continue
    n += sum(1 for r in rows if (r["saddr"], r["daddr"], r["sport"], r["dport"], r["ifname"],
                                 r["segs"], r["bytes"]) ==
             (sys.argv[2], sys.argv[3], int(sys.argv[4]), 9, sys.argv[5], 3, 3000) and
             (sys.argv[6] == "" or r["cpu"] == int(sys.argv[6])))
print(n)' "$dir/descs" $CLI_IP $SRV_IP $sport "$dev" "$cpu")
		[ "$n" -ge 1 ] && break
	done
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	echo "    lroadm descs: $(wc -l < "$dir/descs") snapshots, $n with the crafted flow"
	sed 's/^/    /' "$dir/descs.err"
	rm -rf "$dir"
	[ "$n" -ge 1 ]
}

# A TCP counter of a netns (/proc/net/netstat, TcpExt), e.g. TCPOFOQueue.
tcpext() { # tcpext NS NAME
	nsenter --net="/run/netns/$1" awk -v k="$2" '/^TcpExt:/ {
		if (!n) { for (i = 2; i <= NF; i++) idx[$i] = i; n = 1 }
		else print $idx[k] }' /proc/net/netstat
}
