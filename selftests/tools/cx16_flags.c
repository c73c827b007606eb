// SPDX-License-Identifier: GPL-2.0
/*
 * cx16_flags: does CMPXCHG16B leave the flags as the CPU manual says?
 *
 * CMPXCHG16B sets ZF (the comparison succeeded) and leaves CF, PF, AF, SF
 * and OF as the instruction before it set them (Intel SDM vol. 2A). The
 * kernel's SLUB fast path runs one on every allocation
 * (this_cpu_try_cmpxchg128() in __update_cpu_freelist_fast()).
 *
 *   cx16_flags flags [N]    N times: POPF a known state, CMP A, B, then
 *                           LOCK CMPXCHG16B that succeeds, then PUSHF. The
 *                           flags must be those CMP set, with ZF set, and
 *                           no reserved bit. Prints every distinct wrong
 *                           value once; exit 1 if any.
 *   cx16_flags window SECS  for SECS seconds: POPF, CMP with an operand
 *                           whose low bits are DF, then CMPXCHG16B, then 4096
 *                           instructions that touch no flag, then LODSB.
 *                           Counts the windows whose LODSB went backwards
 *                           (DF set): nothing in the window sets DF, so
 *                           only an interrupt return inside it can have,
 *                           restoring flags computed wrongly. Exit 1 if
 *                           any.
 *
 * Exit 4 (the kselftest skip) when the CPU has no CMPXCHG16B.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define F_CF	0x0001UL
#define F_FIXED	0x0002UL	/* bit 1 reads as one */
#define F_PF	0x0004UL
#define F_AF	0x0010UL
#define F_ZF	0x0040UL
#define F_SF	0x0080UL
#define F_DF	0x0400UL
#define F_OF	0x0800UL
#define F_ARITH	(F_CF | F_PF | F_AF | F_ZF | F_SF | F_OF)
/* Bits 3, 5, 15 and 22-63 are reserved and read as zero. */
#define F_RESERVED (~0x3f7fd7UL)
/* What CMPXCHG16B decides or must leave alone. */
#define F_CHECKED (F_ARITH | F_RESERVED | F_FIXED)

struct u128 {
	uint64_t lo, hi;
} __attribute__((aligned(16)));

static int has_cx16(void)
{
	unsigned int a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_CMPXCHG16B);
}

/* The flags CMP a, b leaves: what CMPXCHG16B must keep but for ZF. */
static unsigned long flags_of_cmp(unsigned long a, unsigned long b)
{
	unsigned long fl;

	asm volatile("cmp %[a], %[b]\n\t"
		     "pushfq\n\t"
		     "pop %[fl]"
		     : [fl] "=r"(fl)
		     : [a] "r"(a), [b] "r"(b)
		     : "cc");
	return fl;
}

/*
 * POPF ends QEMU's translation block, so the CMP and the CMPXCHG16B after
 * it are translated together; a CMPXCHG16B that computes the flags it
 * keeps from a stale record of how they were last set gets them wrong.
 */
static unsigned long flags_after_cx16(unsigned long a, unsigned long b)
{
	struct u128 mem = { 1, 2 };
	unsigned long fl, lo = 1, hi = 2, nlo = 3, nhi = 4;

	asm volatile("pushq $0x202\n\t"
		     "popfq\n\t"
		     "cmp %[a], %[b]\n\t"
		     "lock cmpxchg16b %[m]\n\t"
		     "pushfq\n\t"
		     "pop %[fl]"
		     : [fl] "=&r"(fl), [m] "+m"(mem), "+a"(lo), "+d"(hi)
		     : [a] "r"(a), [b] "r"(b), "b"(nlo), "c"(nhi)
		     : "cc");
	return fl;
}

static int check_flags(unsigned long n)
{
	unsigned long seen[16], bad = 0, i;
	int nseen = 0, j;

	for (i = 0; i < n; i++) {
		/* A varies over all 32-bit patterns, B stays small. */
		unsigned long a = (i * 0x9e3779b97f4a7c15UL) >> 32, b = i & 7;
		unsigned long want = flags_of_cmp(a, b) | F_ZF;
		unsigned long got = flags_after_cx16(a, b);

		if ((got & F_CHECKED) == (want & F_CHECKED))
			continue;
		bad++;
		for (j = 0; j < nseen && seen[j] != got; j++)
			;
		if (j < nseen || nseen == 16)
			continue;
		seen[nseen++] = got;
		printf("cmp %#lx, %#lx; cmpxchg16b: flags %#lx, want %#lx%s\n",
		       a, b, got, want & (F_ARITH | F_FIXED),
		       got & F_RESERVED ? " (reserved bits set)" : "");
	}
	printf("flags: %lu of %lu CMPXCHG16B left wrong flags\n", bad, n);
	return bad ? 1 : 0;
}

static int window(unsigned int secs)
{
	struct u128 mem = { 1, 2 };
	unsigned long windows = 0, dirty = 0;
	time_t end = time(NULL) + secs;
	char buf[3] = "abc";

	while (time(NULL) < end) {
		for (int k = 0; k < 256; k++) {
			unsigned long lo = mem.lo, hi = mem.hi;
			const char *p = &buf[1];

			/*
			 * DF is read by what it does (LODSB's direction), not
			 * by PUSHF: the emulator keeps it apart from the
			 * arithmetic flags, and only a POPF or an interrupt
			 * return loads it from an image of all the flags.
			 */
			asm volatile("pushq $0x202\n\t"
				     "popfq\n\t"
				     "cmp %[a], %[b]\n\t"
				     "lock cmpxchg16b %[m]\n\t"
				     ".rept 4096\n\t"
				     "mov %%rbx, %%rbx\n\t"
				     ".endr\n\t"
				     "lodsb\n\t"
				     "cld"
				     : [m] "+m"(mem), "+a"(lo), "+d"(hi), "+S"(p)
				     : [a] "r"(F_DF), [b] "r"(0UL), "b"(lo),
				       "c"(hi)
				     : "cc", "memory");
			windows++;
			if (p != &buf[2])
				dirty++;
		}
	}
	printf("window: %lu of %lu windows came back with DF set\n", dirty,
	       windows);
	return dirty ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "flags") && strcmp(argv[1], "window"))) {
		fprintf(stderr, "usage: cx16_flags flags [N] | window SECS\n");
		return 2;
	}
	if (!has_cx16()) {
		printf("no CMPXCHG16B on this CPU\n");
		return 4;
	}
	if (!strcmp(argv[1], "flags"))
		return check_flags(argc > 2 ? strtoul(argv[2], NULL, 0) : 100000);
	return window(argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0) : 10);
}
