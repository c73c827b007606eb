#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lro.ko loads, shows up in sysfs, unloads cleanly, and logs nothing bad.
# Its defaults (module parameters) are checked against the limits netlink
# enforces, at load and when written in /sys/module/lro/parameters/.

source "$(dirname "$0")/lib.sh"
need_root

mark=$(log_mark)
lro_unload
check "modprobe lro" modprobe lro
check "/sys/module/lro exists" test -d /sys/module/lro
check "module is live" grep -qx live /sys/module/lro/initstate
params=/sys/module/lro/parameters
# refused PARAM=VALUE: the module does not load with it
refused() { ! modprobe lro "$1" 2>/dev/null && test ! -e /sys/module/lro; }
# kept PARAM VALUE: writing VALUE fails and the parameter is as it was
kept() {
	local was
	was=$(cat $params/$1)
	! sh -c "echo $2 > $params/$1" 2>/dev/null && [ "$(cat $params/$1)" = "$was" ]
}
check "rmmod lro" rmmod lro
check "/sys/module/lro is gone" test ! -e /sys/module/lro
check "modprobe lro default_max_aggr=100 refused" refused default_max_aggr=100
check "modprobe lro default_max_aggr=0 refused" refused default_max_aggr=0
check "modprobe lro default_max_desc=65537 refused" refused default_max_desc=65537
check "modprobe lro default_flush_timeout_us=1000001 refused" refused default_flush_timeout_us=1000001
check "modprobe lro default_features=16 refused" refused default_features=16
check "modprobe lro default_max_aggr=abc refused" refused default_max_aggr=abc
check "modprobe lro default_max_aggr=32" modprobe lro default_max_aggr=32
check "default_max_aggr reads 32" grep -qx 32 $params/default_max_aggr
check "writing default_max_aggr 65 fails, 32 kept" kept default_max_aggr 65
check "writing default_max_desc 0 fails, 256 kept" kept default_max_desc 0
check "writing default_features 17 fails, 9 kept" kept default_features 17
check "writing default_flush_timeout_us 50 works" sh -c "echo 50 > $params/default_flush_timeout_us"
check "default_flush_timeout_us reads 50" grep -qx 50 $params/default_flush_timeout_us
check "rmmod lro again" rmmod lro
check "kernel log is clean" log_clean_since "$mark"
exit $RET
