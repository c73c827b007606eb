# SPDX-License-Identifier: GPL-2.0
#
# Helpers shared by the selftests (sourced, not run). Modelled on the
# kernel's selftests/net/lib.sh and kselftest/ktap_helpers.sh.

ksft_pass=0
ksft_fail=1
ksft_skip=4

SELFTESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(dirname "$SELFTESTS")
BUILD=${BUILD:-$TOP/build}
LROADM=$BUILD/userspace/lroadm

# Set to 1 by the guest runner when the guest runs the debug kernel (make
# check KERNEL=debug: KASAN, lockdep, kmemleak), where everything is about
# 10-20x slower. Tests that move a lot of data divide their volume by
# LRO_SCALE (8 under the debug kernel, else 1; may be set by hand):
#   stream_tcp "$(scaled 32)"
LRO_DEBUG_KERNEL=${LRO_DEBUG_KERNEL:-0}
if [ "$LRO_DEBUG_KERNEL" = 1 ]; then
	LRO_SCALE=${LRO_SCALE:-8}
else
	LRO_SCALE=${LRO_SCALE:-1}
fi
scaled() { # scaled N: N / LRO_SCALE, at least 1
	local n=$(($1 / LRO_SCALE))
	echo $((n > 0 ? n : 1))
}

ratio() { # ratio A B: A / B to two decimals, rounded (0.00 when B is 0)
	local r=0
	[ "$2" -eq 0 ] || r=$(((200 * $1 / $2 + 1) / 2))
	printf '%d.%02d' $((r / 100)) $((r % 100))
}

# The segments per packet a coalesced stream must reach, in tenths: 2, or
# 1.5 under the debug kernel. There the sender sets PSH every other segment
# or so, and most packets end at a write, not at max_aggr, however long
# they are held: 1.9 per packet seen on veth (datapath.sh, with a third
# guest beside two; in a rerun 475 of 486 flushes were flush_push), 1.9
# and 2.0 over a VLAN (ipv6.sh), below 2 on a bond (stacked.sh), all in
# CI runs of 2026-12-04. Without LRO it is 1.
SEGS_PER_PKT_X10=20
[ "$LRO_DEBUG_KERNEL" != 1 ] || SEGS_PER_PKT_X10=15

# check_coalesced WHAT AGGREGATED FLUSHED [IP_RECEIVES SEGMENTS]: LRO built
# packets of SEGS_PER_PKT_X10/10 segments or more, and the IP layer saw
# at most 10/SEGS_PER_PKT_X10 of the SEGMENTS
check_coalesced() {
	local x10=$SEGS_PER_PKT_X10
	local min=$((x10 / 10)).$((x10 % 10))

	check "$1: at least $min segments per packet ($(ratio "$2" "$3"))" \
		ge $(($2 * 10)) $(($3 * x10))
	[ $# -lt 5 ] ||
		check "$1: IP layer saw at most 1/$min of the segments" \
			le $(($4 * x10)) $(($5 * 10))
}

# Each check prints one line; the first failure fixes the exit status.
# Returns the command's success, for what a test shows after a failure:
#   check "stream byte-exact" stream_tcp 8 || diag
RET=$ksft_pass
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		RET=$ksft_fail
		return 1
	fi
}

