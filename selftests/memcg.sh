#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What LRO allocates for a device is charged to the memory cgroup of the
# task that asks for it, and so are the per-CPU descriptor tables a larger
# max_desc needs (136 bytes x max_desc x CPUs), so a container cannot make
# the host allocate memory nobody pays for. Inside a cgroup limited to
# 8 MB, max_desc 256 attaches; max_desc 65536 (17 MB on 2 CPUs) is refused
# with a clear message, whether asked at attach or as a change, and
# nothing changes.
#
#   [ memory cgroup lro_memcg, memory.max 8 MB ]
#         lroadm set lromem0 ...  ->  lromem0 (dummy)

source "$(dirname "$0")/lib.sh"
need_root

cg=/sys/fs/cgroup
grp=$cg/lro_memcg
dev=lromem0
mountpoint -q $cg || mount -t cgroup2 none $cg || skip "cannot mount cgroup2"
grep -qw memory $cg/cgroup.controllers || skip "no memory controller"
echo +memory > $cg/cgroup.subtree_control || skip "cannot enable the memory controller"
defer quiet rmdir $grp
mkdir -p $grp
echo $((8 << 20)) > $grp/memory.max

# in_cg CMD...: run CMD as a task of the limited cgroup
in_cg() { sh -c 'echo $$ > '"$grp"'/cgroup.procs && exec "$@"' sh "$@"; }
# refused SETTINGS...: lroadm set fails inside the cgroup, saying why
refused() {
	local out rc
	out=$(in_cg "$LROADM" set $dev "$@" 2>&1)
	rc=$?
	echo "# lroadm set $dev $*: exit $rc: $out (cgroup: $(cat $grp/memory.current) bytes)"
	[ $rc -ne 0 ] && grep -q "^Error: lro: no memory for max_desc $2 on [0-9]* CPUs" <<< "$out"
}
attached() { [ -d /sys/class/net/$dev/lro ]; }

mark=$(log_mark)
check "load lro" lro_load
defer quiet ip link del $dev
check "dummy device" ip link add $dev type dummy
defer quiet "$LROADM" del $dev
check "attach with max_desc 65536 refused inside 8 MB" refused max_desc 65536
check "... and nothing attached" eval '! attached'
check "attach with max_desc 256 inside 8 MB" in_cg "$LROADM" set $dev max_desc 256
check "max_desc 65536 refused inside 8 MB" refused max_desc 65536
check "... and max_desc still 256" grep -qx 256 /sys/class/net/$dev/lro/max_desc
check "the same change outside the cgroup" "$LROADM" set $dev max_desc 65536
check "detach" "$LROADM" del $dev
check "rmmod lro" lro_unload
check "kernel log is clean" log_clean_since "$mark"
exit $RET
