// SPDX-License-Identifier: GPL-2.0
/*
 * The LRO engine: TCP segments over IPv4 or IPv6 in, GSO packets out.
 *
 * Each active descriptor holds one packet under construction for one flow.
 * A segment that continues the flow exactly (next sequence number, same
 * IP/TCP header fields, same options, no more payload than the first
 * segment) joins it; anything else sends the held packet up first, so the
 * stack always sees a flow's bytes in order. The rules are GRO's, in
 * rules.h. Finished packets look like what tcp4/6_gro_complete() produce:
 * CHECKSUM_PARTIAL over a pseudo-header sum, gso_size/gso_segs/gso_type
 * set, so forwarding re-segments them (flush.c).
 *
 * Both driver APIs end in one receive core, lro_receive(), as
 * napi_gro_receive() and napi_gro_frags() both end in dev_gro_receive():
 * skb mode (here) and page mode (frags.c) only parse their input, verify
 * its checksum, attach it to a held packet and start one their own way.
 *
 * Flows are found through a hash whose chains are threaded through the
 * driver's descriptor array itself (desc.c: struct net_lro_desc, @bucket and
 * @hash_next), so lookup is O(1) in max_desc and the 2007 contract (the
 * driver provides a zeroed array, nothing else) still holds.
 *
 * A manager is used from one context at a time (a NAPI poll, or one CPU
 * with bottom halves disabled): nothing here takes a lock.
 */

#include <linux/if_vlan.h>
#include <linux/skbuff_ref.h>
#include <net/checksum.h>
#include <net/ip6_checksum.h>

#include "desc.h"
#include "engine.h"
#include "flush.h"
#include "frags.h"
#include "rules.h"

void lro_init_desc(struct net_lro_mgr *mgr, struct net_lro_desc *d,
		   struct sk_buff *skb, const struct lro_seg *seg)
{
	const struct tcphdr *th = seg->tcph;

	d->parent = skb;
	d->last_skb = NULL;
	d->iph = seg->iph;
	d->tcph = seg->tcph;
	d->start_ns = ktime_get_ns();
	d->tcp_next_seq = ntohl(th->seq) + seg->payload;
	d->tcp_ack = ntohl(th->ack_seq);
	d->tcp_window = th->window;
	if (th->doff == TCPH_LEN_W_TIMESTAMP) {
		const __be32 *opt = (const __be32 *)(th + 1);

		d->tcp_saw_tstamp = 1;
		d->tcp_rcv_tsval = opt[1];
		d->tcp_rcv_tsecr = opt[2];
	}
	d->hash = seg->hash;
	d->ifindex = seg->ifindex;
	d->vlan_tag = seg->vlan_tag;
	d->vlan_packet = !!seg->vlan_tag;
	d->ipv6 = seg->ipv6;
	d->ip_tot_len = seg->ip_len;
	if (!seg->ipv6)
		d->ip_id = ntohs(seg->iph->id);
	d->mss = seg->payload;
	d->max_aggr = seg->max_aggr;
	d->hold_us = seg->hold_us;
	d->pkt_aggr_cnt = 1;
	d->active = 1;

	lro_hash_desc(mgr, d);
	mgr->stats.aggregated++;
	mgr->stats.held++;
	mgr->stats.held_bytes += skb->truesize;
}

/*
 * Fold a sum over the TCP header and payload (@tcplen bytes) with @seg's
 * pseudo-header: 0 when the TCP checksum is right.
 */
__sum16 lro_tcp_csum(const struct lro_seg *seg, unsigned int tcplen,
		     __wsum csum)
{
	if (seg->ipv6)
		return csum_ipv6_magic(&seg->ip6h->saddr, &seg->ip6h->daddr,
				       tcplen, IPPROTO_TCP, csum);
	return csum_tcpudp_magic(seg->iph->saddr, seg->iph->daddr, tcplen,
				 IPPROTO_TCP, csum);
}

