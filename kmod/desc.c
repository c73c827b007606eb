// SPDX-License-Identifier: GPL-2.0
/*
 * The descriptor table: finding a flow's descriptor, taking a free one,
 * giving it back. The hash chains are threaded through the driver's own
 * lro_arr (struct net_lro_desc @bucket and @hash_next, indices + 1, 0 for
 * none), and active descriptors sit on mgr->active oldest first, so a
 * zeroed array is a valid empty table and lookup costs the same at any
 * max_desc. The 2007 linear scan stays as a load-time option, for the
 * flow-scaling benchmark.
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

static u32 lro_idx(const struct net_lro_mgr *mgr, const struct net_lro_desc *d)
{
	return d - mgr->lro_arr;
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

static u32 *lro_bucket(struct net_lro_mgr *mgr, u32 hash)
{
	return &mgr->lro_arr[reciprocal_scale(hash, mgr->max_desc)].bucket;
}

static struct net_lro_desc *lro_lookup(struct net_lro_mgr *mgr,
				       const struct lro_seg *seg, bool any_dev)
{
	u32 i = *lro_bucket(mgr, seg->hash);

	/* 2007: scan lro_arr for an active descriptor of the flow. The hash
	 * chains are still kept, only not used for lookup.
	 */
	if (static_branch_unlikely(&lro_linear_lookup)) {
		for (i = 0; i < mgr->max_desc; i++) {
			struct net_lro_desc *d = &mgr->lro_arr[i];

			if (d->active && d->hash == seg->hash &&
			    lro_same_tuple(d, seg) &&
			    (any_dev || lro_same_dev(d, seg)))
				return d;
		}
		return NULL;
	}
	while (i) {
		struct net_lro_desc *d = &mgr->lro_arr[i - 1];

		if (d->hash == seg->hash && lro_same_tuple(d, seg) &&
		    (any_dev || lro_same_dev(d, seg)))
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

static void lro_unhash(struct net_lro_mgr *mgr, struct net_lro_desc *d)
{
	u32 *link = lro_bucket(mgr, d->hash);
	u32 self = lro_idx(mgr, d) + 1;

	while (*link != self)
		link = &mgr->lro_arr[*link - 1].hash_next;
	*link = d->hash_next;
}

/* Take a free descriptor; NULL when all max_desc are active. */
struct net_lro_desc *lro_new_desc(struct net_lro_mgr *mgr)
{
	struct net_lro_desc *d;
	int i;

	/* 2007: the first inactive descriptor */
	if (static_branch_unlikely(&lro_linear_lookup)) {
		for (i = 0; i < mgr->max_desc; i++)
			if (!mgr->lro_arr[i].active)
				return &mgr->lro_arr[i];
		return NULL;
	}
	if (mgr->free_desc) {
		d = &mgr->lro_arr[mgr->free_desc - 1];
		mgr->free_desc = d->hash_next;
	} else if (mgr->used_desc < mgr->max_desc) {
		d = &mgr->lro_arr[mgr->used_desc++];
	} else {
		return NULL;
	}
	return d;
}

void lro_release_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d)
{
	u32 bucket;

	mgr->stats.held -= d->pkt_aggr_cnt;
	mgr->stats.held_bytes -= d->parent->truesize;
	lro_unhash(mgr, d);
	/* Belongs to the hash, not to d. Read after lro_unhash(), which
	 * changes it when d heads the chain kept in its own slot.
	 */
	bucket = d->bucket;
	list_del(&d->node);
	memset(d, 0, sizeof(*d));
	d->bucket = bucket;
	d->hash_next = mgr->free_desc;
	mgr->free_desc = lro_idx(mgr, d) + 1;
	/* Once empty, forget the free list so a driver may change max_desc. */
	if (!--mgr->nr_active) {
		mgr->free_desc = 0;
		mgr->used_desc = 0;
	}
}

/* Link a descriptor just filled in into its hash chain and the active list. */
void lro_hash_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d)
{
	u32 *bucket = lro_bucket(mgr, d->hash);

	d->hash_next = *bucket;
	*bucket = lro_idx(mgr, d) + 1;
	list_add_tail(&d->node, &mgr->active);
	mgr->nr_active++;
}

int lro_engine_init(void)
{
	lro_hash_seed = get_random_u32();
	if (linear_lookup)
		static_branch_enable(&lro_linear_lookup);
	return 0;
}
