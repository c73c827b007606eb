# SPDX-License-Identifier: GPL-2.0
#
# The body of the tests of LRO on an emulated NIC whose driver has no GRO
# (sourced by e100.sh and usbnet.sh, which set NIC_KIND; not a test of its
# own). scripts/vmrun (VM_NICS) wires the NIC to an e1000 through a QEMU
# hub; nothing leaves the guest:
#
#   $NS_CLI                                            $NS_SRV
#   $PEER (e1000) 10.77.0.1 --- QEMU hub --- $DEV (NIC_KIND) 10.77.0.2 (LRO)
#                 fd77::1                                  fd77::2
#
#  - IPv4 and IPv6 streams, LRO off (not under the debug kernel: below)
#    and with its defaults (flushed at the end of each receive batch):
#    byte-exact, in order (e100), and with LRO the IP layer receives at
#    most half the packets it does without (a fifth fewer under the debug
#    kernel, whose sender sets PSH every second segment or so;
#    datapath.sh); LRO's counters account for every segment;
#  - lroadm descs shows a flow held on $DEV (hand-made segments and a hold
#    timer: a stream's own flow is seldom caught held, below);
#  - lroadm del and rmmod lro while a stream runs: it completes byte-exact;
#  - nothing in the kernel log.
#
# The figures (IP receives, segments per packet, time, the receiving
# guest's softirq time per MB) are printed; Documentation/drivers.md
# quotes them.

source "$(dirname "$0")/lib.sh"
need_root

TMP=$(mktemp -d)
defer rm -rf "$TMP"

names=$(nic_setup "$NIC_KIND") || { echo "FAIL: $NIC_KIND NIC"; exit $ksft_fail; }
read -r PEER DEV <<< "$names"
echo "$NIC_KIND: $DEV ($(basename "$(readlink /sys/class/net/"$DEV"/device/driver)")), its peer $PEER (e1000)"
lro_load
mark=$(log_mark)
# The NICs go back to the init netns when the namespaces go (at exit:
# ns_pair_add defers it): the next test of this guest may want them.
ns_pair_add
defer kill_jobs
ip link set "$PEER" netns "$NS_CLI"
ip link set "$DEV" netns "$NS_SRV"
# MSS-sized segments from the sender, as veth_pair_setup makes them (PSH
# ends every TSO/GSO packet; tun.sh).
ip netns exec "$NS_CLI" ethtool -K "$PEER" tso off gso off > /dev/null
dev_addrs_up "$NS_CLI" "$PEER" $CLI_IP $CLI_IP6
dev_addrs_up "$NS_SRV" "$DEV" $SRV_IP $SRV_IP6
carrier() { # carrier NS DEV: until DEV has a carrier (e1000 negotiates)
	local i

	for i in $(seq $((300 * LRO_SCALE))); do
		[ "$(ip netns exec "$1" cat "/sys/class/net/$2/carrier" 2>/dev/null)" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}
# The receiving socket's buffer, and so TCP's window, within the NIC's
# receive ring (e100: 256 buffers) when NIC_RMEM is set (e100.sh).
[ -z "${NIC_RMEM:-}" ] || ip netns exec "$NS_SRV" sysctl -q net.ipv4.tcp_rmem="$NIC_RMEM"
check "$PEER has a carrier" carrier "$NS_CLI" "$PEER"
check "$DEV has a carrier" carrier "$NS_SRV" "$DEV"

# The receiving guest's softirq time, in clock ticks (/proc/stat; the
# guest's only softirq load is this stream's receive and its ACKs).
softirq_ticks() { awk '$1 == "cpu" { print $8 }' /proc/stat; }
MB=$(scaled 8)
[ "$LRO_DEBUG_KERNEL" != 1 ] || MB=2

# Frames the receiving NIC dropped or missed (rx_dropped, rx_missed_errors).
nic_drops() {
	ip netns exec "$NS_SRV" awk '{ n += $1 } END { print n }' \
		/sys/class/net/"$DEV"/statistics/rx_{dropped,missed_errors,fifo_errors,over_errors}
}

# measure FAMILY LABEL: a $MB MB stream over FAMILY (4 or 6), byte-exact;
# IP receives in $NS_SRV in IPR[LABEL], seconds in SECS[LABEL], softirq
# ticks in SIRQ[LABEL]
declare -A IPR SECS SIRQ
port=5001
measure() {
	local count=ip_in_receives dst=$SRV_IP r0 r1 t0 t1 s0 s1 o0 d0

	[ "$1" = 4 ] || { count=ip6_in_receives; dst=$SRV_IP6; }
	o0=$(tcpext "$NS_SRV" TCPOFOQueue)
	d0=$(nic_drops)
	r0=$($count "$NS_SRV")
	s0=$(softirq_ticks)
	t0=$EPOCHREALTIME
	check "IPv$1, $2: $MB MB stream byte-exact" stream_tcp "$MB" $((port++)) $dst || diag
	t1=$EPOCHREALTIME
	s1=$(softirq_ticks)
	r1=$($count "$NS_SRV")
	IPR[$2]=$((r1 - r0))
	SECS[$2]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	SIRQ[$2]=$((s1 - s0))
	# (the time includes starting both ends)
	echo "IPv$1, $2: $((r1 - r0)) IP receives ($(ratio $((r1 - r0)) "$MB") per MB)," \
		"${SECS[$2]} s ($(ratio $((MB * 8)) "${SECS[$2]}") Mbit/s)," \
		"softirq $(ratio "${SIRQ[$2]}" "$MB") ticks per MB;" \
		"TCPOFOQueue +$(($(tcpext "$NS_SRV" TCPOFOQueue) - o0)), $DEV dropped +$(($(nic_drops) - d0))"
}
# What the NIC and TCP say, when a stream failed.
diag() {
	echo "    $DEV: $(ip netns exec "$NS_SRV" ethtool -S "$DEV" 2>/dev/null | awk '$2 != 0' |
		tr -s ' \n' ' ')"
	echo "    $PEER: $(ip netns exec "$NS_CLI" ethtool -S "$PEER" 2>/dev/null | awk '$2 != 0' |
		tr -s ' \n' ' ')"
	echo "    $NS_SRV: $(ip netns exec "$NS_SRV" nstat -az 2>/dev/null | awk '$2 != 0 { print $1, $2 }' |
		grep -E 'Tcp|Ip' | tr -s ' \n' ' ')"
	echo "    neighbours: $(ip -n "$NS_CLI" neigh show dev "$PEER" | tr '\n' ' ')"
}

