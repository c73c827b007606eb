/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_fuzz's plumbing: dying, the clock, the random numbers every choice
 * is drawn from (the seed replays them), bytes in network order and the
 * ones' complement sums.
 */
#ifndef _LRO_FUZZ_UTIL_H
#define _LRO_FUZZ_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/* "lro_fuzz: " and the message on stderr, then exit(@status) */
void die(int status, const char *fmt, ...);
double now(void);

/* the run's seed: printed, and --seed replays it */
extern uint64_t seed;
/* Seeds the generator from seed. */
void rnd_init(void);
uint64_t splitmix(uint64_t *x);
uint64_t rnd(void);
void rfill(uint8_t *p, int n);

static inline int rn(int n)	/* 0..n-1 */
{
	return n > 0 ? (int)(rnd() % n) : 0;
}

static inline int range(int lo, int hi)	/* lo..hi */
{
	return lo + (int)rn(hi - lo + 1);
}

static inline bool chance(int pct)
{
	return rn(100) < pct;
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

uint64_t sum16(const uint8_t *p, int n, uint64_t s);
uint16_t fold(uint64_t s);
uint16_t wrong16(uint16_t v);
void wrong8(uint8_t *p);

#endif
