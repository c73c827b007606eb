#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [TEST...]
#
# Runs the selftests (all, or the named ones) in one guest boot, then checks
# the guest's whole kernel console log for warnings, oopses, leaks and the
# like. The last line printed is "selftests: N passed, N failed, N skipped";
# the exit status is non-zero when anything failed, including the guest
# itself (panic, timeout) or the kernel log.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${KERNEL:-}" = debug ]; then
	# The debug kernel (make check KERNEL=debug): slower, own results.
	export VM_OUT=${VM_OUT:-$top/build/vm/check-debug}
	export VM_TIMEOUT=${VM_TIMEOUT:-2700}
fi
export VM_OUT=${VM_OUT:-$top/build/vm/check}
export VM_TIMEOUT=${VM_TIMEOUT:-1500}
patterns=$top/scripts/kernel-log-patterns
results=$VM_OUT/results

mkdir -p "$VM_OUT"
rm -f "$results"
start=$(date +%s)
"$top/scripts/vmrun" "RESULTS=/run/vm/results selftests/run_tests.sh $*"
rc=$?

pass=0 fail=0 skip=0
[ -s "$results" ] && read -r pass fail skip < "$results"
if [ ! -s "$results" ]; then
	echo "# check: the guest did not finish the selftests (vmrun exit $rc)"
	fail=$((fail + 1))
fi

# Catches what the per-test check cannot: boot, shutdown, panics.
bad=$(grep -E -e "$(grep -v '^#' "$patterns")" "$VM_OUT/console.log")
case $? in
0)
	echo "# check: kernel log is not clean ($VM_OUT/console.log):"
	echo "$bad" | head -n 40 | sed 's/^/#   /'
	fail=$((fail + 1))
	;;
1) ;;
*)
	echo "# check: no kernel console log to check"
	fail=$((fail + 1))
	;;
esac

echo "# check: $(($(date +%s) - start))s, console log in $VM_OUT/console.log"
echo "selftests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