# Cleanup, as in the kernel's selftests/net/lib.sh: each setup step
# registers its own undo right after it (defer CMD ARGS...), and at exit
# one EXIT trap runs what was deferred, the last registered first. Every
# deferred command runs, whatever the others did, and the test's exit
# status stands. defer_scope_push ... defer_scope_pop runs a part's own
# deferred commands when that part ends, the rest still at exit.
# (A test that sets an EXIT trap of its own replaces this one.)
__defer_cmds=()
__defer_scopes=()
defer() { # defer CMD ARGS...: run CMD ARGS (as given, quoted) at exit
	__defer_cmds+=("$(printf '%q ' "$@")")
}
__defer_run_down_to() { # runs, newest first, the deferred commands from index $1
	local i
	while [ ${#__defer_cmds[@]} -gt "$1" ]; do
		i=$((${#__defer_cmds[@]} - 1))
		eval "${__defer_cmds[i]}" || :
		unset '__defer_cmds[i]'
	done
}
defer_scope_push() { __defer_scopes+=(${#__defer_cmds[@]}); }
defer_scope_pop() {
	local n=${#__defer_scopes[@]}
	[ "$n" -gt 0 ] || return 1
	__defer_run_down_to "${__defer_scopes[n - 1]}"
	unset '__defer_scopes[n - 1]'
}
__defer_exit() {
	local rc=$?
	__defer_scopes=()
	__defer_run_down_to 0
	exit $rc
}
trap __defer_exit EXIT

# quiet CMD...: CMD with its stderr hidden, e.g. a deferred undo of what
# the test may have undone itself: defer quiet ip link del dummy0
quiet() { "$@" 2>/dev/null; }

# kill_jobs: kills the shell's background jobs and waits for them; deferred
# by tests that start some, after their other setup, so that it runs first
kill_jobs() {
	local p
	for p in $(jobs -p); do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
}

# sysctl_set NAME VALUE: sets a sysctl until the test ends (deferred restore)
sysctl_set() {
	defer sysctl -q "$1=$(sysctl -n "$1")"
	sysctl -q "$1=$2"
}

skip() {
	echo "SKIP: $*"
	exit $ksft_skip
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root"
}

# Load the freshly built module (the guest runner installs it where
# modprobe finds it); no-op when already loaded.
lro_load() {
	[ -d /sys/module/lro ] || modprobe lro
}

lro_unload() {
	[ ! -d /sys/module/lro ] || rmmod lro
}

# The kernel log as "seq;text" lines, read from /dev/kmsg without blocking
# (dd stops at EAGAIN). A mark is a record's sequence number: those keep
# counting when the ring buffer wraps, while dmesg's line count stops
# growing once it is full, and a mark made of it would then check nothing.
kmsg_records() {
	dd if=/dev/kmsg iflag=nonblock bs=16k status=none 2> /dev/null |
		sed -n 's/^[0-9]*,\([0-9]*\),[^;]*;/\1;/p'
}
# Kernel log lines since a mark that look like trouble. Exit status is
# grep's: 0 = trouble found, 1 = clean, 2 = could not check (not clean).
log_mark() {
	local last

	last=$(kmsg_records | tail -n 1)
	echo "${last%%;*}"
}
log_trouble_since() {
	local pat

	pat=$(grep -v '^#' "$TOP/scripts/kernel-log-patterns") || return 2
	kmsg_records | awk -v mark="${1:--1}" '
		{ seq = substr($0, 1, index($0, ";") - 1) }
		seq + 0 > mark + 0 { print substr($0, index($0, ";") + 1) }' |
		grep -E -e "$pat"
}
log_clean_since() { log_trouble_since "$1"; [ $? -eq 1 ]; }

# The two-host topology most tests use:
#
#   netns $NS_CLI                         netns $NS_SRV
#   +------------------+                  +------------------+
#   | veth-cli         |------------------| veth-srv  (LRO)  |
#   | 10.77.0.1/24     |    veth pair     | 10.77.0.2/24     |
#   | TSO/GSO off      |                  | GRO off          |
#   +------------------+                  +------------------+
#
# The sender's TSO/GSO are off so MSS-sized segments cross the pair, and the
# receiver's GRO is off so only LRO can coalesce them.
NS_CLI=lro-cli-$$
NS_SRV=lro-srv-$$
CLI_IP=10.77.0.1
SRV_IP=10.77.0.2
# The pair's IPv6 addresses, for the tests that add them
CLI_IP6=fd77::1
SRV_IP6=fd77::2

# ns_pair_add: the namespaces $NS_CLI and $NS_SRV, deleted at exit
# (veth_pair_cleanup, deferred at the first call: a test may set up again)
NS_PAIR_DEFERRED=0
ns_pair_add() {
	[ "$NS_PAIR_DEFERRED" = 1 ] || { defer veth_pair_cleanup; NS_PAIR_DEFERRED=1; }
	ip netns add "$NS_CLI"
	ip netns add "$NS_SRV"
}

veth_pair_setup() {
	ns_pair_add
	ip -n "$NS_CLI" link add veth-cli type veth peer name veth-srv netns "$NS_SRV"
	ip -n "$NS_CLI" addr add $CLI_IP/24 dev veth-cli
	ip -n "$NS_SRV" addr add $SRV_IP/24 dev veth-srv
	ip -n "$NS_CLI" link set lo up
	ip -n "$NS_SRV" link set lo up
	ip -n "$NS_CLI" link set veth-cli up
	ip -n "$NS_SRV" link set veth-srv up
	nsenter --net="/run/netns/$NS_CLI" ethtool -K veth-cli tso off gso off >/dev/null
	nsenter --net="/run/netns/$NS_SRV" ethtool -K veth-srv gro off >/dev/null
}

veth_pair_cleanup() { netns_del "$NS_CLI" "$NS_SRV"; }

# netns_del NS...: deletes those of the namespaces that exist, in one ip
netns_del() {
	local ns
	for ns; do echo "netns del $ns"; done | ip -force -batch - 2>/dev/null
	true
}

# dev_addrs_up NS DEV IP IP6: DEV in NS up, with IP/24 and IP6/64 (nodad:
# usable at once), and NS's lo up; one ip, as each costs a second or more
# under the debug kernel
dev_addrs_up() {
	ip -n "$1" -batch - <<-EOF
		addr add $3/24 dev $2
		addr add $4/64 dev $2 nodad
		link set lo up
		link set $2 up
	EOF
}

# nic_setup KIND: the emulated NIC KIND (e100, usb-net) that scripts/vmrun
# added for VM_NICS, and the e1000 wired to it: loads their drivers (built
# in under the debug kernel), waits for both devices and prints "PEER DEV",
# their names in the init netns. Fails when the guest has no such NIC: a
# test that needs one says so in a "# vm-nics: KIND" line, from which
# scripts/check.sh sets VM_NICS for its guest.
nic_setup() {
	local kind=$1 n=0 k='' mods i peer dev

	for k in ${VM_NICS//,/ }; do
		[ "$k" = "$kind" ] && break
		n=$((n + 1))
	done
	if [ "$k" != "$kind" ]; then
		echo "no $kind NIC in this guest (VM_NICS='${VM_NICS:-}'): run it with scripts/check.sh" >&2
		return 1
	fi
	case $kind in
	e100) mods="e1000 e100" ;;
	usb-net) mods="e1000 xhci_pci cdc_ether" ;;
	esac
	for k in $mods; do
		modprobe -q "$k" || { echo "modprobe $k failed" >&2; return 1; }
	done
	# By MAC address (scripts/vmrun): USB enumeration takes a moment.
	for i in $(seq $((100 * LRO_SCALE))); do
		peer=$(grep -lx "52:54:00:4c:0$n:01" /sys/class/net/*/address 2>/dev/null)
		dev=$(grep -lx "52:54:00:4c:0$n:02" /sys/class/net/*/address 2>/dev/null)
		[ -n "$peer" ] && [ -n "$dev" ] && break
		sleep 0.1
	done
	if [ -z "$peer" ] || [ -z "$dev" ]; then
		echo "$kind NIC or its e1000 did not appear (peer '$peer', NIC '$dev')" >&2
		return 1
	fi
	peer=${peer%/address} dev=${dev%/address}
	echo "${peer##*/} ${dev##*/}"
}

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
	adm stats "$1" | grep -E ' (aggregated|flushed|pkts_in|flush_[a-z]+) [1-9]' | tr -s ' \n' ' '
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

wait_port() { # wait_port NS PORT: until something listens on PORT in NS
	local i
	for i in $(seq 100); do
		[ -e "/run/netns/$1" ] || return 1
		[ -z "$(nsenter --net="/run/netns/$1" ss -Htln "sport = :$2")" ] || return 0
		sleep 0.05
	done
	return 1
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

# has_line REGEX TEXT: a line of TEXT matches REGEX (ERE), as grep -Eq
# would say, without starting a process
has_line() {
	local line
	while IFS= read -r line; do
		[[ $line =~ $1 ]] && return 0
	done <<< "$2"
	return 1
}

# exits_with STATUS REGEX COMMAND...: COMMAND exits with STATUS and a line
# of its stderr matches REGEX (ERE). fails_with: lroadm refuses COMMAND
# itself, status 1 (its grammar, a value, a device it cannot find);
# refused_with: the kernel refuses it, or cannot be reached, status 2.
exits_with() {
	local status=$1 pattern=$2 rc err
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq "$status" ] && has_line "$pattern" "$err" && return 0
	echo "    exit status $rc (want $status), stderr:"
	[ -z "$err" ] || printf '    | %s\n' "${err//$'\n'/$'\n'    | }"
	echo "    wanted: $pattern"
	return 1
}
fails_with() { exits_with 1 "$@"; }
refused_with() { exits_with 2 "$@"; }

# out_is EXPECTED CMD...: CMD succeeds and prints exactly EXPECTED
out_is() {
	local expected=$1 out
	shift
	out=$("$@" 2>&1) || { echo "    exit status $? from: $*"; echo "$out" | sed 's/^/    | /'; return 1; }
	[ "$out" = "$expected" ] && return 0
	echo "    expected: $expected"
	echo "$out" | sed 's/^/    got:      /'
	return 1
}

# output_says OUTPUT TEXT [NOTE]: OUTPUT (of bpftool, say) holds TEXT; if
# not, says so (with NOTE) and shows OUTPUT's last lines but the verifier's
# lines of BPF source (";")
output_says() {
	grep -qF -- "$2" <<< "$1" && return 0
	echo "    (${3:+$3, }no \"$2\" in:)"
	grep -v '^;' <<< "$1" | tail -n 5 | sed 's/^/    /'
	return 1
}

# same A B: two captured outputs are equal
same() {
	[ "$1" = "$2" ] && return 0
	echo "    before: $1"
	echo "    after:  $2"
	return 1
}

# jq_is EXPECTED FILTER CMD...: CMD's JSON output, through jq -c FILTER
jq_is() {
	local expected=$1 filter=$2 out
	shift 2
	out=$("$@" | jq -c "$filter" 2>&1)
	[ "$out" = "$expected" ] && return 0
	echo "    jq '$filter': expected $expected, got $out"
	return 1
}

# Integer comparisons that print what they compared when they fail.
fails() { ! "$@" 2>/dev/null; } # fails COMMAND...: it fails (stderr hidden)
ge() { [ "$1" -ge "$2" ] || { echo "    ($1 < $2)"; return 1; }; }
le() { [ "$1" -le "$2" ] || { echo "    ($1 > $2)"; return 1; }; }
eq() { [ "$1" = "$2" ] || { echo "    ($1 != $2)"; return 1; }; }
