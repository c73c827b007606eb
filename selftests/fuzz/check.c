// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz's checks and what it reports: every byte read from a
 * connection is the stream's, with the frames that carried a wrong one;
 * the connections that did not complete; the counts at the end.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "flow.h"
#include "frame.h"
#include "send.h"
#include "util.h"

bool failed;

static void dump_frames(const struct flow *f, uint64_t off)
{
	int i, j, shown = 0;

	printf("# the last frames of flow %d carrying stream offset %llu, or near it (oldest first; all: --pcap):\n",
	       f->id, (unsigned long long)off);
	for (i = 0; i < RING; i++) {
		const struct ring_ent *r = &ring[i];

		/* near it too: a frame whose headers lie moves its payload */
		if (r->flow != f->id || r->off > (int64_t)off + 64 ||
		    r->off + r->plen + 64 <= (int64_t)off || r->len == 0)
			continue;
		printf("# frame %lu, %s, %d bytes, payload at %lld+%d:\n#   ",
		       r->n, kind_names[r->kind], r->len, (long long)r->off,
		       r->plen);
		for (j = 0; j < r->len && j < (int)sizeof(r->b); j++)
			printf("%02x%s", r->b[j], j % 32 == 31 ? "\n#   " : "");
		printf("\n");
		if (++shown == 16)
			break;
	}
	if (!shown)
		printf("#   (none left in the last %d frames)\n", RING);
}

void check_stream(struct flow *f, const uint8_t *b, int n)
{
	static uint8_t want[1 << 16];
	int i;

	pat_fill(f->id, f->rcvd, want, n);
	if (memcmp(b, want, n)) {
		for (i = 0; b[i] == want[i]; i++)
			;
		printf("FAIL: flow %d (%s): byte %llu of the stream (seq %u) is 0x%02x, sent 0x%02x (seed %llu)\n",
		       f->id, f->name, (unsigned long long)(f->rcvd + i),
		       (uint32_t)(f->iss + 1 + f->rcvd + i), b[i], want[i],
		       (unsigned long long)seed);
		dump_frames(f, f->rcvd + i);
		failed = true;
	}
	f->rcvd += n;
}

/* The connections that did not complete in @secs seconds. */
void report_stalled(double secs)
{
	int i;

	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (f->conn && f->rcvd < f->total)
			printf("FAIL: flow %d (%s): %llu of %llu bytes read after %.0f s (acknowledged %llu, window %u, %lu retransmissions)\n",
			       f->id, f->name, (unsigned long long)f->rcvd,
			       (unsigned long long)f->total, secs,
			       (unsigned long long)f->una, f->swnd, f->retrans);
	}
}

/* The counts, from @t0 on: frames, kinds, and what each connection read. */
void report(double t0)
{
	int i;

	printf("%lu malformed and %lu valid frames in %.1f s (%lu bytes; %lu refused by AF_PACKET)\n",
	       n_fuzz, n_valid, now() - t0, n_bytes, n_err);
	printf("kinds:");
	for (i = 1; i < K_NR; i++)
		printf(" %s %lu", kind_names[i], n_kind[i]);
	printf("\n");
	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (f->conn)
			printf("flow %d (%s): %llu bytes read and checked, %lu valid segments, %lu retransmissions\n",
			       i, f->name, (unsigned long long)f->rcvd, f->valid, f->retrans);
	}
}
