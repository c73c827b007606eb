// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: descriptors and flows. Running out of descriptors
 * (no_desc, eviction), lro_flush_pkt() and lro_flush_all() order, many
 * flows in the hash, what tells flows apart (VLAN, device), and managers
 * sharing one table.
 */

#include <linux/module.h>

#include "harness.h"

/* 2 descriptors, 3 flows of 2, 3 and 2 segments, one after the other */
static const char *c_desc(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f;
	unsigned int i, j;

	if (lt_set_desc(t, 2))
		return NULL;
	t->mgr.features |= arg & LRO_F_EVICT;
	t->no_desc = arg & LRO_F_EVICT ? 1 : 2;
	for (i = 0; i < 3; i++) {
		f = lt_flow(t);
		for (j = 0; j < 2 + (i == 1); j++)
			lt_put(t, f, MSS, arg & LT_FRAMES);
	}
	lt_flush_all(t);
	return NULL;
}

/* One descriptor, one flow after the other: all share hash chain 0,
 * kept in descriptor 0's own slot
 */
static const char *c_one_desc(struct lt_ctx *t, unsigned long arg)
{
	unsigned int i;

	if (lt_set_desc(t, 1))
		return NULL;
	for (i = 0; i < 3; i++) {
		struct lt_flow *f = lt_flow(t);

		lt_segs(t, f, 2, MSS);
		if (i == 1)
			lt_flush_pkt(t, f);
		else
			lt_flush_all(t);
	}
	return NULL;
}

static const char *c_flush_pkt(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t), *c = lt_flow(t);

	lt_flush_pkt(t, a);		/* nothing held at all */
	lt_segs(t, a, 2, MSS);
	lt_segs(t, b, 2, MSS);
	lt_flush_pkt(t, c);		/* a flow without a descriptor */
	if (skb_queue_len(&t->rxq))
		return "lro_flush_pkt() of a flow not held sent packets up";
	lt_flush_pkt(t, a);
	lt_flush_pkt(t, a);		/* again: nothing held now */
	lt_flush_all(t);
	return NULL;
}

/* lro_flush_all() sends packets up in the order they were started */
static const char *c_flush_order(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t), *c = lt_flow(t);

	lt_seg(t, b, MSS, 0);
	lt_seg(t, a, MSS, 0);
	lt_seg(t, c, MSS, 0);
	lt_seg(t, a, MSS, 0);
	lt_segs(t, b, 2, MSS);
	lt_segs(t, c, 3, MSS);
	lt_flush_all(t);
	return NULL;
}

/* The debug kernel's checkers make many_flows slow: engine.sh scales it. */
unsigned int lt_flows = 4096;
module_param_named(flows, lt_flows, uint, 0444);
MODULE_PARM_DESC(flows, "flows, and descriptors, of the many_flows cases (2-4096)");

/*
 * As many flows as descriptors: two rounds of one segment each, every
 * other flow sent up after the second (by lro_flush_pkt(), unhashing from
 * the middle of chains; IPv6 flows, which it cannot name, by PSH on their
 * second segment), a third round (odd flows join, even ones take freed
 * descriptors), lro_flush_all(). IPv6 flows differ in the last bytes of
 * their addresses too.
 */
const char *c_many(struct lt_ctx *t, unsigned long arg)
{
	unsigned int i, r, n = clamp(lt_flows, 2U, 4096U);
	bool v6 = arg & LT_V6;
	struct lt_flow *f = lt_flow_of(t, v6);

	if (lt_set_desc(t, n))
		return NULL;
	for (i = 1; i < n; i++) {
		lt_flow_of(t, v6);
		if (v6) {
			f[i].saddr6.s6_addr16[7] = htons(i);
			f[i].daddr6.s6_addr16[6] = htons(i);
		}
	}
	for (r = 0; r < 3; r++) {
		for (i = 0; i < n && !t->err; i++)
			lt_seg(t, &f[i], 64,
			       v6 && r == 1 && !(i & 1) ? LT_PSH : 0);
		for (i = 0; i < n && !v6 && r == 1; i += 2)
			lt_flush_pkt(t, &f[i]);
	}
	lt_flush_all(t);
	snprintf(t->wantbuf, sizeof(t->wantbuf), "2%cx%u 3Bx%u 1Bx%u",
		 v6 ? 'P' : 'K', (n + 1) / 2, n / 2, (n + 1) / 2);
	t->want = t->wantbuf;
	return NULL;
}

