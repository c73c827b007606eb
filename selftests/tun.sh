#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on a tap device fed by a userspace VPN: two taps joined by
# tap_relay (selftests/tools/tap_relay.c), which reads each frame from one
# and writes it to the other. tap-cli is in $NS_CLI, tap-srv in $NS_SRV;
# the relay, in the init netns, holds both file descriptors.
#
#   $NS_CLI                     init netns                    $NS_SRV
#   tap-cli 10.77.0.1 --- read() tap_relay write() --- tap-srv 10.77.0.2 (LRO)
#           fd77::1                                            fd77::2
#
# The path: the taps are opened without IFF_NAPI, so a write() is
# tun_get_user() -> tun_rx_batched() -> netif_receive_skb() with bottom
# halves disabled around it (rx_batched is 0, and write() never passes
# "more"): never napi_gro_receive(), which only IFF_NAPI (tun_napi_receive)
# and IFF_NAPI_FRAGS (napi_gro_frags) reach. The relay uses IFF_VNET_HDR
# without TUNSETOFFLOAD, so it reads MSS-sized segments with full
# checksums, and writes each one with a zeroed virtio_net_hdr, as
# wireguard-go writes a packet it did not coalesce (OpenVPN, without a
# vnet header, gives the kernel the same skb): ip_summed CHECKSUM_NONE,
# no GSO, so LRO checks each segment's TCP checksum itself.
#
# Each write() is a receive batch of its own: the softirq that runs LRO's
# end-of-batch flush runs at the local_bh_enable() after it. So with the
# defaults (flush_timeout_us 0) every segment goes up alone, and LRO
# coalesces on tun only with a hold timer (see Documentation/drivers.md).
#
#  - at the defaults the adaptive feature sees that and passes nine in
#    ten segments or more untaken (lone_passed);
#  - IPv4 and IPv6 streams with LRO (hold 1 ms) are byte-exact, reach IP
#    in a fraction of the packets they do with LRO off, in order;
#  - lroadm descs shows a flow held on tap-srv (hand-made segments: see
#    below why not the stream's);
#  - lroadm del and rmmod lro while a stream runs: it completes byte-exact;
#  - nothing in the kernel log.
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, since control.sh detaches LRO with a packet held)

source "$(dirname "$0")/lib.sh"
need_root

RELAY=$BUILD/selftests/tools/tap_relay
[ -x "$RELAY" ] || skip "no $RELAY (make)"
[ -c /dev/net/tun ] || modprobe tun 2>/dev/null
[ -c /dev/net/tun ] || skip "no /dev/net/tun"

TMP=$(mktemp -d)
defer rm -rf "$TMP"

lro_load
mark=$(log_mark)
ns_pair_add
# The relay (a coprocess, not one of the jobs: killed first, as
# kill_jobs waits for every child), then the streams.
relay_kill() { [ -z "${RELAY_PID:-}" ] || kill "$RELAY_PID" 2>/dev/null; }
defer kill_jobs
defer relay_kill
# On one CPU, so that each flow's segments meet in one of LRO's per-CPU
# engines (Documentation/datapath.md: a hold timer reorders a flow that
# arrives on two CPUs).
coproc RELAY { exec taskset -c $(($(nproc) - 1)) "$RELAY" tap-cli tap-srv 2> "$TMP/relay.err"; }
read -r -t $((30 * LRO_SCALE)) -u "${RELAY[0]}" ready
if [ "$ready" != ready ]; then
	cat "$TMP/relay.err"
	echo "FAIL: tap_relay did not start"
	exit $ksft_fail
fi
# MSS-sized segments from the sender's TCP, as veth_pair_setup makes
# them: Linux sets PSH on the last segment of every GSO packet
# (tcp_transmit_skb()), and at this path's rate TCP sizes them at 2
# segments, so every second segment would end LRO's packet.
ethtool -K tap-cli gso off
# One ip per netns: under the debug kernel each costs a second or more.
ip -batch - <<-EOF
	link set tap-cli netns $NS_CLI
	link set tap-srv netns $NS_SRV
EOF
dev_addrs_up "$NS_CLI" tap-cli $CLI_IP $CLI_IP6
dev_addrs_up "$NS_SRV" tap-srv $SRV_IP $SRV_IP6

MB=$(scaled 4)
# A hold of 1 ms, as Documentation/datapath.md advises for senders that
# write in small pieces; under the debug kernel, where a segment takes
# far longer to cross the relay, 100 ms (as datapath.sh).
hold=1000
[ "$LRO_DEBUG_KERNEL" != 1 ] || hold=100000

