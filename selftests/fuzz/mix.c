// SPDX-License-Identifier: GPL-2.0
/*
 * The mix lro_fuzz sends: valid trains of the flows, interleaved with
 * malformed frames of every kind, in proportions.
 */
#include <linux/if_packet.h>
#include <stdio.h>
#include <sys/socket.h>

#include "check.h"
#include "conn.h"
#include "flow.h"
#include "frame.h"
#include "ipv4.h"
#include "ipv6.h"
#include "mix.h"
#include "send.h"
#include "tcp.h"
#include "util.h"

static const int weights[K_NR] = {
	[K_DUP] = 5, [K_JUMP] = 5, [K_SIZE] = 5, [K_FLAGS] = 6, [K_ACKWIN] = 4,
	[K_TCPOPT] = 7, [K_TSOPT] = 6, [K_DOFF] = 5, [K_IHL] = 5,
	[K_IPOPT] = 4, [K_IPFIELD] = 5, [K_LEN] = 7, [K_TRUNC] = 5,
	[K_FRAG] = 5, [K_EXTHDR] = 6, [K_CSUM] = 8, [K_VLAN] = 6,
	[K_PROTO] = 3, [K_MAC] = 2, [K_MUTATE] = 8,
};

/* What makes a frame of each kind out of a valid one; K_VALID is none. */
static void (*const kinds[K_NR])(struct spec *s) = {
	[K_DUP] = k_dup, [K_JUMP] = k_jump, [K_SIZE] = k_size,
	[K_FLAGS] = k_flags, [K_ACKWIN] = k_ackwin, [K_TCPOPT] = k_tcpopt,
	[K_TSOPT] = k_tsopt, [K_DOFF] = k_doff, [K_IHL] = k_ihl,
	[K_IPOPT] = k_ipopt, [K_IPFIELD] = k_ipfield, [K_LEN] = k_len,
	[K_TRUNC] = k_trunc, [K_FRAG] = k_frag, [K_EXTHDR] = k_exthdr,
	[K_CSUM] = k_csum, [K_VLAN] = k_vlan, [K_PROTO] = k_proto,
	[K_MAC] = k_mac, [K_MUTATE] = k_mutate,
};

/* The next segment of @f's valid train. */
void send_valid(struct flow *f, uint64_t limit)
{
	struct spec s;
	int64_t r = room(f);

	if (limit && (int64_t)(limit - f->nxt) < r)
		r = limit - f->nxt;
	if (r <= 0)
		return;
	spec_init(&s, f, K_VALID);
	next_id(&s);
	if (s.plen > r)
		s.plen = r;
	if (f->train <= 1 && f->train_psh)
		s.flags |= F_PSH;
	emit(&s);
	f->nxt += s.plen;
	f->valid++;
	if (f->train > 0)
		f->train--;
}

static void start_train(struct flow *f)
{
	f->train = chance(30) ? range(1, 8) : range(8, 70);
	f->train_psh = chance(20);
}

static struct flow *pick_train(void)
{
	struct flow *c[NFLOWS];
	int i, n = 0, active = 0;

	for (i = 0; i < NFLOWS; i++)
		if (flows[i].train > 0)
			active++;
	if (active < 3)
		start_train(&flows[rn(NFLOWS)]);
	for (i = 0; i < NFLOWS; i++)
		if (flows[i].train > 0 && room(&flows[i]) > 0)
			c[n++] = &flows[i];
	return n ? c[rn(n)] : NULL;
}

static void fuzz_one(void)
{
	struct flow *f;
	struct spec s;
	int k, w = 0, total = 0, i;

	/* mostly a flow with a train on: a malformed frame mid-aggregate */
	f = &flows[rn(NFLOWS)];
	for (i = 0; i < 4 && !f->train; i++)
		f = &flows[rn(NFLOWS)];
	for (k = 0; k < K_NR; k++)
		total += weights[k];
	w = rn(total);
	for (k = 0; w >= weights[k]; k++)
		w -= weights[k];
	spec_init(&s, f, k);
	if (k != K_IPFIELD || chance(50))
		next_id(&s);
	if (chance(10))
		s.flags |= F_PSH;
	kinds[k](&s);
}

/* The frames: first a train of 64 on a flow whose 64 segments fit in
 * 64 KB, and one of a jumbo flow that does not: max_aggr and the size
 * limit end them, if the hold time does not first. Then valid trains and
 * @frames malformed frames, interleaved.
 */
void mix_run(unsigned long frames, int verbose)
{
	double t, last_report = 0;
	bool tap = false;
	int i;

	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (f->conn || (f->mss * 64 > 65000 && f->mtu < 9000))
			continue;
		f->train = 64;
		f->train_psh = false;
		while (f->train > 0)
			send_valid(f, 0);
	}

	while (n_fuzz < frames && !failed) {
		/* now and then our own tap holds a clone of each frame sent:
		 * LRO then sees shared (cloned) skbs
		 */
		if (n_fuzz % 1024 == 0 && chance(50)) {
			int v = tap;

			tap = !tap;
			setsockopt(rxfd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &v, sizeof(v));
		}
		if ((n_fuzz + n_valid) % 97 == 0)
			for (i = 0; i < NFLOWS; i++)
				flows[i].tsval++;
		if (chance(55)) {
			struct flow *f = pick_train();

			if (!f)
				goto fuzz;
			/* now and then a whole train at once, as a burst
			 * fills a receive ring: max_aggr and 64 KB are
			 * reached before the hold time ends it
			 */
			if (chance(3))
				while (f->train > 0 && room(f) > 0)
					send_valid(f, 0);
			else
				send_valid(f, 0);
			goto sent;
		}
fuzz:
		fuzz_one();
sent:
		if (nbatch == 0) {	/* a batch went out: what came back */
			rx_poll();
			sock_poll();
			t = now();
			for (i = 0; i < NFLOWS; i++)
				retransmit(&flows[i], t);
			if (verbose && t - last_report > 5) {
				printf("# %lu malformed, %lu valid frames\n", n_fuzz, n_valid);
				last_report = t;
			}
		}
	}
	flush_batch();
}