/* One 4-tuple on VLANs 10, 20 and untagged: three flows */
static const char *c_vlan(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f[3];
	unsigned int i, r;

	f[0] = lt_flow(t);
	f[0]->vlan = 10;
	for (i = 1; i < 3; i++) {
		f[i] = lt_flow(t);
		*f[i] = *f[0];
		f[i]->vlan = i == 1 ? 20 : 0;
	}
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 3; i++)
			lt_put(t, f[i], MSS, arg);
		if (r == 1)
			lt_flush_all(t);
	}
	lt_flush_pkt(t, f[0]);	/* the 4-tuple on every VLAN */
	return NULL;
}

/* One 4-tuple arriving on two devices (skb_iif): two flows */
static const char *c_dev(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t);
	unsigned int i;

	*b = *a;
	b->iif = t->dev->ifindex + 1000;
	b->seq += 1 << 24;
	for (i = 0; i < 4; i++)
		lt_seg(t, i & 1 ? b : a, MSS, 0);
	lt_flush_all(t);
	return NULL;
}

/* @b's counters into the test manager's, which the expectations check */
static void lt_add_stats(struct lt_ctx *t, const struct net_lro_stats *b)
{
	unsigned long *to = (unsigned long *)&t->mgr.stats;
	const unsigned long *from = (const unsigned long *)b;
	unsigned int i;

	for (i = 0; i < sizeof(*b) / sizeof(*from); i++)
		to[i] += from[i];
}

/*
 * Two managers of one device sharing a table of 2 descriptors (as lro.ko
 * shares one per CPU between devices): A with max_desc 1, B with 2. Flow
 * x is flow a's 4-tuple on the same device, its sequence continuing a's,
 * but given to B: it must not join A's packet (descriptors are found per
 * manager). A's second flow finds A's max_desc taken, B's second flow the
 * table full: both pass.
 */
static const char *c_shared(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *c = lt_flow(t), *d = lt_flow(t);
	struct lt_flow *x = lt_flow(t);
	struct net_lro_mgr tbl = { .max_desc = 2 }, b = t->mgr;
	const char *err = NULL;
	struct sk_buff *skb;
	unsigned int i;

	tbl.lro_arr = kvcalloc(2, sizeof(*tbl.lro_arr), GFP_KERNEL);
	if (!tbl.lro_arr) {
		t->err = "no memory for descriptors";
		return NULL;
	}
	b.lro_arr = NULL;
	b.max_desc = 2;
	b.table = &tbl;
	INIT_LIST_HEAD(&b.active);
	t->mgr.table = &tbl;
	t->mgr.max_desc = 1;
	t->no_desc = 2;

	*x = *a;
	x->seq += MSS;		/* as if after a's first segment */
	x->id++;
	lt_seg(t, a, MSS, 0);
	for (i = 0; i < 2; i++) {
		skb = lt_make(t, i ? d : x, MSS, 0);
		if (!skb)
			break;
		local_bh_disable();
		lro_receive_skb(&b, skb, NULL);
		local_bh_enable();
		if (!i)
			lt_seg(t, c, MSS, 0);
	}
	if (t->mgr.nr_active != 1 || b.nr_active != 1 || tbl.nr_active != 2)
		err = lt_fail(t, "held: A %u, B %u, table %u; want 1, 1, 2",
			      t->mgr.nr_active, b.nr_active, tbl.nr_active);
	lt_flush_all(t);
	local_bh_disable();
	lro_flush_all(&b);
	local_bh_enable();
	for (i = 0; i < 2 && !err; i++)
		if (tbl.lro_arr[i].bucket || tbl.lro_arr[i].active || tbl.nr_active)
			err = lt_fail(t, "idle, but table descriptor %u busy", i);
	lt_add_stats(t, &b.stats);
	t->mgr.table = NULL;
	kvfree(tbl.lro_arr);
	return err;
}

