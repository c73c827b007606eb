// SPDX-License-Identifier: GPL-2.0
/*
 * The LRO engine: TCP/IPv4 segments in, GSO packets out.
 *
 * Each active descriptor holds one packet under construction for one flow.
 * A segment that continues the flow exactly (next sequence number, same
 * IP/TCP header fields, same options, no more payload than the first
 * segment) joins it; anything else sends the held packet up first, so the
 * stack always sees a flow's bytes in order. Finished packets look like what
 * tcp_gro_complete() produces: CHECKSUM_PARTIAL over a pseudo-header sum,
 * gso_size/gso_segs/gso_type set, so forwarding re-segments them (flush.c).
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
#include <net/ip.h>
#include <net/tcp.h>

#include "engine.h"

#define TCPH_LEN_WO_OPTIONS	5
#define TCPH_LEN_W_TIMESTAMP	8
#define LRO_TS_OPT_WORD	htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) | \
			      (TCPOPT_TIMESTAMP << 8) | TCPOLEN_TIMESTAMP)

static bool lro_ip_csum_ok(const struct iphdr *iph)
{
	return !ip_fast_csum((const u8 *)iph, iph->ihl);
}

/*
 * lro_seg_eligible(), lro_join_check() and lro_join_account() are on every
 * segment's path: inlined into lro_rx_skb() (calling them cost 38 of the
 * micro-benchmark's 1056 instructions per segment), and also out of line
 * for page mode (frags.c).
 */

/* Checks of one segment on its own: could it be aggregated at all? */
__always_inline bool lro_seg_eligible(const struct lro_seg *seg)
{
	const struct iphdr *iph = seg->iph;
	const struct tcphdr *th = seg->tcph;
	const __be32 *opt;

	if (iph->ihl != 5 || ntohs(iph->tot_len) != seg->ip_len)
		return false;	/* IP options, or padded/truncated frame */
	if (iph->frag_off & htons(IP_MF | IP_OFFSET))
		return false;
	if (INET_ECN_is_ce(ipv4_get_dsfield(iph)))
		return false;
	if (!seg->payload)
		return false;	/* pure ACKs never merge */
	if (th->cwr || th->ece || th->urg || !th->ack || th->rst ||
	    th->syn || th->fin)
		return false;
	if (th->doff == TCPH_LEN_WO_OPTIONS)
		return lro_ip_csum_ok(iph);
	if (th->doff != TCPH_LEN_W_TIMESTAMP)
		return false;
	opt = (const __be32 *)(th + 1);
	if (opt[0] != LRO_TS_OPT_WORD || !opt[2])
		return false;	/* only NOP,NOP,TS, and TSecr != 0 */
	return lro_ip_csum_ok(iph);
}

/* The options of two TCP headers of one length (the flag word matched),
 * a word at a time as in tcp_gro_receive(): memcmp() is a byte loop on x86.
 */
static bool lro_opts_differ(const struct tcphdr *th, const struct tcphdr *th0)
{
	const u32 *a = (const u32 *)(th + 1), *b = (const u32 *)(th0 + 1);
	unsigned int i, words = th->doff - TCPH_LEN_WO_OPTIONS;
	u32 diff = 0;

	for (i = 0; i < words; i++)
		diff |= a[i] ^ b[i];
	return diff;
}

/*
 * Can @seg join @d? Returns LRO_JOIN, or why @d must be flushed first.
 * Following GRO: IP fields other than length, ID and checksum must match,
 * the ID must increment (or stay fixed, DF set); the TCP flag word (flags
 * and window) must match but for PSH, the ACK and all options must be
 * byte-identical, and a segment may not be longer than the first.
 */
__always_inline int lro_join_check(const struct net_lro_mgr *mgr,
				   const struct net_lro_desc *d,
				   const struct lro_seg *seg)
{
	const struct iphdr *iph = seg->iph, *iph0 = d->iph;
	const struct tcphdr *th = seg->tcph, *th0 = d->tcph;
	u16 id_delta = ntohs(iph->id) - d->ip_id;
	bool fixedid;

	if (ntohl(th->seq) != d->tcp_next_seq)
		return LRO_FLUSH_SEQ;
	if (iph->ttl != iph0->ttl || iph->tos != iph0->tos ||
	    ((iph->frag_off ^ iph0->frag_off) & htons(IP_DF)))
		return LRO_FLUSH_FLAGS;
	/* The second segment decides: incrementing ID, or fixed under DF
	 * (recorded by lro_join_account()).
	 */
	fixedid = d->pkt_aggr_cnt == 1 ?
		  !id_delta && !!(iph->frag_off & htons(IP_DF)) : d->ip_fixedid;
	if (id_delta != (fixedid ? 0 : d->pkt_aggr_cnt))
		return LRO_FLUSH_FLAGS;
	if ((tcp_flag_word(th) ^ tcp_flag_word(th0)) & ~TCP_FLAG_PSH)
		return LRO_FLUSH_FLAGS;
	if (th->ack_seq != th0->ack_seq)
		return LRO_FLUSH_FLAGS;
	if (lro_opts_differ(th, th0))
		return LRO_FLUSH_FLAGS;
	if (seg->payload > d->mss)
		return LRO_FLUSH_FLAGS;
	if (d->ip_tot_len + seg->payload > IP_MAX_MTU)
		return LRO_FLUSH_SIZE;
	if (d->pkt_aggr_cnt >= mgr->max_aggr)
		return LRO_FLUSH_MAX_AGGR;
	return LRO_JOIN;
}

