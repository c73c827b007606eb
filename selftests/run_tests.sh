#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run_tests.sh [NAME...]  -- runs inside the test guest (scripts/check.sh)
#
# Runs every executable selftests/*.sh (or the named ones) in turn, the way
# kselftest's runner does: KTAP on stdout, each test's own output as "# "
# diagnostics, exit 0 = pass, 4 = skip, anything else = fail. After each
# test the kernel log lines it produced are checked against
# scripts/kernel-log-patterns; a match fails that test. Counts are written
# to $RESULTS (if set) as "PASS FAIL SKIP".
#
# Under a kernel with kmemleak (the debug kernel, make check KERNEL=debug)
# one more test point, "kmemleak", ends the run: the suspects already
# reported before the first test are set aside, and after the last test
# (lro.ko unloaded) any unreferenced object fails it.
#
# When lro.ko is built for gcov (the debug kernel: scripts/coverage.py),
# each test's counters are saved to $GCOV_OUT/TEST/ (default
# /run/vm/gcov, the guest's output directory) and zeroed before the next.

cd "$(dirname "$0")" || exit 1
source ./lib.sh
TEST_TIMEOUT=${TEST_TIMEOUT:-600}

tests=()
if [ $# -gt 0 ]; then
	for t in "$@"; do
		t=${t%.sh}.sh
		t=${t##*/}
		[ -x "$t" ] || { echo "run_tests: no such test: ${t%.sh}" >&2; tests+=("$t"); continue; }
		tests+=("$t")
	done
else
	for t in *.sh; do
		case $t in run_tests.sh|lib.sh) continue ;; esac
		[ -x "$t" ] && tests+=("$t")
	done
fi

kmemleak=/sys/kernel/debug/kmemleak
leakcheck=0
[ ! -w $kmemleak ] || leakcheck=1

# gcov_save NAME: lro.ko's gcov counters since the last call into
# $GCOV_OUT/NAME/, then zero them. The kernel keeps an unloaded module's
# counters (gcov_persist) and drops them at the reset.
gcov=/sys/kernel/debug/gcov
gcov_kmod=$gcov$BUILD/kmod
GCOV_OUT=${GCOV_OUT:-/run/vm/gcov}
gcov_save() {
	local f
	[ -d "$gcov_kmod" ] || return 0
	mkdir -p "$GCOV_OUT/$1"
	for f in "$gcov_kmod"/*.gcda; do
		[ -e "$f" ] && cat "$f" > "$GCOV_OUT/$1/${f##*/}"
	done
	echo 1 > $gcov/reset
}
[ ! -w $gcov/reset ] || echo 1 > $gcov/reset

pass=0 fail=0 skip=0 n=0
echo "TAP version 13"
echo "1..$((${#tests[@]} + leakcheck))"
if [ $leakcheck = 1 ]; then
	# Boot-time suspects are not the tests' doing: scan, then mark them.
	echo "# kmemleak: setting aside boot-time suspects"
	echo scan > $kmemleak && echo clear > $kmemleak
fi
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=${t%.sh}
	if [ ! -x "$t" ]; then
		echo "not ok $n selftests: $name # no such test"
		fail=$((fail + 1))
		continue
	fi
	echo "# selftests: $name"
	before=$(log_mark)
	start=$(date +%s)
	timeout -k 10 "$TEST_TIMEOUT" "./$t" 2>&1 | sed -u 's/^/# /'
	rc=${PIPESTATUS[0]}
	secs=$(($(date +%s) - start))
	gcov_save "$name"
	bad=$(log_trouble_since "$before")
	case $? in
	0) echo "# kernel log during $name:"; echo "$bad" | sed 's/^/#   /'; rc=1 ;;
	1) ;;
	*) echo "# could not check the kernel log"; rc=1 ;;
	esac
	case $rc in
	0) echo "ok $n selftests: $name # ${secs}s"; pass=$((pass + 1)) ;;
	4) echo "ok $n selftests: $name # SKIP"; skip=$((skip + 1)) ;;
	124|137) echo "not ok $n selftests: $name # TIMEOUT ${TEST_TIMEOUT}s"; fail=$((fail + 1)) ;;
	*) echo "not ok $n selftests: $name # exit=$rc"; fail=$((fail + 1)) ;;
	esac
done

if [ $leakcheck = 1 ]; then
	n=$((n + 1))
	echo "# selftests: kmemleak"
	start=$(date +%s)
	lro_unload 2>&1 | sed 's/^/# /'
	gcov_save kmemleak
	# Objects younger than 5 s are not reported yet; the second scan
	# catches what the first was too early for (as kmemleak.rst advises).
	if ! { echo scan > $kmemleak && sleep 6 && echo scan > $kmemleak; } 2>/dev/null; then
		echo "# kmemleak: cannot scan (kmemleak disabled itself? see the kernel log)"
		leaks=unusable
	else
		leaks=$(cat $kmemleak)
		if [ -z "$leaks" ]; then
			echo "# kmemleak: no unreferenced objects"
		else
			echo "# kmemleak: $(grep -c '^unreferenced object' <<< "$leaks") unreferenced objects:"
			head -n 200 <<< "$leaks" | sed 's/^/#   /'
		fi
	fi
	secs=$(($(date +%s) - start))
	if [ -z "$leaks" ]; then
		echo "ok $n selftests: kmemleak # ${secs}s"
		pass=$((pass + 1))
	else
		echo "not ok $n selftests: kmemleak # ${secs}s"
		fail=$((fail + 1))
	fi
fi

[ -z "${RESULTS:-}" ] || echo "$pass $fail $skip" > "$RESULTS"
[ $fail -eq 0 ]