/* Verify the TCP checksum of a segment the hardware did not vouch for. */
static bool lro_skb_csum_ok(struct sk_buff *skb, const struct lro_seg *seg)
{
	unsigned int thoff = (u8 *)seg->tcph - skb->data;
	unsigned int tcplen = seg->ip_len - lro_seg_nhlen(seg);
	__wsum csum;

	switch (skb->ip_summed) {
	case CHECKSUM_UNNECESSARY:
	case CHECKSUM_PARTIAL:	/* locally generated: never on a wire */
		return true;
	case CHECKSUM_COMPLETE:
		csum = csum_sub(skb->csum, csum_partial(skb->data, thoff, 0));
		break;
	default:
		csum = skb_checksum(skb, thoff, tcplen, 0);
		break;
	}
	if (lro_tcp_csum(seg, tcplen, csum))
		return false;
	/* Verified once; the stack need not do it again if it passes alone. */
	skb->ip_summed = CHECKSUM_UNNECESSARY;
	return true;
}

/*
 * Whatever its headers say, an skb that is not a plain received segment is
 * passed: a GSO packet; a zerocopy one (its sender's completion would wait
 * for the reader, not for us: GRO refuses them too); one that already has
 * a frag_list (ours would replace it, and its bytes would come after ours);
 * a pfmemalloc one (held and sent up again, it would leave the memory
 * reserve's rules in __netif_receive_skb() behind); one whose fragments
 * the CPU cannot read (device memory TCP), which no readable aggregate
 * may take (skb_try_coalesce()).
 */
static bool lro_skb_plain(struct sk_buff *skb)
{
	return !skb_is_gso(skb) && !skb_zcopy(skb) &&
	       !skb_has_frag_list(skb) && !skb_pfmemalloc(skb) &&
	       skb_frags_readable(skb);
}

/* Pull an IPv4 header at @off; the TCP header's offset, or -EINVAL. */
static int lro_pull_ip4(struct sk_buff *skb, unsigned int off)
{
	const struct iphdr *iph;

	if (!pskb_may_pull(skb, off + sizeof(*iph)))
		return -EINVAL;
	iph = (const struct iphdr *)(skb->data + off);
	if (iph->version != 4 || iph->protocol != IPPROTO_TCP || iph->ihl < 5)
		return -EINVAL;
	return off + iph->ihl * 4;
}

/* The extension headers ipv6_gro_pull_exthdrs() walks to reach TCP: those
 * whose offload is flagged INET6_PROTO_GSO_EXTHDR (exthdrs_offload.c).
 */
static bool lro_ip6_exthdr(u8 nexthdr)
{
	return nexthdr == NEXTHDR_HOP || nexthdr == NEXTHDR_ROUTING ||
	       nexthdr == NEXTHDR_DEST;
}

/* Pull an IPv6 header at @off and the extension headers GRO would walk
 * over; the TCP header's offset, or -EINVAL. Each header is 8 bytes at
 * least and must be in the skb, so the walk ends.
 */
static int lro_pull_ip6(struct sk_buff *skb, unsigned int off)
{
	unsigned int thoff = off + sizeof(struct ipv6hdr);
	const struct ipv6_opt_hdr *oh;
	u8 nexthdr;

	if (!pskb_may_pull(skb, thoff) ||
	    ((const struct ipv6hdr *)(skb->data + off))->version != 6)
		return -EINVAL;
	nexthdr = ((const struct ipv6hdr *)(skb->data + off))->nexthdr;
	while (lro_ip6_exthdr(nexthdr)) {
		if (!pskb_may_pull(skb, thoff + sizeof(*oh)))
			return -EINVAL;
		oh = (const struct ipv6_opt_hdr *)(skb->data + thoff);
		nexthdr = oh->nexthdr;
		thoff += ipv6_optlen(oh);
	}
	return nexthdr == IPPROTO_TCP ? thoff : -EINVAL;
}

/*
 * Headers a driver's get_skb_header()/get_frag_header() located: between
 * an IPv6 header and TCP, only the extension headers lro_pull_ip6() walks,
 * chained to TCP, ending where the TCP header starts.
 */
bool lro_ip6_chain_ok(const struct lro_seg *seg)
{
	const u8 *p = (const u8 *)(seg->ip6h + 1), *th = (const u8 *)seg->tcph;
	u8 nexthdr = seg->ip6h->nexthdr;

	while (p < th && lro_ip6_exthdr(nexthdr)) {
		const struct ipv6_opt_hdr *oh = (const void *)p;

		if (th - p < 8)
			return false;
		nexthdr = oh->nexthdr;
		p += ipv6_optlen(oh);
	}
	return p == th && nexthdr == IPPROTO_TCP;
}

