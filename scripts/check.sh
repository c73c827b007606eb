#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [TEST...]
#
# Runs the selftests (all, or the named ones) in CHECK_GUESTS guests side by
# side (default: one per host CPU, at most one per test), then checks each
# guest's whole kernel console log for warnings, oopses, leaks and the
# like. TCG runs a guest on one host thread, so a second guest uses the
# second CPU. Tests are dealt out longest first, by the times the last run
# recorded in $VM_OUT/times, else selftests/durations, else 60 s.
#
# Each guest's KTAP lines are shown as they come, prefixed "gN: " when
# there are several. At the end, what failed (each failed check, test,
# leak and unclean kernel log) and "selftests: N passed, N failed, N
# skipped", also kept in $VM_OUT/summary; the exit status is non-zero when
# anything failed, including a guest itself (panic, timeout) or a kernel
# log.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${KERNEL:-}" = debug ]; then
	# The debug kernel (make check KERNEL=debug): slower, own results.
	export VM_OUT=${VM_OUT:-$top/build/vm/check-debug}
	export VM_TIMEOUT=${VM_TIMEOUT:-3600}
	export TEST_TIMEOUT=${TEST_TIMEOUT:-1500}
fi
export VM_OUT=${VM_OUT:-$top/build/vm/check}
export VM_TIMEOUT=${VM_TIMEOUT:-1500}
patterns=$top/scripts/kernel-log-patterns
times=$VM_OUT/times

# The tests: as selftests/run_tests.sh picks them.
# Under the debug kernel, not those whose header says "# debug-kernel:
# no": they execute no kmod line and take no branch outcome that another
# test does not (make coverage measures it; Documentation/testing.md), so
# KASAN has nothing more to see. Named on the command line, they run
# there too, and so does every test with "all" (make coverage T=all
# re-decides which may carry it).
tests=("$@")
debian_only=()
all=0
[ "$*" != all ] || { all=1; set --; tests=(); }
if [ $# -eq 0 ]; then
	for t in "$top"/selftests/*.sh; do
		t=${t##*/}
		case $t in run_tests.sh|lib.sh) continue ;; esac
		[ -x "$top/selftests/$t" ] || continue
		if [ "${KERNEL:-}" = debug ] && [ $all = 0 ] &&
		   grep -q '^# debug-kernel: no' "$top/selftests/$t"; then
			debian_only+=("${t%.sh}")
			continue
		fi
		tests+=("${t%.sh}")
	done
