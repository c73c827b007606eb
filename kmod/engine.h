/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's private header: shared between the receive core and skb
 * mode (engine.c), page mode (frags.c), the descriptor table (desc.c) and
 * flushing (flush.c), and the API of the engine for the module that wraps
 * it (lro.ko's rx_handler, rx.c). The engine sees nothing of that module:
 * only include/linux/inet_lro.h, and this header.
 */
#ifndef _LRO_ENGINE_H
#define _LRO_ENGINE_H

#include <linux/inet_lro.h>
#include <linux/ipv6.h>
#include <linux/jump_label.h>
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

/* engine.c: the receive core both modes end in */
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

/* frags.c: page mode's part of the core */
bool lro_frags_csum_ok(const struct net_lro_mgr *mgr, struct lro_frame *f,
		       const struct lro_seg *seg);
bool lro_frags_fit(const struct net_lro_desc *d, const struct lro_frame *f);
void lro_frags_attach(struct net_lro_desc *d, struct lro_frame *f);
enum lro_verdict lro_frags_start(struct net_lro_mgr *mgr, struct lro_frame *f,
				 struct lro_seg *seg);

/* desc.c */
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

/* flush.c: sending held packets up */
void lro_flush(struct net_lro_mgr *mgr, struct net_lro_desc *d,
	       enum lro_flush_reason why);
void lro_flush_all_reason(struct net_lro_mgr *mgr, enum lro_flush_reason why);
u64 lro_flush_due(struct net_lro_mgr *mgr, u64 now, bool in_order);
void lro_drop_all(struct net_lro_mgr *mgr);
void lro_send_up(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_flush_mem(struct net_lro_mgr *mgr);

/* lro_join_check() result: join, or flush the descriptor for this reason */
#define LRO_JOIN	(-1)

#endif /* _LRO_ENGINE_H */
