/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive core and skb mode (engine.c): what the other engine files
 * and the module wrapping the engine (lro.ko's rx.c) call.
 */
#ifndef _LRO_ENGINE_H
#define _LRO_ENGINE_H

#include "seg.h"

enum lro_verdict lro_rx_skb(struct net_lro_mgr *mgr, struct sk_buff *skb,
			    void *priv);
enum lro_verdict lro_receive_frame(struct net_lro_mgr *mgr,
				   struct lro_seg *seg, struct lro_frame *f);
bool lro_ip6_chain_ok(const struct lro_seg *seg);
__sum16 lro_tcp_csum(const struct lro_seg *seg, unsigned int tcplen,
		     __wsum csum);
void lro_init_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d,
		   struct sk_buff *skb, const struct lro_seg *seg);
struct net_lro_desc *lro_get_desc(struct net_lro_mgr *mgr);

#endif /* _LRO_ENGINE_H */