/* The network protocol of an skb and its offset: an in-band 802.1Q tag is
 * part of the flow key and skipped. With LRO_F_EXTRACT_VLAN_ID, the driver
 * took the tag but left the protocol 802.1Q: the IP version says which
 * (and becomes the protocol of a packet LRO holds: lro_skb_start()).
 *
 * An in-band tag behind one already taken out (by the driver, or by
 * __netif_receive_skb_core() before any rx_handler) is a double-tagged
 * frame, passed: the key has room for one tag, and keyed by the inner one
 * the frame joined another VLAN's packet (inner VID 0: the untagged flow
 * of the same addresses and ports), its payload going up as that flow's,
 * or took that flow's segments into its own VLAN, where they were dropped.
 */
static __be16 lro_skb_proto(struct net_lro_mgr *mgr, struct sk_buff *skb,
			    struct lro_seg *seg, unsigned int *off)
{
	const struct vlan_hdr *vh;
	__be16 proto = skb->protocol;

	if (proto != htons(ETH_P_8021Q))
		return proto;
	if (mgr->features & LRO_F_EXTRACT_VLAN_ID) {
		if (!pskb_may_pull(skb, 1))
			return 0;
		return (skb->data[0] >> 4) == 6 ? htons(ETH_P_IPV6) :
						  htons(ETH_P_IP);
	}
	if (skb_vlan_tag_present(skb) || !pskb_may_pull(skb, VLAN_HLEN))
		return 0;
	vh = (const struct vlan_hdr *)skb->data;
	seg->vlan_tag = ntohs(vh->h_vlan_TCI) & VLAN_VID_MASK;
	*off = VLAN_HLEN;
	return vh->h_vlan_encapsulated_proto;
}

/* Find the IP/TCP headers of an skb whose data starts at the network
 * header (or at an in-band 802.1Q tag): the default get_skb_header().
 */
static int lro_parse_skb(struct net_lro_mgr *mgr, struct sk_buff *skb,
			 struct lro_seg *seg, void *priv)
{
	unsigned int off = 0;
	int thoff, doff;
	__be16 proto;
	u64 flags;

	if (mgr->get_skb_header) {
		void *ip, *tcp;

		if (mgr->get_skb_header(skb, &ip, &tcp, &flags, priv) ||
		    !(flags & LRO_TCP) || !(flags & (LRO_IPV4 | LRO_IPV6)))
			return -EINVAL;
		seg->ipv6 = !!(flags & LRO_IPV6);
		seg->iph = ip;
		seg->tcph = tcp;
		off = (u8 *)ip - skb->data;
		thoff = (u8 *)tcp - skb->data;
		if (thoff + sizeof(struct tcphdr) > skb_headlen(skb) ||
		    thoff + seg->tcph->doff * 4 > skb_headlen(skb) ||
		    (seg->ipv6 && !lro_ip6_chain_ok(seg)))
			return -EINVAL;
		goto lengths;
	}

	proto = lro_skb_proto(mgr, skb, seg, &off);
	if (skb->pkt_type != PACKET_HOST)
		return -EINVAL;
	if (proto == htons(ETH_P_IP))
		thoff = lro_pull_ip4(skb, off);
	else if (proto == htons(ETH_P_IPV6))
		thoff = lro_pull_ip6(skb, off);
	else
		return -EINVAL;
	if (thoff < 0 || !pskb_may_pull(skb, thoff + sizeof(struct tcphdr)))
		return -EINVAL;
	doff = ((const struct tcphdr *)(skb->data + thoff))->doff * 4;
	if (doff < sizeof(struct tcphdr) || !pskb_may_pull(skb, thoff + doff))
		return -EINVAL;
	/* pskb_may_pull() may have moved the data */
	seg->ipv6 = proto == htons(ETH_P_IPV6);
	seg->iph = (struct iphdr *)(skb->data + off);
	seg->tcph = (struct tcphdr *)(skb->data + thoff);
lengths:
	seg->ip_len = skb->len - off;
	return lro_seg_set_payload(seg);
}

