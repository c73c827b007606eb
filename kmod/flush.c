// SPDX-License-Identifier: GPL-2.0
/*
 * Sending held packets up: completing an aggregate as the GRO complete
 * callbacks do, delivering it, and the flushes of many descriptors at once (the
 * end of a batch, the hold timer, a device going away). Per packet, not
 * per segment: the engine (engine.c) calls lro_flush() when a packet is
 * done.
 */

#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/tcp.h>

#include "desc.h"
#include "flush.h"

/*
 * Make the held packet look like GRO's output: the IP header's length (and
 * IPv4's checksum) rewritten as inet_gro_complete()/ipv6_gro_complete() do,
 * the TCP checksum the pseudo-header sum for CHECKSUM_PARTIAL and the GSO
 * fields as tcp4_gro_complete()/tcp6_gro_complete() set them.
 */
static void lro_complete(struct net_lro_desc *d)
{
	struct sk_buff *skb = d->parent;
	struct skb_shared_info *shinfo = skb_shinfo(skb);
	struct tcphdr *th = d->tcph;
	unsigned int tcplen = d->ip_tot_len - ((u8 *)th - (u8 *)d->iph);

	if (d->ipv6) {
		struct ipv6hdr *ip6h = d->ip6h;

		ip6h->payload_len = htons(d->ip_tot_len - sizeof(*ip6h));
		th->check = ~tcp_v6_check(tcplen, &ip6h->saddr, &ip6h->daddr,
					  0);
		shinfo->gso_type = SKB_GSO_TCPV6;
	} else {
		struct iphdr *iph = d->iph;

		iph->tot_len = htons(d->ip_tot_len);
		iph->check = 0;
		iph->check = ip_fast_csum((u8 *)iph, iph->ihl);
		th->check = ~tcp_v4_check(tcplen, iph->saddr, iph->daddr, 0);
		shinfo->gso_type = SKB_GSO_TCPV4;
		if (d->ip_fixedid)
			shinfo->gso_type |= SKB_GSO_TCP_FIXEDID;
	}
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = (unsigned char *)th - skb->head;
	skb->csum_offset = offsetof(struct tcphdr, check);
	shinfo->gso_size = d->mss;
	shinfo->gso_segs = d->pkt_aggr_cnt;
}

/**
 * __lro_deliver - send one packet up the stack, without counting it
 * @mgr: LRO manager
 * @skb: packet, aggregated or not
 *
 * Through @mgr->deliver if set, else netif_receive_skb() under LRO_F_NAPI
 * and netif_rx() otherwise, as in 2007.
 */
void __lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	if (mgr->deliver)
		mgr->deliver(mgr, skb);
	else if (mgr->features & LRO_F_NAPI)
		netif_receive_skb(skb);
	else
		netif_rx(skb);
}

/* __lro_deliver(), counted in pkts_out/bytes_out */
void lro_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	mgr->stats.pkts_out++;
	mgr->stats.bytes_out += skb->len;
	__lro_deliver(mgr, skb);
}

void lro_flush(struct net_lro_mgr *mgr, struct net_lro_desc *d,
	       enum lro_flush_reason why)
{
	struct sk_buff *skb = d->parent;

	if (mgr->ops && mgr->ops->flushed)
		mgr->ops->flushed(mgr, d, why);
	if (d->pkt_aggr_cnt > 1)
		lro_complete(d);
	mgr->stats.flushed++;
	mgr->stats.flush[why]++;
	lro_release_desc(mgr, d);
	lro_deliver(mgr, skb);
}

/* Send every held packet up, oldest first. */
void lro_flush_all_reason(struct net_lro_mgr *mgr, enum lro_flush_reason why)
{
	struct net_lro_desc *d, *tmp;

	lro_mgr_ready(mgr);
	list_for_each_entry_safe(d, tmp, &mgr->active, node)
		lro_flush(mgr, d, why);
}

/*
 * Send up the oldest packets until what is held takes no more than
 * max_held_bytes (lro_held_check() in the receive core).
 */
void lro_flush_mem(struct net_lro_mgr *mgr)
{
	while (mgr->nr_active && mgr->stats.held_bytes > mgr->max_held_bytes)
		lro_flush(mgr, list_first_entry(&mgr->active,
						struct net_lro_desc, node),
			  LRO_FLUSH_MEM);
}

/*
 * The end of a receive batch, or the hold timer: send up the packets held
 * for as long as they may be (their hold_us; 0: until the end of the
 * batch). Returns when the next one is due, or 0 if none is held.
 *
 * The active list is oldest first: when every packet has the same hold
 * (@in_order, the caller knows), the first one not due ends the walk.
 */
u64 lro_flush_due(struct net_lro_mgr *mgr, u64 now, bool in_order)
{
	struct net_lro_desc *d, *tmp;
	u64 due, next = 0;

	lro_mgr_ready(mgr);
	list_for_each_entry_safe(d, tmp, &mgr->active, node) {
		due = d->start_ns + d->hold_us * (u64)NSEC_PER_USEC;
		if (!d->hold_us)
			lro_flush(mgr, d, LRO_FLUSH_BATCH);
		else if (due <= now)
			lro_flush(mgr, d, LRO_FLUSH_TIMER);
		else if (in_order)
			return due;
		else if (!next || due < next)
			next = due;
	}
	return next;
}

/* Free every held packet without sending it up: the device is going away. */
void lro_drop_all(struct net_lro_mgr *mgr)
{
	struct net_lro_desc *d, *tmp;

	lro_mgr_ready(mgr);
	list_for_each_entry_safe(d, tmp, &mgr->active, node) {
		struct sk_buff *skb = d->parent;

		lro_release_desc(mgr, d);
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
	}
}
