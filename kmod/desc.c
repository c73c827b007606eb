// SPDX-License-Identifier: GPL-2.0
/*
 * The descriptor table: finding a flow's descriptor, taking a free one,
 * giving it back. The hash chains are threaded through the driver's own
 * lro_arr (struct net_lro_desc @bucket and @hash_next, indices + 1, 0 for
 * none), and active descriptors sit on mgr->active oldest first, so a
 * zeroed array is a valid empty table and lookup costs the same at any
 * max_desc. The 2007 linear scan stays as a load-time option, for the
 * flow-scaling benchmark.
 *
 * The array may be another manager's, shared (net_lro_mgr.table): its
 * chains and free list are then the table's, each descriptor names the
 * manager holding it, and a manager's max_desc bounds what it takes. As
 * GRO's lists belong to a NAPI instance, not to a device, one table can
 * serve every device received on one CPU.
 */

#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/reciprocal_div.h>
#include <net/ipv6.h>

#include "desc.h"

static u32 lro_hash_seed __read_mostly;

/* Set at load only, so a static key: the hash path tests nothing for it. */
static bool linear_lookup;
module_param(linear_lookup, bool, 0444);
MODULE_PARM_DESC(linear_lookup, "use the 2007 linear descriptor scan (for benchmarks)");
DEFINE_STATIC_KEY_FALSE(lro_linear_lookup);

static u32 lro_idx(const struct net_lro_mgr *t, const struct net_lro_desc *d)
{
	return d - t->lro_arr;
}

void lro_seg_hash(struct lro_seg *seg)
{
	u32 ports = *(u32 *)&seg->tcph->source;

	/* Addresses and ports only, so lro_flush_pkt() can find a flow
	 * without knowing its device or VLAN; those are compared on match.
	 * All of an IPv6 address counts: a folded one collides at will.
	 */
	if (seg->ipv6)
		seg->hash = jhash_1word(ports,
					jhash2((const u32 *)&seg->ip6h->saddr,
					       2 * sizeof(struct in6_addr) /
					       sizeof(u32), lro_hash_seed));
	else
		seg->hash = jhash_3words((__force u32)seg->iph->saddr,
					 (__force u32)seg->iph->daddr,
					 ports, lro_hash_seed);
}

/* @t: the table (lro_table()) */
static u32 *lro_bucket(struct net_lro_mgr *t, u32 hash)
{
	return &t->lro_arr[reciprocal_scale(hash, t->max_desc)].bucket;
}

/* @d is @mgr's and of @seg's flow (on @seg's device and VLAN unless @any_dev) */
static __always_inline bool lro_desc_match(const struct net_lro_mgr *mgr,
					   const struct net_lro_desc *d,
					   const struct lro_seg *seg,
					   bool any_dev)
{
	return d->hash == seg->hash && d->mgr == mgr &&
	       lro_same_tuple(d, seg) && (any_dev || lro_same_dev(d, seg));
}

static __always_inline struct net_lro_desc *
lro_lookup(struct net_lro_mgr *mgr, const struct lro_seg *seg, bool any_dev)
{
	struct net_lro_mgr *t = lro_table(mgr);
	u32 i = *lro_bucket(t, seg->hash);

	/* 2007: scan lro_arr for an active descriptor of the flow. The hash
	 * chains are still kept, only not used for lookup.
	 */
	if (static_branch_unlikely(&lro_linear_lookup)) {
		for (i = 0; i < t->max_desc; i++) {
			struct net_lro_desc *d = &t->lro_arr[i];

			if (d->active && lro_desc_match(mgr, d, seg, any_dev))
				return d;
		}
		return NULL;
	}
	while (i) {
		struct net_lro_desc *d = &t->lro_arr[i - 1];

		if (lro_desc_match(mgr, d, seg, any_dev))
			return d;
		i = d->hash_next;
	}
	return NULL;
}

/* lro_find_desc() past its fast path: hash @seg, walk its chain. */
struct net_lro_desc *lro_lookup_desc(struct net_lro_mgr *mgr,
				     struct lro_seg *seg)
{
	lro_seg_hash(seg);
	return lro_lookup(mgr, seg, false);
}

/* A descriptor with @seg's addresses and ports, on any device or VLAN. */
struct net_lro_desc *lro_find_flow(struct net_lro_mgr *mgr,
				   const struct lro_seg *seg)
{
	return lro_lookup(mgr, seg, true);
}

static void lro_unhash(struct net_lro_mgr *t, struct net_lro_desc *d)
{
	u32 *link = lro_bucket(t, d->hash);
	u32 self = lro_idx(t, d) + 1;

	while (*link != self)
		link = &t->lro_arr[*link - 1].hash_next;
	*link = d->hash_next;
}

/*
 * Take a free descriptor; NULL when @mgr holds max_desc, or when all of
 * its table's are active.
 */
struct net_lro_desc *lro_new_desc(struct net_lro_mgr *mgr)
{
	struct net_lro_mgr *t = lro_table(mgr);
	struct net_lro_desc *d;
	int i;

	if (mgr->nr_active >= (u32)mgr->max_desc)
		return NULL;
	/* 2007: the first inactive descriptor */
	if (static_branch_unlikely(&lro_linear_lookup)) {
		for (i = 0; i < t->max_desc; i++)
			if (!t->lro_arr[i].active)
				return &t->lro_arr[i];
		return NULL;
	}
	if (t->free_desc) {
		d = &t->lro_arr[t->free_desc - 1];
		t->free_desc = d->hash_next;
	} else if (t->used_desc < t->max_desc) {
		d = &t->lro_arr[t->used_desc++];
	} else {
		return NULL;
	}
	return d;
}

void lro_release_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d)
{
	struct net_lro_mgr *t = lro_table(mgr);
	u32 bucket;

	mgr->stats.held -= d->pkt_aggr_cnt;
	mgr->stats.held_bytes -= d->parent->truesize;
	lro_unhash(t, d);
	/* Belongs to the hash, not to d. Read after lro_unhash(), which
	 * changes it when d heads the chain kept in its own slot.
	 */
	bucket = d->bucket;
	list_del(&d->node);
	memset(d, 0, sizeof(*d));
	d->bucket = bucket;
	d->hash_next = t->free_desc;
	t->free_desc = lro_idx(t, d) + 1;
	mgr->nr_active--;
	if (t != mgr)
		t->nr_active--;
	/* Once empty, forget the free list so a driver may change max_desc. */
	if (!t->nr_active) {
		t->free_desc = 0;
		t->used_desc = 0;
	}
}

/*
 * Link a descriptor just filled in into its table's hash chain and its
 * manager's active list.
 */
void lro_hash_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d)
{
	struct net_lro_mgr *t = lro_table(mgr);
	u32 *bucket = lro_bucket(t, d->hash);

	d->hash_next = *bucket;
	*bucket = lro_idx(t, d) + 1;
	d->mgr = mgr;
	list_add_tail(&d->node, &mgr->active);
	mgr->nr_active++;
	if (t != mgr)
		t->nr_active++;
}

int lro_engine_init(void)
{
	lro_hash_seed = get_random_u32();
	if (linear_lookup)
		static_branch_enable(&lro_linear_lookup);
	return 0;
}
