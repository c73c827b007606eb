/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sending held packets up (flush.c).
 */
#ifndef _LRO_FLUSH_H
#define _LRO_FLUSH_H

#include "seg.h"

void lro_flush(struct net_lro_mgr *mgr, struct net_lro_desc *d,
	       enum lro_flush_reason why);
void lro_flush_all_reason(struct net_lro_mgr *mgr, enum lro_flush_reason why);
u64 lro_flush_due(struct net_lro_mgr *mgr, u64 now, bool in_order);
void lro_drop_all(struct net_lro_mgr *mgr);
void __lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_flush_mem(struct net_lro_mgr *mgr);

#endif /* _LRO_FLUSH_H */
