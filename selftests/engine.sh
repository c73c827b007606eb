#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The LRO engine's own tests. lro_engine_test.ko (selftests/engine/) feeds
# crafted TCP segment trains through the inet_lro driver API at load and
# checks every packet LRO sends up (merged or not, payload, headers,
# checksums, GSO fields, re-segmentation) and the statistics, case by case.
# Its KTAP lines are in the kernel log; here they are shown as diagnostics
# and the module's passed/failed counts decide.

source "$(dirname "$0")/lib.sh"
need_root

ko=$BUILD/selftests/engine/lro_engine_test.ko
cases=170	# the module's number of cases: none may go missing
params=/sys/module/lro_engine_test/parameters

[ -f "$ko" ] || skip "$ko is missing (make selftests)"

mark=$(log_mark)
[ ! -d /sys/module/lro_engine_test ] || rmmod lro_engine_test
check "load lro" lro_load
# many_flows, v6_many_flows: 4096 flows, fewer under the debug kernel
# (LRO_SCALE)
check "insmod lro_engine_test" insmod "$ko" flows="$(scaled 4096)"
# Its KTAP lines: from its last header on, not from the mark (a full
# ring buffer drops old lines, and line numbers stop meaning anything)
dmesg | sed -n 's/^.*lro_engine_test: //p' | tac | sed '/^KTAP version/q' |
	tac | sed 's/^/# /'
passed=$(cat $params/passed 2>/dev/null)
failed=$(cat $params/failed 2>/dev/null)
check "no case failed ($failed)" test "$failed" = 0
check "all $cases cases passed ($passed)" test "$passed" = "$cases"
check "rmmod lro_engine_test" rmmod lro_engine_test
check "rmmod lro" lro_unload
check "kernel log is clean" log_clean_since "$mark"
exit $RET
