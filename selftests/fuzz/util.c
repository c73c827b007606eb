// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz's plumbing: dying, the clock, the random numbers, bytes in
 * network order and the ones' complement sums.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util.h"

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("lro_fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --- randomness: xoshiro256** seeded by splitmix64 --------------------- */

uint64_t seed;
static uint64_t rs[4];

uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rnd_init(void)
{
	uint64_t sm = seed;
	int i;

	for (i = 0; i < 4; i++)
		rs[i] = splitmix(&sm);
}

uint64_t rnd(void)
{
	uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;

	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = rotl(rs[3], 45);
	return r;
}

void rfill(uint8_t *p, int n)
{
	while (n-- > 0)
		*p++ = rnd();
}

/* --- bytes and checksums ------------------------------------------------- */

uint64_t sum16(const uint8_t *p, int n, uint64_t s)
{
	for (; n > 1; p += 2, n -= 2)
		s += p[0] << 8 | p[1];
	if (n > 0)
		s += p[0] << 8;
	return s;
}

uint16_t fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* A 16-bit word changed into one that is not the same in ones' complement
 * (0 and 0xffff are): the sum it is part of is wrong afterwards.
 */
uint16_t wrong16(uint16_t v)
{
	return v ^ range(1, 0xfffe);
}

/* One byte changed: a ones' complement sum always notices one. */
void wrong8(uint8_t *p)
{
	*p ^= range(1, 255);
}