/*
 * Where the payload of a joining segment goes, as in skb_gro_receive(): into
 * the page fragments of the packet's last skb (the head, or the last skb on
 * its frag_list once the head's frags[] are full), so that the packet is a
 * few pages with one header, as cheap for TCP to queue as GRO's; chained on
 * the frag_list as a whole skb only when that cannot be done.
 */

/* Can fragments of @skb be added to @tail? Not into a clone's frags[]
 * (not ours to write), and page pool fragments only into a page pool skb
 * and others only into others (skb_gro_receive()). Zerocopy skbs never get
 * here (lro_skb_plain()).
 */
static bool lro_can_fill(const struct sk_buff *tail,
			 const struct sk_buff *skb)
{
	return !skb_cloned(tail) && tail->pp_recycle == skb->pp_recycle;
}

/*
 * Free a merged segment's skb, its payload now the aggregate's. LRO runs
 * in a softirq or with BHs disabled (the rx_handler, a driver's NAPI poll),
 * the context napi_consume_skb() needs: the sk_buff goes back to this
 * CPU's NAPI cache, as GRO's merged ones do (napi_skb_finish()), instead of
 * to the slab one by one. A clone (fclone) is freed as consume_skb() would.
 */
static void lro_consume(struct sk_buff *skb)
{
	/* in_softirq() alone is also true in a hard IRQ that interrupted a
	 * softirq, where the cache's owner may be half way through it.
	 */
	napi_consume_skb(skb, in_softirq() && !in_hardirq() && !in_nmi());
}

/*
 * Payload all in frags[]: move them to @tinfo. A clone's fragments belong to
 * its shared skb_shared_info, so take a page reference of our own instead,
 * as skb_try_coalesce() does (not for page pool pages: the core's
 * skb_pp_frag_ref() is not for modules, so such clones are chained).
 * Returns the truesize that moves with them.
 */
static unsigned int lro_take_frags(struct skb_shared_info *tinfo,
				   struct sk_buff *skb)
{
	struct skb_shared_info *sinfo = skb_shinfo(skb);
	unsigned int i, n = sinfo->nr_frags;

	memcpy(tinfo->frags + tinfo->nr_frags, sinfo->frags,
	       n * sizeof(skb_frag_t));
	tinfo->nr_frags += n;
	tinfo->flags |= sinfo->flags & SKBFL_SHARED_FRAG;
	if (skb_cloned(skb)) {
		for (i = 0; i < n; i++)
			__skb_frag_ref(&sinfo->frags[i]);
	} else {
		sinfo->nr_frags = 0;
		skb->len -= skb->data_len;
		skb->data_len = 0;
	}
	return skb->truesize - SKB_TRUESIZE(skb_end_offset(skb));
}

/*
 * Payload starting in a page-backed linear area (build_skb()): the head
 * becomes a fragment, followed by the skb's own frags[], and only the
 * struct sk_buff is left to free (skb_gro_receive()'s head_frag case).
 */
static unsigned int lro_steal_head(struct skb_shared_info *tinfo,
				   struct sk_buff *skb, unsigned int hdrlen)
{
	struct skb_shared_info *sinfo = skb_shinfo(skb);
	struct page *page = virt_to_head_page(skb->head);
	skb_frag_t *frag = tinfo->frags + tinfo->nr_frags;

	skb_frag_fill_page_desc(frag, page,
				skb->data + hdrlen - (u8 *)page_address(page),
				skb_headlen(skb) - hdrlen);
	memcpy(frag + 1, sinfo->frags, sinfo->nr_frags * sizeof(skb_frag_t));
	tinfo->nr_frags += 1 + sinfo->nr_frags;
	tinfo->flags |= sinfo->flags & SKBFL_SHARED_FRAG;
	return skb->truesize - SKB_DATA_ALIGN(sizeof(struct sk_buff));
}

