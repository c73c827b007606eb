#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug (every suspend offlines all CPUs but one): LRO's state is
# per CPU, and a CPU that goes offline while it holds segments must send
# them up itself, and leave nothing (NAPI, hold timer) that the kernel
# would move to a live CPU and run there against the dead CPU's engines
# (rx.c asserts the CPU in its poll and its timer). Then a stream over a
# CPU that comes and goes, with lroadm descs pinned to that CPU meanwhile:
# byte-exact, and RTNL never stuck behind the hotplug lock.
#
#   [ns cli] veth-cli --- veth-srv [ns srv, LRO, RPS -> CPU 1]

source "$(dirname "$0")/lib.sh"
need_root

cpu1=/sys/devices/system/cpu/cpu1/online
[ "$(nproc --all)" -ge 2 ] && [ -w $cpu1 ] || skip "needs CPU 1, hotpluggable"
mark=$(log_mark)
cpu1_online() { echo 1 > $cpu1; } 2>/dev/null
defer cpu1_online	# whatever the test left it at

lro_load
veth_pair_setup
rps_cpu1() {
	ip netns exec "$NS_SRV" sh -c 'echo 2 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
}
rps_cpu1
adm set veth-srv max_aggr 64 flush_timeout_us 1000000 >/dev/null

# Segments held on CPU 1 for up to 1 s, its timer armed, when it goes.
rounds=4
for i in $(seq "$rounds"); do
	craft --segs 4 --sport $((40000 + i))
	echo 0 > $cpu1
	sleep 0.2
	held=$(lro_stat held_segs)
	echo 1 > $cpu1
	check "round $i: nothing held once CPU 1 is offline" eq "$held" 0
	rps_cpu1
done
check "every held segment was sent up" eq "$(lro_stat aggregated)" $((rounds * 4))
check "... by the CPU going offline, not a timer elsewhere" \
	eq "$(lro_stat flush_detach)" "$rounds"
check "kernel log clean after offlining with held segments" log_clean_since "$mark"

# Streams while CPU 1 comes and goes, and lroadm descs on CPU 1.
adm set veth-srv flush_timeout_us 20000 >/dev/null
TMP=$(mktemp -d)
defer rm -rf "$TMP"
(
	n=0
	while [ ! -e "$TMP/stop" ]; do
		stream_tcp 4 || echo "stream $n" >> "$TMP/bad"
		n=$((n + 1))
	done
	echo $n > "$TMP/streams"
) &
streams=$!
# A snapshot every millisecond, pinned to CPU 1 (as BPF programs run):
# a CPU going offline waits for pinned tasks to leave, holding the hotplug
# lock; a snapshot that waited for that lock (or for RTNL) hung both, and
# all network configuration with them (seen: at the 9th offline).
descs_on_cpu1() {
	ip netns exec "$NS_SRV" taskset -c 1 "$LROADM" descs veth-srv \
		interval 1 count 1000000000 >/dev/null 2>>"$TMP/descs.err" &
	descs=$!
}
descs_on_cpu1
cycles=12
[ "$LRO_SCALE" = 1 ] || cycles=4	# the debug kernel: 20-30 s a cycle
stuck=0
for i in $(seq "$cycles"); do
	( echo 0 > $cpu1 ) &
	off=$!
	for t in $(seq $((300 * LRO_SCALE))); do
		[ -d /proc/$off ] || break
		sleep 0.1
	done
	if [ -d /proc/$off ]; then
		echo "CPU 1 still not offline after $((30 * LRO_SCALE)) s (cycle $i)"
		stuck=$((stuck + 1))
		break
	fi
	echo 1 > $cpu1
	rps_cpu1
	timeout 20 ip link show >/dev/null || stuck=$((stuck + 1))
	# lroadm gives up after 2 s of "busy" (a slow offline): start another
	[ -d /proc/$descs ] || descs_on_cpu1
	sleep 0.2
done
touch "$TMP/stop"
kill $descs 2>/dev/null
wait $streams
echo "CPU 1 offlined $i times over $(cat "$TMP/streams") streams of 4 MB"
check "every stream over a CPU coming and going byte-exact" test ! -e "$TMP/bad"
check "CPU 1 went offline and ip link show answered, every cycle" eq "$stuck" 0
check "nothing held after the streams" eq "$(lro_stat held_segs)" 0
check "kernel log is clean" log_clean_since "$mark"
exit $RET
