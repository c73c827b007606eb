#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness's own canary: loads selftests/canary/lro_canary.ko, which does
# nothing unless CANARY_TRIGGER names a bug to plant:
#
#   make check KERNEL=debug T=harness_canary CANARY_TRIGGER=uaf
#   make check KERNEL=debug T=harness_canary CANARY_TRIGGER=lock_inversion
#
# With a trigger this test is expected to FAIL: KASAN or lockdep report the
# bug in the kernel log and the runner fails the test on it, proving the
# debug kernel and the log check bite. Without one it must pass. Triggers
# only run under the debug kernel (elsewhere nothing would notice the bug).

source "$(dirname "$0")/lib.sh"
need_root

ko=$BUILD/canary/lro_canary.ko
trigger=${CANARY_TRIGGER:-}

[ -f "$ko" ] || { echo "FAIL: $ko is missing (make canary)"; exit $ksft_fail; }
case $trigger in
"" | uaf | lock_inversion) ;;
*) echo "FAIL: unknown CANARY_TRIGGER=$trigger (uaf, lock_inversion)"; exit $ksft_fail ;;
esac
[ -z "$trigger" ] || [ "$LRO_DEBUG_KERNEL" = 1 ] ||
	skip "CANARY_TRIGGER=$trigger needs the debug kernel (KERNEL=debug)"

[ ! -d /sys/module/lro_canary ] || rmmod lro_canary
mark=$(log_mark)
if [ -n "$trigger" ]; then
	echo "planting '$trigger': the kernel log check must now fail this test"
	check "insmod lro_canary trigger=$trigger" insmod "$ko" trigger="$trigger"
else
	check "insmod lro_canary" insmod "$ko"
fi
check "rmmod lro_canary" rmmod lro_canary
[ -n "$trigger" ] || check "kernel log is clean" log_clean_since "$mark"
exit $RET