/*
 * Book @seg into @d, before its bytes are attached to the parent (which may
 * free the segment's headers). Returns LRO_JOIN while the packet can grow,
 * or why it is complete and must be flushed once the bytes are attached.
 */
__always_inline int lro_join_account(struct net_lro_mgr *mgr,
				     struct net_lro_desc *d,
				     const struct lro_seg *seg)
{
	struct sk_buff *parent = d->parent;

	if (d->pkt_aggr_cnt == 1)
		d->ip_fixedid = ntohs(seg->iph->id) == d->ip_id;
	d->pkt_aggr_cnt++;
	mgr->stats.held++;
	d->ip_tot_len += seg->payload;
	d->tcp_next_seq += seg->payload;
	parent->len += seg->payload;
	parent->data_len += seg->payload;
	mgr->stats.aggregated++;

	if (seg->tcph->psh) {
		d->tcph->psh = 1;
		return LRO_FLUSH_PUSH;
	}
	if (seg->payload < d->mss)
		return LRO_FLUSH_PUSH;
	if (d->pkt_aggr_cnt >= mgr->max_aggr)
		return LRO_FLUSH_MAX_AGGR;
	if (d->ip_tot_len + d->mss > IP_MAX_MTU)
		return LRO_FLUSH_SIZE;
	return LRO_JOIN;
}

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
	d->ip_tot_len = seg->ip_len;
	d->ip_id = ntohs(seg->iph->id);
	d->mss = seg->payload;
	d->pkt_aggr_cnt = 1;
	d->active = 1;

	lro_hash_desc(mgr, d);
	mgr->stats.aggregated++;
	mgr->stats.held++;
}