/* Attach @skb's payload to @d's packet, whose length is booked already. */
static void lro_attach_skb(struct net_lro_desc *d, struct sk_buff *skb,
			   const struct lro_seg *seg)
{
	struct sk_buff *parent = d->parent, *tail = d->last_skb ?: parent;
	struct skb_shared_info *tinfo = skb_shinfo(tail);
	unsigned int nr = skb_shinfo(skb)->nr_frags;
	unsigned int hdrlen = skb->len - seg->payload;
	unsigned int delta;

	/* Pages the sender may still change (splice): the aggregate must say
	 * so, whatever skb of it takes them (skb_gro_receive()).
	 */
	skb_shinfo(parent)->flags |= skb_shinfo(skb)->flags & SKBFL_SHARED_FRAG;
	if (!lro_can_fill(tail, skb))
		goto chain;
	if (skb_headlen(skb) == hdrlen) {
		if (tinfo->nr_frags + nr > MAX_SKB_FRAGS ||
		    (skb_cloned(skb) && skb->pp_recycle))
			goto chain;
		delta = lro_take_frags(tinfo, skb);
		lro_consume(skb);
	} else {
		if (skb_head_is_locked(skb) ||
		    tinfo->nr_frags + 1 + nr > MAX_SKB_FRAGS)
			goto chain;
		delta = lro_steal_head(tinfo, skb, hdrlen);
		kfree_skb_partial(skb, true);
	}
	parent->truesize += delta;
	if (tail != parent) {
		tail->len += seg->payload;
		tail->data_len += seg->payload;
		tail->truesize += delta;
	}
	return;

chain:
	/* The skb itself, its headers pulled: the frags of the segments
	 * that follow go into its frags[] if they can.
	 */
	__skb_pull(skb, hdrlen);
	parent->truesize += skb->truesize;
	skb->next = NULL;
	if (d->last_skb)
		d->last_skb->next = skb;
	else
		skb_shinfo(parent)->frag_list = skb;
	d->last_skb = skb;
}

/* A free descriptor, or, with LRO_F_EVICT, the oldest one flushed. */
struct net_lro_desc *lro_get_desc(struct net_lro_mgr *mgr)
{
	struct net_lro_desc *d = lro_new_desc(mgr);

	if (likely(d))
		return d;
	mgr->stats.no_desc++;
	if (!(mgr->features & LRO_F_EVICT) || !mgr->nr_active)
		return NULL;
	lro_flush(mgr, list_first_entry(&mgr->active, struct net_lro_desc,
					node), LRO_FLUSH_EVICT);
	return lro_new_desc(mgr);
}

/* Start a descriptor with @skb, or refuse (LRO_PASS). */
static enum lro_verdict lro_skb_start(struct net_lro_mgr *mgr,
				      struct sk_buff *skb, struct lro_seg *seg)
{
	unsigned int nhoff = (u8 *)seg->iph - skb->data;
	unsigned int thoff = (u8 *)seg->tcph - skb->data;
	struct net_lro_desc *d;

	/* We rewrite the headers at flush: they must be ours alone. */
	if (skb_unclone(skb, GFP_ATOMIC))
		return LRO_PASS;
	seg->iph = (struct iphdr *)(skb->data + nhoff);
	seg->tcph = (struct tcphdr *)(skb->data + thoff);
	d = lro_get_desc(mgr);
	if (!d)
		return LRO_PASS;
	lro_init_desc(mgr, d, skb, seg);
	skb_set_network_header(skb, nhoff);
	skb_set_transport_header(skb, thoff);
	/* What LRO sends up is IP, whatever tag the driver left in front */
	if (skb->protocol == htons(ETH_P_8021Q) && !nhoff)
		skb->protocol = seg->ipv6 ? htons(ETH_P_IPV6) : htons(ETH_P_IP);
	return LRO_HELD;
}

/* skb mode's checks beyond the headers; the skb is then LRO's to take. */
static bool lro_skb_takeable(struct sk_buff *skb, const struct lro_seg *seg)
{
	if (!lro_skb_plain(skb) || !lro_skb_csum_ok(skb, seg))
		return false;
	/* The socket of a local sender (veth keeps skb->sk up to IP) must
	 * not have its write memory charged for what the aggregate grows to.
	 */
	skb_orphan(skb);
	return true;
}

/*
 * What a remote sender makes LRO hold is bounded by memory, not only by
 * max_desc x max_aggr segments (1-byte segments of 65536 flows would be
 * millions of skbs, orphaned: no socket pays for them). Past
 * max_held_bytes of truesize, the oldest packets go up (flush.c). GRO
 * bounds what it holds by count instead (gro_flush_oldest()).
 */
static __always_inline void lro_held_check(struct net_lro_mgr *mgr)
{
	if (unlikely(mgr->max_held_bytes &&
		     mgr->stats.held_bytes > mgr->max_held_bytes))
		lro_flush_mem(mgr);
}

