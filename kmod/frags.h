/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page mode's part of the receive core (frags.c).
 */
#ifndef _LRO_FRAGS_H
#define _LRO_FRAGS_H

#include "seg.h"

bool lro_frags_csum_ok(const struct net_lro_mgr *mgr, struct lro_frame *f,
		       const struct lro_seg *seg);
bool lro_frags_fit(const struct net_lro_desc *d, const struct lro_frame *f);
void lro_frags_attach(struct net_lro_desc *d, struct lro_frame *f);
enum lro_verdict lro_frags_start(struct net_lro_mgr *mgr, struct lro_frame *f,
				 struct lro_seg *seg);

#endif /* _LRO_FRAGS_H */