/* Verify the TCP checksum of a segment the hardware did not vouch for. */
static bool lro_skb_csum_ok(struct sk_buff *skb, const struct lro_seg *seg)
{
	unsigned int thoff = (u8 *)seg->tcph - skb->data;
	unsigned int tcplen = seg->ip_len - seg->iph->ihl * 4;
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
	if (csum_fold(csum_tcpudp_nofold(seg->iph->saddr, seg->iph->daddr,
					 tcplen, IPPROTO_TCP, csum)))
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

/* Find the IPv4/TCP headers of an skb whose data starts at the network
 * header (or at an in-band 802.1Q tag): the default get_skb_header().
 */
static int lro_parse_skb(struct net_lro_mgr *mgr, struct sk_buff *skb,
			 struct lro_seg *seg, void *priv)
{
	unsigned int off = 0, thoff, doff;
	const struct iphdr *iph;
	__be16 proto = skb->protocol;
	u64 flags;

	if (mgr->get_skb_header) {
		void *ip, *tcp;

		if (mgr->get_skb_header(skb, &ip, &tcp, &flags, priv) ||
		    (flags & (LRO_IPV4 | LRO_TCP)) != (LRO_IPV4 | LRO_TCP))
			return -EINVAL;
		seg->iph = ip;
		seg->tcph = tcp;
		off = (u8 *)ip - skb->data;
		thoff = (u8 *)tcp - skb->data;
		if (thoff + sizeof(struct tcphdr) > skb_headlen(skb) ||
		    thoff + seg->tcph->doff * 4 > skb_headlen(skb))
			return -EINVAL;
		goto lengths;
	}

	if (proto == htons(ETH_P_8021Q) &&
	    !(mgr->features & LRO_F_EXTRACT_VLAN_ID)) {
		const struct vlan_hdr *vh;

		if (!pskb_may_pull(skb, VLAN_HLEN))
			return -EINVAL;
		vh = (const struct vlan_hdr *)skb->data;
		seg->vlan_tag = ntohs(vh->h_vlan_TCI) & VLAN_VID_MASK;
		proto = vh->h_vlan_encapsulated_proto;
		off = VLAN_HLEN;
	} else if (proto == htons(ETH_P_8021Q)) {
		proto = htons(ETH_P_IP);
	}
	if (proto != htons(ETH_P_IP) || skb->pkt_type != PACKET_HOST ||
	    !pskb_may_pull(skb, off + sizeof(struct iphdr)))
		return -EINVAL;
	iph = (const struct iphdr *)(skb->data + off);
	if (iph->version != 4 || iph->protocol != IPPROTO_TCP || iph->ihl < 5)
		return -EINVAL;
	thoff = off + iph->ihl * 4;
	if (!pskb_may_pull(skb, thoff + sizeof(struct tcphdr)))
		return -EINVAL;
	doff = ((const struct tcphdr *)(skb->data + thoff))->doff * 4;
	if (doff < sizeof(struct tcphdr) || !pskb_may_pull(skb, thoff + doff))
		return -EINVAL;
	/* pskb_may_pull() may have moved the data */
	seg->iph = (struct iphdr *)(skb->data + off);
	seg->tcph = (struct tcphdr *)(skb->data + thoff);
lengths:
	seg->ip_len = skb->len - off;
	if (ntohs(seg->iph->tot_len) < seg->iph->ihl * 4 + seg->tcph->doff * 4)
		return -EINVAL;
	seg->payload = ntohs(seg->iph->tot_len) - seg->iph->ihl * 4 -
		       seg->tcph->doff * 4;
	return 0;
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

/* A flow needs a new descriptor and none is free. */
struct net_lro_desc *lro_desc_busy(struct net_lro_mgr *mgr)
{
	mgr->stats.no_desc++;
	if (!(mgr->features & LRO_F_EVICT) || !mgr->nr_active)
		return NULL;
	lro_flush(mgr, list_first_entry(&mgr->active, struct net_lro_desc,
					node), LRO_FLUSH_EVICT);
	return lro_new_desc(mgr);
}

/* Start a descriptor with @skb, or refuse (LRO_PASS). */
static enum lro_verdict lro_start(struct net_lro_mgr *mgr, struct sk_buff *skb,
				  struct lro_seg *seg)
{
	unsigned int nhoff = (u8 *)seg->iph - skb->data;
	unsigned int thoff = (u8 *)seg->tcph - skb->data;
	struct net_lro_desc *d;

	/* A lone PSH segment, or max_aggr 1: nothing would join it. */
	if (seg->tcph->psh || mgr->max_aggr < 2)
		return LRO_PASS;
	/* We rewrite the headers at flush: they must be ours alone. */
	if (skb_unclone(skb, GFP_ATOMIC))
		return LRO_PASS;
	seg->iph = (struct iphdr *)(skb->data + nhoff);
	seg->tcph = (struct tcphdr *)(skb->data + thoff);
	d = lro_new_desc(mgr);
	if (!d) {
		d = lro_desc_busy(mgr);
		if (!d)
			return LRO_PASS;
	}
	lro_init_desc(mgr, d, skb, seg);
	skb_set_network_header(skb, (u8 *)seg->iph - skb->data);
	skb_set_transport_header(skb, (u8 *)seg->tcph - skb->data);
	return LRO_HELD;
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
	struct net_lro_desc *d;
	int why;

	lro_mgr_ready(mgr);
	mgr->stats.pkts_in++;
	mgr->stats.bytes_in += skb->len;
	if (unlikely(mgr->max_desc <= 0 || !mgr->lro_arr))
		goto pass;
	if (skb_vlan_tag_present(skb))
		seg.vlan_tag = skb_vlan_tag_get_id(skb);
	if (lro_parse_skb(mgr, skb, &seg, priv))
		goto pass;

	d = lro_find_desc(mgr, &seg);
	if (!lro_skb_plain(skb) || !lro_seg_eligible(&seg) ||
	    !lro_skb_csum_ok(skb, &seg)) {
		if (d)
			lro_flush(mgr, d, LRO_FLUSH_FLAGS);
		goto pass;
	}
	/* The socket of a local sender (veth keeps skb->sk up to IP) must
	 * not have its write memory charged for what the aggregate grows to.
	 */
	skb_orphan(skb);
	if (!d)
		goto start;

	why = lro_join_check(mgr, d, &seg);
	if (why != LRO_JOIN) {
		lro_flush(mgr, d, why);
		goto start;
	}
	why = lro_join_account(mgr, d, &seg);
	lro_attach_skb(d, skb, &seg);
	if (why != LRO_JOIN)
		lro_flush(mgr, d, why);
	return LRO_HELD;

start:
	if (lro_start(mgr, skb, &seg) == LRO_HELD)
		return LRO_HELD;
pass:
	mgr->stats.pkts_out++;
	mgr->stats.bytes_out += skb->len;
	return LRO_PASS;
}
