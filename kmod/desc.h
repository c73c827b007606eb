/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The descriptor table (desc.c): finding a flow's descriptor, taking and
 * giving back one.
 */
#ifndef _LRO_DESC_H
#define _LRO_DESC_H

#include <linux/jump_label.h>

#include "seg.h"

int lro_engine_init(void);
DECLARE_STATIC_KEY_FALSE(lro_linear_lookup);
void lro_seg_hash(struct lro_seg *seg);
struct net_lro_desc *lro_lookup_desc(struct net_lro_mgr *mgr,
				     struct lro_seg *seg);
struct net_lro_desc *lro_find_flow(struct net_lro_mgr *mgr,
				   const struct lro_seg *seg);
struct net_lro_desc *lro_new_desc(struct net_lro_mgr *mgr);
void lro_hash_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d);
void lro_release_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d);

/* The manager whose lro_arr holds @mgr's descriptors (net_lro_mgr.table) */
static __always_inline struct net_lro_mgr *lro_table(struct net_lro_mgr *mgr)
{
	return mgr->table ?: mgr;
}

/* A manager with no descriptors to take passes every segment. */
static inline bool lro_has_descs(struct net_lro_mgr *mgr)
{
	const struct net_lro_mgr *t = lro_table(mgr);

	return mgr->max_desc > 0 && t->max_desc > 0 && t->lro_arr;
}

/*
 * Flow comparisons, inlined: lro_find_desc()'s fast path runs for every
 * segment (a call to lro_same_tuple() alone cost 11 instructions of the
 * micro-benchmark's ~1040 per segment).
 */
static __always_inline bool lro_same_tuple(const struct net_lro_desc *d,
					   const struct lro_seg *seg)
{
	if (*(u32 *)&d->tcph->source != *(u32 *)&seg->tcph->source ||
	    d->ipv6 != seg->ipv6)
		return false;
	if (seg->ipv6)
		return ipv6_addr_equal(&d->ip6h->saddr, &seg->ip6h->saddr) &&
		       ipv6_addr_equal(&d->ip6h->daddr, &seg->ip6h->daddr);
	return d->iph->saddr == seg->iph->saddr &&
	       d->iph->daddr == seg->iph->daddr;
}

static __always_inline bool lro_same_dev(const struct net_lro_desc *d,
					 const struct lro_seg *seg)
{
	return d->ifindex == seg->ifindex && d->vlan_tag == seg->vlan_tag;
}

/*
 * The descriptor of @seg's flow: same device, VLAN, addresses and ports.
 * Hashes @seg. A burst is mostly one flow, the one whose packet was started
 * last: its descriptor is tried first, which spares the hash and the chain
 * walk (the 2007 scan, kept for comparison, does without this).
 */
static __always_inline struct net_lro_desc *
lro_find_desc(struct net_lro_mgr *mgr, struct lro_seg *seg)
{
	struct net_lro_desc *d;

	if (mgr->nr_active && !static_branch_unlikely(&lro_linear_lookup)) {
		d = list_last_entry(&mgr->active, struct net_lro_desc, node);
		if (lro_same_tuple(d, seg) && lro_same_dev(d, seg)) {
			seg->hash = d->hash;
			return d;
		}
	}
	return lro_lookup_desc(mgr, seg);
}

#endif /* _LRO_DESC_H */
