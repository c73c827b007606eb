#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest's CPU as the emulator gives it: CMPXCHG16B must keep the flags
# the CPU manual says it keeps, or the guest must not have it.
#
# QEMU 7.2's TCG (Debian 12's) computes the flags CMPXCHG16B keeps from a
# stale record of how they were last set: ZF comes out right, the other
# bits are an operand of an earlier instruction, reserved bits included. The
# kernel's SLUB fast path runs one per allocation; an interrupt in the few
# instructions after one returns with the wrong flags restored, and guests
# died of it in kmem_cache_alloc (Documentation/bench.md). scripts/vmrun
# therefore boots TCG guests on a CPU model without cx16 (VM_CPU).
#
#   * CMPXCHG16B, where the CPU has it, keeps CMP's flags (cx16_flags flags);
#   * where the CPU has it, no interrupt return inside the instructions
#     after one sets DF (cx16_flags window);
#   * where it has not, /proc/cpuinfo agrees.
#
# Fails with VM_CPU=qemu64 (cx16 on) on Debian 12's QEMU.
#
# debug-kernel: no (no kmod line: the emulator's CPU)

source "$(dirname "$0")/lib.sh"
[ "$LRO_DEBUG_KERNEL" != 1 ] || skip "checks the emulator, not the kernel: Debian's kernel only"

tool=$BUILD/selftests/tools/cx16_flags
check "cx16_flags is built ($tool)" test -x "$tool" || exit "$RET"

# shellcheck disable=SC2317 # run by check()
cpu_has_cx16() { grep -qw cx16 /proc/cpuinfo; }

"$tool" flags 100000 | sed 's/^/    /'
rc=${PIPESTATUS[0]}
case $rc in
4)
	check "no cx16 in /proc/cpuinfo either" fails cpu_has_cx16
	;;
*)
	check "cx16 in /proc/cpuinfo" cpu_has_cx16
	check "CMPXCHG16B keeps the flags CMP set (else: a CPU model without cx16, VM_CPU)" \
		test "$rc" = 0
	"$tool" window 5 | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	check "no interrupt return after CMPXCHG16B sets DF" test "$rc" = 0
	;;
esac
exit "$RET"