/*
 * One pair of ports between three pairs of addresses: A, B with another
 * source, C with another destination; A1 B1 C1 A2 B2 C2 make three
 * packets (lro_same_tuple(), as inet_gro_receive() and ipv6_gro_receive()
 * tell flows apart by address).
 */
static const char *c_addr(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f[3];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		f[i] = lt_flow_of(t, arg & LT_V6);
		if (!i)
			continue;
		*f[i] = *f[0];
		f[i]->seq += i << 24;
	}
	f[1]->saddr ^= htonl(0x100);
	f[1]->saddr6.s6_addr32[3] ^= htonl(0x100);
	f[2]->daddr ^= htonl(0x100);
	f[2]->daddr6.s6_addr32[3] ^= htonl(0x100);
	for (i = 0; i < 6; i++)
		lt_seg(t, f[i % 3], MSS, 0);
	lt_flush_all(t);
	return NULL;
}

/*
 * max_held_bytes: 3 flows of 2 segments, A1 B1 C1 A2 B2 C2, and room for
 * the truesize of two and a half first segments (measured on A1). C1 is
 * one too many: A goes up; A2 starts A again, and B goes up; and so on,
 * the oldest first each time. Nothing is held past the limit: checked
 * after every segment.
 */
static const char *c_held_mem(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f[3];
	unsigned int i;

	for (i = 0; i < 3; i++)
		f[i] = lt_flow(t);
	for (i = 0; i < 6; i++) {
		lt_put(t, f[i % 3], MSS, arg);
		if (!i)
			t->mgr.max_held_bytes = t->mgr.stats.held_bytes * 5 / 2;
		if (t->mgr.stats.held_bytes > t->mgr.max_held_bytes)
			return lt_fail(t, "segment %u: %lu bytes held, limit %lu",
				       i, t->mgr.stats.held_bytes,
				       t->mgr.max_held_bytes);
	}
	lt_flush_all(t);
	return NULL;
}

/* One flow: a joining segment takes the packet past the limit, and it
 * goes up at once, with that segment in it.
 */
static const char *c_held_mem_join(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	unsigned int i;

	for (i = 0; i < 4; i++) {
		lt_put(t, f, MSS, arg);
		if (!i)
			t->mgr.max_held_bytes = t->mgr.stats.held_bytes * 3 / 2;
	}
	lt_flush_all(t);
	return NULL;
}

static const struct lt_case cases[] = {
	{ "no_desc", c_desc, 0, "1px2 2B 3B" },
	{ "evict", c_desc, LRO_F_EVICT, "2E 3B 2B" },
	{ "frames_no_desc", c_desc, LT_FRAMES, "1px2 2B 3B" },
	{ "frames_evict", c_desc, LRO_F_EVICT | LT_FRAMES, "2E 3B 2B" },
	{ "one_desc", c_one_desc, 0, "2B 2K 2B" },
	{ "flush_pkt", c_flush_pkt, 0, "2K 2B" },
	{ "flush_all_order", c_flush_order, 0, "3B 2B 4B" },
	{ "many_flows", c_many, 0, NULL },
	{ "vlan_keyed", c_vlan, 0, "2Bx3 1Kx3" },
	{ "dev_keyed", c_dev, 0, "2Bx2" },
	{ "shared_table", c_shared, 0, "1px2 1Bx2" },
	{ "addr_keyed", c_addr, 0, "2Bx3" },
	{ "v6_addr_keyed", c_addr, LT_V6, "2Bx3" },
	{ "held_mem", c_held_mem, 0, "1Hx4 1Bx2" },
	{ "frames_held_mem", c_held_mem, LT_FRAMES, "1Hx4 1Bx2" },
	{ "held_mem_join", c_held_mem_join, 0, "2Hx2" },
};

const struct lt_case_set lt_desc_cases = { cases, ARRAY_SIZE(cases) };