fi
[ ${#debian_only[@]} -eq 0 ] ||
	echo "# check: on Debian's kernel only (# debug-kernel: no): ${debian_only[*]}"
guests=${CHECK_GUESTS:-$(nproc)}
[ "$guests" -le ${#tests[@]} ] || guests=${#tests[@]}
[ "$guests" -ge 1 ] || guests=1

# Longest first, each to the guest with the least so far. A test the last
# run did not time (a fresh checkout) takes its time from
# selftests/durations (column 2: Debian's kernel, 3: the debug kernel),
# else counts as 60 s.
col=2
[ "${KERNEL:-}" != debug ] || col=3
declare -a load share
for ((g = 0; g < guests; g++)); do load[g]=0; share[g]=""; done
while read -r secs t; do
	best=0
	for ((g = 1; g < guests; g++)); do
		[ "${load[g]}" -lt "${load[best]}" ] && best=$g
	done
	load[best]=$((load[best] + secs))
	share[best]+=" $t"
done < <(for t in "${tests[@]}"; do
		secs=$(awk -v t="$t" '$1 == t { s = $2 } END { print s + 0 }' "$times" 2>/dev/null)
		[ "${secs:-0}" -gt 0 ] ||
			secs=$(awk -v t="$t" -v c=$col '$1 == t { s = $c } END { print s + 0 }' \
				"$top/selftests/durations" 2>/dev/null)
		echo "${secs:-0} $t"
	done | awk '{ print ($1 > 0 ? $1 : 60), $2 }' | sort -k1,1nr -k2,2 -s)

mkdir -p "$VM_OUT"
# What an earlier run left (with another number of guests, in g0/, g1/)
# must not count in this one's coverage.
rm -rf "$VM_OUT"/gcov "$VM_OUT"/ktap "$VM_OUT"/g[0-9]*/gcov "$VM_OUT"/g[0-9]*/ktap
start=$(date +%s)
pids=()
for ((g = 0; g < guests; g++)); do
	out=$VM_OUT
	[ "$guests" -eq 1 ] || out=$VM_OUT/g$g
	mkdir -p "$out"
	rm -rf "$out/results" "$out/ktap" "$out/gcov"
	prefix=""
	[ "$guests" -eq 1 ] || prefix="g$g: "
	# The emulated NICs its tests ask for ("# vm-nics: KIND" lines),
	# sorted (nic_setup finds a NIC's number from VM_NICS).
	nics=$(for t in ${share[g]}; do
			t=${t##*/}
			sed -n 's/^# vm-nics: //p' "$top/selftests/${t%.sh}.sh" 2>/dev/null
		done | tr ', ' '\n\n' | sed '/^$/d' | sort -u | paste -sd,)
	# shellcheck disable=SC2086 # the share is a list of names
	VM_NICS=$nics VM_OUT=$out "$top/scripts/vmrun" "RESULTS=/run/vm/results selftests/run_tests.sh ${share[g]}" |
		tee "$out/ktap" | sed -u "s/^/$prefix/" &
	pids+=($!)
done
wait "${pids[@]}"

pass=0 fail=0 skip=0
: > "$times.new"
# trouble MESSAGE...: a failure of a guest as a whole, for the summary
: > "$VM_OUT/guest-trouble"
trouble() {
	printf '%s\n' "$@" >> "$VM_OUT/guest-trouble"
	fail=$((fail + 1))
}
for ((g = 0; g < guests; g++)); do
	out=$VM_OUT
	[ "$guests" -eq 1 ] || out=$VM_OUT/g$g
	if [ -s "$out/results" ]; then
		read -r p f s < "$out/results"
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	else
		trouble "# check: guest $g did not finish its selftests (${share[g]# }; console: $out/console.log)"
	fi
	sed -n 's/^\(not \)\{0,1\}ok [0-9]* selftests: \([a-z_0-9]*\) # \(TIMEOUT \)\{0,1\}\([0-9]*\)s$/\2 \4/p' \
		"$out/ktap" >> "$times.new" 2>/dev/null

	# Under the debug kernel its checkers must have come up: a kernel
	# that lost one (an edited fragment, a boot option) would otherwise
	# pass every test without checking anything.
	if [ "${KERNEL:-}" = debug ]; then
		for banner in 'kasan: KernelAddressSanitizer initialized' \
			      'Lock dependency validator' \
			      'kmemleak: Kernel memory leak detector initialized'; do
			grep -qF "$banner" "$out/console.log" 2>/dev/null && continue
			trouble "# check: \"$banner\" is not in $out/console.log: a checker of the debug kernel is off"
		done
	fi

	# Catches what the per-test check cannot: boot, shutdown, panics.
	bad=$(grep -E -e "$(grep -v '^#' "$patterns")" "$out/console.log" 2>/dev/null)
	case $? in
	0)
		trouble "# check: kernel log is not clean ($out/console.log):" \
			"$(echo "$bad" | head -n 40 | sed 's/^/#   /')"
		;;
	1) ;;
	*)
		trouble "# check: no kernel console log to check ($out/console.log)"
		;;
	esac
done
# Keep the times of tests that did not run this time.
awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' "$times.new" "$times" \
	> "$times.tmp" 2>/dev/null || cp "$times.new" "$times.tmp"
mv "$times.tmp" "$times"
rm -f "$times.new"

# What failed, again at the end: CI keeps only the tail of a long run.
# Also in $VM_OUT/summary, which .ci/run prints once both suites are done.
{
	for ((g = 0; g < guests; g++)); do
		out=$VM_OUT
		prefix=""
		[ "$guests" -eq 1 ] || out=$VM_OUT/g$g prefix="g$g: "
		# A failed check, a failed test, a leak, and the first lines
		# of a kernel log that was not clean.
		awk -v p="#   $prefix" '
			/^# kernel log during / { print p $0; k = 5; next }
			k && /^#   / { print p $0; k--; next }
			{ k = 0 }
			/^# (FAIL: |kmemleak: [0-9])/ || /^not ok / { print p $0 }' \
			"$out/ktap" 2>/dev/null
	done | head -n 30 | sed '1i # check: what failed:'
	cat "$VM_OUT/guest-trouble"
	echo "# check: $(($(date +%s) - start))s in $guests guest(s), console logs under $VM_OUT"
	# Under the debug kernel lro.ko counts what it executes (gcov).
	if [ "${KERNEL:-}" = debug ]; then
		"$top/scripts/coverage.py" "$VM_OUT" "${BUILD:-$top/build/debug}" "$top/build/coverage" |
			sed 's/^/# /'
	fi
	echo "selftests: $pass passed, $fail failed, $skip skipped"
} > "$VM_OUT/summary"
cat "$VM_OUT/summary"
[ "$fail" -eq 0 ]
