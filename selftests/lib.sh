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
# status stands.
# (A test that sets an EXIT trap of its own replaces this one.)
__defer_cmds=()
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
__defer_exit() {
	local rc=$?
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

# A long-lived helper for queries that would each start a process: under
# the debug kernel a python3 start costs seconds, and some tests make
# dozens. server_start NAME CMD... runs CMD with its stdin and stdout on two
# FIFOs until the test ends; server_ask NAME LINE writes LINE, one request,
# and prints the line CMD answers. CMD must answer each request with
# exactly one line, and flush it.
declare -gA __server_in __server_out
server_start() {
	local name=$1 dir in out
	shift
	dir=$(mktemp -d)
	mkfifo "$dir/in" "$dir/out"
	"$@" < "$dir/in" > "$dir/out" &
	defer quiet kill $!
	exec {in}> "$dir/in" {out}< "$dir/out"
	rm -r "$dir"
	__server_in[$name]=$in
	__server_out[$name]=$out
}
server_ask() {
	local line

	printf '%s\n' "$2" >&"${__server_in[$1]}"
	IFS= read -r line <&"${__server_out[$1]}" && printf '%s\n' "$line"
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

# The rest, by concept (each sourced here, none by a test):
source "$SELFTESTS/lib_topo.sh"	# the veth pair, namespaces, NIC addresses
source "$SELFTESTS/lib_traffic.sh"	# streams and counters
source "$SELFTESTS/lib_assert.sh"	# what checks compare
