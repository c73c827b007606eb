/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the skb-mode engine (engine.c) and page mode (frags.c).
 */
#ifndef _LRO_ENGINE_H
#define _LRO_ENGINE_H

#include "lro.h"

/* One received segment, as the engine sees it. */
struct lro_seg {
	struct iphdr *iph;
	struct tcphdr *tcph;
	unsigned int ip_len;	/* bytes from the IP header to the end */
	unsigned int payload;	/* TCP payload bytes */
	u32 hash;
	int ifindex;
	u16 vlan_tag;
};

/* Zero-initialised managers are valid: the list head is set up lazily. */
static inline void lro_mgr_ready(struct net_lro_mgr *mgr)
{
	if (unlikely(!mgr->active.next))
		INIT_LIST_HEAD(&mgr->active);
}

bool lro_seg_eligible(const struct lro_seg *seg);
void lro_seg_hash(struct lro_seg *seg);
struct net_lro_desc *lro_find_desc(struct net_lro_mgr *mgr,
				   struct lro_seg *seg);
struct net_lro_desc *lro_find_flow(struct net_lro_mgr *mgr,
				   const struct lro_seg *seg);
struct net_lro_desc *lro_new_desc(struct net_lro_mgr *mgr);
void lro_init_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d,
		   struct sk_buff *skb, const struct lro_seg *seg);
int lro_join_check(const struct net_lro_mgr *mgr,
		   const struct net_lro_desc *d, const struct lro_seg *seg);
int lro_join_account(struct net_lro_mgr *mgr, struct net_lro_desc *d,
		     const struct lro_seg *seg);
void lro_hash_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d);
void lro_release_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d);

/* flush.c: sending held packets up (and lro.h's lro_flush_all_reason(),
 * lro_flush_older(), lro_drop_all())
 */
void lro_flush(struct net_lro_mgr *mgr, struct net_lro_desc *d,
	       enum lro_flush_reason why);
void lro_send_up(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb);

struct net_lro_desc *lro_desc_busy(struct net_lro_mgr *mgr);

/* lro_join_check() result: join, or flush the descriptor for this reason */
#define LRO_JOIN	(-1)

#endif /* _LRO_ENGINE_H */
