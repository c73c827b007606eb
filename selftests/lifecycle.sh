#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO under churn, while TCP streams run through it: many flows at once,
# RPS spreading them over both CPUs, configuration changes, detach, device
# deletion, netns deletion and module unload. Streams that complete must be
# byte-exact; nothing held may leak and the kernel log must stay clean
# (the runner checks it after every test; kmemleak under the debug kernel).
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

source "$(dirname "$0")/lib.sh"
need_root
MB=$(scaled 8)

fresh_pair() {
	veth_pair_cleanup
	veth_pair_setup
	adm set veth-srv max_aggr 64 >/dev/null
}

lro_load
fresh_pair

# Many flows at once.
for p in $(seq 5101 5108); do stream_bg "$(scaled 2)" $p; done
wait
n=0
for p in $(seq 5101 5108); do stream_ok $p && n=$((n + 1)); done
check "8 parallel streams byte-exact" eq $n 8
check "8 parallel streams aggregated" ge "$(lro_stat aggregated)" 1000

# RPS steers the flow to the other CPU's backlog: LRO runs there.
ip netns exec "$NS_SRV" sh -c 'echo 3 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'
check "stream with RPS on both CPUs byte-exact" stream_tcp "$MB" 5110
ip netns exec "$NS_SRV" sh -c 'echo 0 > /sys/class/net/veth-srv/queues/rx-0/rps_cpus'

# Reconfigure while segments are held and arriving.
stream_bg "$MB" 5120
for i in 1 2 3 4 5 6; do
	adm set veth-srv max_desc $((i % 2 ? 8 : 512)) \
		max_aggr $((i % 2 ? 4 : 64)) flush_timeout_us $((i % 3 * 300)) >/dev/null
	sleep 0.2
done
wait
check "stream while reconfiguring byte-exact" stream_ok 5120
check "nothing held after it" eq "$(lro_stat held_segs)" 0

# Detach while segments are held: they are sent up, the stream completes.
adm set veth-srv flush_timeout_us 500 >/dev/null
stream_bg "$MB" 5130
sleep 0.5
check "detach during a stream" adm del veth-srv
wait
check "stream across detach byte-exact" stream_ok 5130

# Unload while attached and busy: held data is sent up first.
adm set veth-srv max_aggr 64 flush_timeout_us 500 >/dev/null
stream_bg "$MB" 5140
sleep 0.5
check "rmmod lro during a stream" rmmod lro
wait
check "stream across rmmod byte-exact" stream_ok 5140
lro_load

# Delete the device, then the netns, under traffic: streams break (and
# give up after 10 s), but nothing may leak or complain.
export STREAM_TIMEOUT=10
fresh_pair
adm set veth-srv flush_timeout_us 1000 >/dev/null
stream_bg "$MB" 5150
sleep 0.5
check "delete veth during a stream" ip -n "$NS_SRV" link del veth-srv
wait
fresh_pair
adm set veth-srv flush_timeout_us 1000 >/dev/null
stream_bg "$MB" 5160
sleep 0.5
check "delete netns during a stream" ip netns del "$NS_SRV"
wait
check "rmmod lro after all that" rmmod lro
rm -rf "$STREAM_BG_DIR"
exit $RET
