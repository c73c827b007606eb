/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The segments lro_bench feeds: MSS-sized TCP/IPv4 segments with
 * timestamps, of numbered flows from 10.77.0.1 to 10.77.0.2:5001, headers
 * in the linear area and the payload in one page fragment, as a NIC
 * driver builds them.
 */
#ifndef _LRO_BENCH_TRAIN_H
#define _LRO_BENCH_TRAIN_H

#include <linux/netdevice.h>

struct lb_flow {
	u32 seq;
	u16 id;
	u16 sport;
	u32 hash;
};

/* What every segment of a train shares. */
struct lb_train {
	struct net_device *dev;	/* the segments arrive on it */
	struct page *page;	/* each segment's payload */
	unsigned int mss;	/* TCP payload bytes per segment */
};

/* Flow @index back at its first segment. */
void lb_flow_reset(struct lb_flow *f, unsigned int index);
/*
 * Build @segs segments into @skbs, round robin over @nflows flows: each
 * flow's next segment in turn. All or nothing: -ENOMEM frees what was built.
 */
int lb_train_build(const struct lb_train *t, struct lb_flow *flows,
		   unsigned int nflows, struct sk_buff **skbs,
		   unsigned int segs);

#endif /* _LRO_BENCH_TRAIN_H */