/*
 * The receive core of both modes. Find @seg's flow; a segment that cannot
 * be aggregated sends the flow's held packet up and is passed after it; one
 * that joins is attached; otherwise the held packet (if any) goes up and
 * the segment starts a new one. Returns LRO_HELD when the frame is LRO's
 * (held, sent up, or dropped for lack of memory), LRO_PASS when the caller
 * must send it up. Only the checksum, the attaching and the starting differ
 * by mode: each mode's entry gets a copy of this, @pages a constant.
 */
static __always_inline enum lro_verdict lro_receive(struct net_lro_mgr *mgr,
						    struct lro_seg *seg,
						    struct lro_frame *f,
						    const bool pages)
{
	struct net_lro_desc *d = lro_find_desc(mgr, seg);
	unsigned int truesize;
	int why;

	if (!lro_seg_eligible(seg) ||
	    !(pages ? lro_frags_csum_ok(mgr, f, seg) :
		      lro_skb_takeable(f->skb, seg))) {
		if (d)
			lro_flush(mgr, d, LRO_FLUSH_FLAGS);
		return LRO_PASS;
	}
	if (d) {
		why = lro_join_check(mgr, d, seg);
		if (why == LRO_JOIN && pages && !lro_frags_fit(d, f))
			why = LRO_FLUSH_SIZE;
		if (why == LRO_JOIN) {
			why = lro_join_account(mgr, d, seg);
			truesize = d->parent->truesize;
			if (pages)
				lro_frags_attach(d, f);
			else
				lro_attach_skb(d, f->skb, seg);
			mgr->stats.held_bytes += d->parent->truesize - truesize;
			if (why != LRO_JOIN)
				lro_flush(mgr, d, why);
			goto held;
		}
		lro_flush(mgr, d, why);
	}
	/* A lone PSH segment, or max_aggr 1: nothing would join it. */
	if (seg->tcph->psh || mgr->max_aggr < 2)
		return LRO_PASS;
	/* Once per packet, not per segment: the wrapper's say (its hold, a
	 * BPF policy), as TCP asks its congestion control.
	 */
	seg->max_aggr = mgr->max_aggr;
	seg->hold_us = 0;
	if (mgr->ops && !mgr->ops->start(mgr, seg))
		return LRO_PASS;
	if ((pages ? lro_frags_start(mgr, f, seg) :
		     lro_skb_start(mgr, f->skb, seg)) == LRO_PASS)
		return LRO_PASS;
held:
	lro_held_check(mgr);
	return LRO_HELD;
}

/* lro_receive() for page mode (frags.c) */
enum lro_verdict lro_receive_frame(struct net_lro_mgr *mgr,
				   struct lro_seg *seg, struct lro_frame *f)
{
	return lro_receive(mgr, seg, f, true);
}

/**
 * lro_rx_skb - offer one received skb to LRO
 * @mgr: LRO manager
 * @skb: the skb; data starts at the network header (or an 802.1Q tag)
 * @priv: passed to @mgr->get_skb_header
 *
 * Return: LRO_HELD if LRO took the skb (it is held, or was sent up), or
 * LRO_PASS if the caller must deliver it. Before LRO_PASS, a packet held
 * for the same flow has been sent up, so the flow stays in order.
 */
enum lro_verdict lro_rx_skb(struct net_lro_mgr *mgr, struct sk_buff *skb,
			    void *priv)
{
	struct lro_seg seg = { .ifindex = skb->skb_iif ?: skb->dev->ifindex };
	struct lro_frame f = { .skb = skb };

	lro_mgr_ready(mgr);
	mgr->stats.pkts_in++;
	mgr->stats.bytes_in += skb->len;
	if (unlikely(!lro_has_descs(mgr)))
		goto pass;
	if (skb_vlan_tag_present(skb))
		seg.vlan_tag = skb_vlan_tag_get_id(skb);
	if (lro_parse_skb(mgr, skb, &seg, priv))
		goto pass;
	if (lro_receive(mgr, &seg, &f, false) == LRO_HELD)
		return LRO_HELD;
pass:
	mgr->stats.pkts_out++;
	mgr->stats.bytes_out += skb->len;
	return LRO_PASS;
}
