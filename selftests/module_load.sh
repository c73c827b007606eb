#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lro.ko loads, shows up in sysfs, unloads cleanly, and logs nothing bad.

source "$(dirname "$0")/lib.sh"
need_root

mark=$(log_mark)
lro_unload
check "modprobe lro" modprobe lro
check "/sys/module/lro exists" test -d /sys/module/lro
check "module is live" grep -qx live /sys/module/lro/initstate
check "rmmod lro" rmmod lro
check "/sys/module/lro is gone" test ! -e /sys/module/lro
check "kernel log is clean" log_clean_since "$mark"
exit $RET