# measure FAMILY LABEL: a $MB MB stream over FAMILY (4 or 6), byte-exact;
# IP receives in $NS_SRV in IPR[LABEL]
declare -A IPR
port=5001
measure() {
	local count=ip_in_receives dst=$SRV_IP r0 r1 t0 t1

	[ "$1" = 4 ] || { count=ip6_in_receives; dst=$SRV_IP6; }
	r0=$($count "$NS_SRV")
	t0=$EPOCHREALTIME
	check "IPv$1, $2: $MB MB stream byte-exact" stream_tcp "$MB" $((port++)) $dst
	t1=$EPOCHREALTIME
	r1=$($count "$NS_SRV")
	IPR[$2]=$((r1 - r0))
	# (the time includes starting both ends, about 1.5 s)
	echo "IPv$1, $2: $((r1 - r0)) IP receives ($(ratio $((r1 - r0)) "$MB") per MB)," \
		"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"
}

# --- LRO off, LRO with its defaults, LRO with a hold --------------------------
#
# Under the debug kernel, where a stream takes 20 s on a busy host, only
# the streams with a hold run, each compared with the frames LRO took in
# (pkts_in), which is what IP receives with LRO off, give or take a few
# (on Debian's kernel: 5803 IP receives off, 5803 pkts_in with LRO over
# IPv4; 5887 and 5884 over IPv6).
if [ "$LRO_DEBUG_KERNEL" != 1 ]; then
	measure 4 off4
	measure 6 off6
	check "lroadm set tap-srv (defaults)" adm set tap-srv
	measure 4 default4
	stats=$(lro_stats_settled tap-srv)
	echo "defaults, end of each write: $(ratio "$(stat_of aggregated "$stats")" \
		"$(stat_of flushed "$stats")") segments per packet"
	lro_stats_line tap-srv
	check "defaults: 9 in 10 segments passed untaken (adaptive)" \
		ge $(($(stat_of lone_passed "$stats") * 10)) \
		$(($(stat_of pkts_in "$stats") * 9))
fi

# With a hold, IP receives fall to a quarter of LRO off's. Under the debug
# kernel the sender sets PSH every second segment or so (as ipv6.sh
# notes): 1.8 to 1.9 segments per packet there.
fewer=4 fewer_what="a quarter"
[ "$LRO_DEBUG_KERNEL" != 1 ] || fewer=1.5 fewer_what="two thirds"
check "lroadm set tap-srv flush_timeout_us $hold" adm set tap-srv flush_timeout_us $hold
ofo0=$(tcpext "$NS_SRV" TCPOFOQueue)
measure_lro tap-srv
ofo1=$(tcpext "$NS_SRV" TCPOFOQueue)
for f in 4 6; do
	declare -n s=stats$f
	off=$(off_receives $f)
	echo "IPv$f: LRO off $off, LRO with a hold ${IPR[lro$f]} IP receives:" \
		"$(ratio "$off" "${IPR[lro$f]}")x fewer;" \
		"$(ratio "$(stat_of aggregated "$s")" "$(stat_of flushed "$s")") segments per packet"
	check_receives_cut $f $fewer "$fewer_what"
	check "IPv$f: nothing held after the stream" eq "$(stat_of held_segs "$s")" 0
done
check "no reordering (TCPOFOQueue)" eq "$ofo1" "$ofo0"

# --- lroadm descs ------------------------------------------------------------
#
# A stream's flow is seldom held at a given moment on this path: its
# segments join within one burst of the relay's writes, and the sender
# ends each burst with PSH (a sampler of held_segs found segments held in
# 3 of 132 samples over a stream, lroadm descs in 1 to 4 of 100-230
# snapshots). So, as bpf_descs.sh does on veth, hand-made segments held by
# a hold timer, sent out of tap-cli through the relay (descs_show_crafted).
check "lroadm descs showed a flow held on tap-srv (3 segments, 3000 bytes, relay's CPU)" \
	descs_show_crafted tap-cli tap-srv $(($(nproc) - 1))
check "nothing held after the hold time" \
	eq "$(dev_stat tap-srv held_segs)" 0

# --- detach and unload while a stream runs -----------------------------------
#
# Streams of twice $MB MB, each still running when LRO has taken a quarter
# of it and lroadm del (rmmod) starts: it completes byte-exact. (Whether it
# still runs when they return depends on how long they take on a busy host.)
adm set tap-srv flush_timeout_us $hold
adm stats tap-srv reset	# pkts_in counts from here
stream_across tap-srv $((MB * 2)) $port "lroadm del tap-srv" adm del tap-srv
port=$((port + 1))

adm set tap-srv flush_timeout_us $hold
stream_across tap-srv $((MB * 2)) $port "rmmod lro" rmmod lro

kill "$RELAY_PID"
wait "$RELAY_PID"
RELAY_PID=
echo "tap_relay: $(cat "$TMP/relay.err")"
check "kernel log is clean" log_clean_since "$mark"
exit $RET