# --- LRO off, then with its defaults ------------------------------------------
ofo0=$(tcpext "$NS_SRV" TCPOFOQueue)
drops0=$(nic_drops)
# Under the debug kernel, where each stream takes half a minute, only the
# streams with LRO run, each compared with the frames LRO took in
# (pkts_in), which is what IP receives with LRO off, give or take a few
# (as tun.sh does).
if [ "$LRO_DEBUG_KERNEL" != 1 ]; then
	measure 4 off4
	measure 6 off6
fi
check "lroadm set $DEV (defaults)" adm set "$DEV"
measure_lro "$DEV"
ofo1=$(tcpext "$NS_SRV" TCPOFOQueue)
# Under the debug kernel the sender sets PSH every second segment or so
# (as on veth: datapath.sh): 1.7 to 3.1 segments per packet were seen
# there, 1.53 times fewer IP receives at the least (usbnet, IPv4).
fewer=2 fewer_what="half"
[ "$LRO_DEBUG_KERNEL" != 1 ] || fewer=1.25 fewer_what="four fifths"
for f in 4 6; do
	declare -n s=stats$f
	off=$(off_receives $f)
	echo "IPv$f: IP receives $(ratio "$off" "${IPR[lro$f]}")x fewer with LRO;" \
		"$(ratio "$(stat_of aggregated "$s")" "$(stat_of flushed "$s")") segments per packet"
	[ -z "${IPR[off$f]:-}" ] ||
		echo "IPv$f: throughput $(ratio "${SECS[off$f]}" "${SECS[lro$f]}")x LRO off's;" \
			"softirq ticks $(ratio "${SIRQ[lro$f]}" "${SIRQ[off$f]}")x LRO off's"
	check_receives_cut $f $fewer "$fewer_what"
	[ -z "${IPR[off$f]:-}" ] ||
		check "IPv$f: LRO took the stream's segments (9 in 10 of LRO off's IP receives)" \
			ge "$(stat_of pkts_in "$s")" $((IPR[off$f] * 9 / 10))
	check "IPv$f: nothing held after the stream" eq "$(stat_of held_segs "$s")" 0
done
# An emulated NIC drops a frame now and then (its ring full on a busy
# host: "dropped" in ip -s link), and TCP queues what follows out of
# order: TCPOFOQueue counts reordering only where the NIC dropped nothing.
# What LRO itself sends up must account for every segment it took.
# (usbnet.sh sets NIC_REORDERS: there TCP queues out of order with LRO
# off as much as with it.)
drops1=$(nic_drops)
if [ -n "${NIC_REORDERS:-}" ]; then
	echo "$NIC_KIND reorders frames itself: TCPOFOQueue +$((ofo1 - ofo0)) over the streams"
elif [ "$drops1" = "$drops0" ]; then
	check "no reordering (TCPOFOQueue)" eq "$ofo1" "$ofo0"
else
	echo "$DEV dropped $((drops1 - drops0)) frames; TCPOFOQueue +$((ofo1 - ofo0))"
fi
for f in 4 6; do
	declare -n s=stats$f
	check "IPv$f: pkts_out = pkts_in - aggregated + flushed" eq "$(stat_of pkts_out "$s")" \
		$(($(stat_of pkts_in "$s") - $(stat_of aggregated "$s") + $(stat_of flushed "$s")))
done

# --- lroadm descs --------------------------------------------------------------
#
# A stream's own flow is seldom caught held: the sender's PSH ends each of
# its bursts (every ~30 segments even with 1 MB writes, TCP's forced push),
# and the NIC delivers a burst within one poll (seen on e100 with a 10 ms
# hold: 3 of 128 snapshots showed it, 195 of 204 flushes flush_push). So,
# as tun.sh and bpf_descs.sh: hand-made segments, held by a hold timer.
check "lroadm descs showed a flow held on $DEV (3 segments, 3000 bytes)" \
	descs_show_crafted "$PEER" "$DEV"
check "nothing held after the hold time" \
	eq "$(dev_stat "$DEV" held_segs)" 0

# --- detach and unload while a stream runs -----------------------------------
#
# Streams of twice $MB MB, each still running when LRO has taken a quarter
# of it and lroadm del (rmmod) starts: it completes byte-exact. (Whether it
# still runs when they return depends on how long they take on a busy host.)
hold=0	# the defaults: flushed at the end of each batch
STREAM_DIAG=diag
adm set "$DEV" flush_timeout_us $hold
adm stats "$DEV" reset	# pkts_in counts from here
stream_across "$DEV" $((MB * 2)) $port "lroadm del $DEV" adm del "$DEV"
port=$((port + 1))

adm set "$DEV" flush_timeout_us $hold
stream_across "$DEV" $((MB * 2)) $port "rmmod lro" rmmod lro

check "kernel log is clean" log_clean_since "$mark"
exit $RET
