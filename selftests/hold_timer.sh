#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# When LRO sends held segments up: at the end of the receive batch when
# flush_timeout_us is 0, after flush_timeout_us otherwise, at once on PSH,
# and before a segment of the same flow that cannot join (order). Uses
# hand-made segments (tcpcraft.py) so the held state is exactly known.
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root
TMP=$(mktemp -d)
defer rm -rf "$TMP"

lro_load
veth_pair_setup
adm set veth-srv max_aggr 64 flush_timeout_us 0 >/dev/null

# Each segment sent from a socket is received in its own batch (the
# softirq runs as the send returns), so each is held and sent up alone.
craft --segs 4
check "no timer: 4 segments taken" eq "$(lro_stat aggregated)" 4
check "no timer: each sent up at the end of its batch" \
	eq "$(lro_stat flush_batch)" "$(lro_stat flushed)"
check "no timer: nothing held" eq "$(lro_stat held_segs)" 0

adm stats veth-srv reset
adm set veth-srv flush_timeout_us 1000000
held_sampler "$TMP/held"
craft --segs 4 --sport 41000
sleep 1.5
check "1 s timer: 4 segments were held" eq "$(held_max "$TMP/held")" 4
check "1 s timer: sent up by the timer" eq "$(lro_stat flush_timer)" 1
check "1 s timer: nothing held after it" eq "$(lro_stat held_segs)" 0

adm stats veth-srv reset
craft --segs 4 --sport 42000 --psh-last
check "PSH ends the packet at once" eq "$(lro_stat flush_push)" 1
check "PSH: nothing held" eq "$(lro_stat held_segs)" 0

adm stats veth-srv reset
craft --segs 3 --sport 43000 --fin
check "FIN: held packet sent up before it" eq "$(lro_stat flush_flags)" 1
check "FIN: passed, not held" eq "$(lro_stat held_segs)" 0

adm stats veth-srv reset
adm set veth-srv max_desc 2
craft --segs 2 --flows 3 --sport 44000
check "3 flows, 2 descriptors: no_desc counted" ge "$(lro_stat no_desc)" 1
check "3 flows, 2 descriptors: 2 flows taken" eq "$(lro_stat aggregated)" 4
check "config change keeps nothing held back" adm set veth-srv max_desc 64
check "max_desc change sent held packets up" eq "$(lro_stat held_segs)" 0
# Both packets went up, by the change or (on a slow machine) the timer.
check "... counted as reconfigure or timer" \
	eq $(($(lro_stat flush_detach) + $(lro_stat flush_timer))) 2

# A new hold applies at once: changing it sends what is held up (else a
# packet started under a 1 s hold would wait 1 s after the user set 0,
# and the packets of a CPU would no longer share one hold, in list order).
# 1 s is the longest hold there is, and a guest on a loaded host can
# stall that long between the segments and the check (seen in a make
# check beside a DKMS build): when the timer sent them up first, the
# change had nothing to send, so the packet is held again, three times
# at most.
adm set veth-srv flush_timeout_us 1000000
for try in 1 2 3; do
	adm stats veth-srv reset
	craft --segs 4 --sport $((45000 + try))
	held=$(lro_stat held_segs)
	[ "$held" != 0 ] || [ "$(lro_stat flush_timer)" = 0 ] || continue
	break
done
check "1 s timer: 4 segments held (try $try)" eq "$held" 4
check "hold change accepted" adm set veth-srv flush_timeout_us 0
check "hold change sent the held packet up" eq "$(lro_stat held_segs)" 0
check "... counted as reconfigure or timer" \
	eq $(($(lro_stat flush_detach) + $(lro_stat flush_timer))) 1

# The descriptor tables are per CPU, shared by every device, as large as
# the largest max_desc attached: another device growing them, or leaving
# them to shrink, sends up what this one holds (nothing is lost or left
# in an array being freed). Within the 1 s hold, on a slow machine by
# the timer.
ip -n "$NS_SRV" link add lrotbl0 type dummy
adm set veth-srv flush_timeout_us 1000000
for step in "set lrotbl0 max_desc 4096" "del lrotbl0"; do
	adm stats veth-srv reset
	craft --segs 4 --sport $((46000 + ${#step}))
	check "lroadm $step (the tables resized)" adm $step
	check "... sent veth-srv's held packet up" eq "$(lro_stat held_segs)" 0
	check "... counted as reconfigure or timer" \
		eq $(($(lro_stat flush_detach) + $(lro_stat flush_timer))) 1
	echo "#     flush_detach $(lro_stat flush_detach)"
done
exit $RET
