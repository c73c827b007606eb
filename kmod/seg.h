/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's vocabulary (no .c of its own): a received segment and frame
 * as the engine sees them, its verdict on them, and struct lro_engine_ops,
 * through which a module wrapping a manager (lro.ko's rx.c) takes part.
 * The engine (engine.c, frags.c, desc.c, flush.c, rules.h) includes
 * nothing of lro.ko: only include/linux/inet_lro.h and its own headers.
 */
#ifndef _LRO_SEG_H
#define _LRO_SEG_H

#include <linux/inet_lro.h>
#include <linux/ipv6.h>
#include <net/ipv6.h>

enum lro_verdict {
	LRO_PASS,	/* not taken: the caller delivers the skb */
	LRO_HELD,	/* taken into a descriptor, or delivered by LRO */
};

/* One received segment, as the engine sees it. */
struct lro_seg {
	union {
		struct iphdr *iph;
		struct ipv6hdr *ip6h;
	};
	struct tcphdr *tcph;
	unsigned int ip_len;	/* bytes from the IP header to the frame's end */
	unsigned int tot_len;	/* what the IP header says of them */
	unsigned int payload;	/* TCP payload bytes */
	u32 hash;
	int ifindex;
	u16 vlan_tag;
	bool ipv6;
	u32 max_aggr;		/* of the packet it starts, see */
	u32 hold_us;		/* struct lro_engine_ops */
};

/**
 * struct lro_engine_ops - what a module wrapping a manager adds to it
 * @start: a packet is about to be started with @seg, whose @max_aggr and
 *	@hold_us are the manager's max_aggr and 0: return false to send the
 *	segment up alone instead, or true, having set them as this packet's
 *	(a @max_aggr below 2 must return false). Required.
 * @flushed: a packet @start let start goes up, before its headers are
 *	rewritten. Optional.
 *
 * The engine calls them through net_lro_mgr.ops, once per packet (never
 * per segment), in the manager's receive context. As TCP calls its
 * congestion control: lro.ko's hold timer and BPF policies are such ops
 * (rx.c, policy.c).
 */
struct lro_engine_ops {
	bool (*start)(struct net_lro_mgr *mgr, struct lro_seg *seg);
	void (*flushed)(struct net_lro_mgr *mgr, const struct net_lro_desc *d,
			enum lro_flush_reason why);
};

/* IP header and extension headers: what precedes the TCP header */
static inline unsigned int lro_seg_nhlen(const struct lro_seg *seg)
{
	return (u8 *)seg->tcph - (u8 *)seg->iph;
}

/*
 * The segment's length as its IP header gives it (IPv4 total length, or
 * the IPv6 header and payload length), and its TCP payload: both modes'
 * parsers end here once @seg's headers are found.
 */
static inline int lro_seg_set_payload(struct lro_seg *seg)
{
	unsigned int hdrs = lro_seg_nhlen(seg) + seg->tcph->doff * 4;

	if (seg->ipv6)
		seg->tot_len = sizeof(struct ipv6hdr) +
			       ntohs(seg->ip6h->payload_len);
	else
		seg->tot_len = ntohs(seg->iph->tot_len);
	if (seg->tot_len < hdrs)
		return -EINVAL;
	seg->payload = seg->tot_len - hdrs;
	return 0;
}

/*
 * What a receive brings besides its headers: an skb (skb mode), or a frame
 * in page fragments (page mode), for which an skb is built only when the
 * frame starts a packet or is passed up.
 */
struct lro_frame {
	struct sk_buff *skb;
	skb_frag_t *frags;	/* page mode only, from here on */
	int len;		/* frame length, MAC header included */
	int true_size;
	int hlen;		/* MAC, IP and TCP headers */
	__wsum sum;		/* CHECKSUM_COMPLETE sum from the IP header on */
	u8 summed;		/* ip_summed of the skb built for it */
};

/* Zero-initialised managers are valid: the list head is set up lazily. */
static inline void lro_mgr_ready(struct net_lro_mgr *mgr)
{
	if (unlikely(!mgr->active.next))
		INIT_LIST_HEAD(&mgr->active);
}

#endif /* _LRO_SEG_H */
