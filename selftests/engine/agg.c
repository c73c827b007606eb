// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: checking a packet LRO built of several segments (see
 * lt_check_pkt() in check.c for the rest). It must be what
 * tcp4_gro_complete() or ipv6_gro_complete() and tcp6_gro_complete() make
 * of them: the first segment's headers with the lengths, checksums and
 * PSH of the whole, CHECKSUM_PARTIAL over a right pseudo-header sum, GSO
 * fields, the payload in the layout skb_gro_receive() gives it, and
 * skb_gso_segment() must give the segments back byte for byte.
 */

#include <linux/if_vlan.h>
#include <net/checksum.h>
#include <net/gso.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "harness.h"

/*
 * Bytes before the TCP header of the IPv4 or IPv6 packet at @p, @len
 * bytes long: IPv6 extension headers as ipv6_gro_pull_exthdrs() and
 * ipv6_exthdrs_len() walk them (and a Fragment header). 0: not TCP.
 */
unsigned int lt_iphl(const u8 *p, unsigned int len)
{
	const struct iphdr *iph = (const struct iphdr *)p;
	unsigned int off = sizeof(struct ipv6hdr);
	u8 h;

	if (len < sizeof(*iph))
		return 0;
	if (iph->version == 4)
		return iph->protocol == IPPROTO_TCP ? iph->ihl * 4 : 0;
	if (iph->version != 6 || len < off)
		return 0;
	h = ((const struct ipv6hdr *)p)->nexthdr;
	while ((h == NEXTHDR_HOP || h == NEXTHDR_ROUTING ||
		h == NEXTHDR_DEST || h == NEXTHDR_FRAGMENT) && off + 8 <= len) {
		unsigned int hl = h == NEXTHDR_FRAGMENT ? 8 : (p[off + 1] + 1) * 8;

		h = p[off];
		off += hl;
	}
	return h == IPPROTO_TCP && off <= len ? off : 0;
}

/* What the IP header says the packet's length is */
unsigned int lt_iplen(const u8 *p)
{
	const struct iphdr *iph = (const struct iphdr *)p;

	if (iph->version == 6)
		return sizeof(struct ipv6hdr) +
		       ntohs(((const struct ipv6hdr *)p)->payload_len);
	return ntohs(iph->tot_len);
}

/* Both checksums (IPv6: the TCP one) of a linear TCP packet at @p verify. */
bool lt_csum_ok(const u8 *p, unsigned int len)
{
	const struct iphdr *iph = (const struct iphdr *)p;
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)p;
	unsigned int hl = lt_iphl(p, len), tcplen;

	if (!hl || lt_iplen(p) > len)
		return false;
	tcplen = lt_iplen(p) - hl;
	if (iph->version == 6)
		return !csum_ipv6_magic(&ip6->saddr, &ip6->daddr, tcplen,
					IPPROTO_TCP,
					csum_partial(p + hl, tcplen, 0));
	return !ip_fast_csum(iph, iph->ihl) &&
	       !csum_tcpudp_magic(iph->saddr, iph->daddr, tcplen, IPPROTO_TCP,
				  csum_partial(p + hl, tcplen, 0));
}

/* Could segment @in's payload go into the frags[] of an skb with @used
 * fragments? skb_gro_receive()'s rules, as lro_attach_skb() follows them.
 * Returns the fragments it adds, 0 if it must be chained.
 */
static unsigned int lt_fill(const struct lt_in *in, unsigned int used,
			    bool tail_pp)
{
	unsigned int need;

	if (in->pp != tail_pp)
		return 0;
	if (in->stealable && !(in->cloned && in->pp))
		need = in->nfrags;
	else if (in->headfrag && !in->cloned)
		need = 1 + in->nfrags;
	else
		return 0;
	return used + need <= MAX_SKB_FRAGS ? need : 0;
}

/*
 * The layout lro_attach_skb() makes: payload into the frags[] of the last
 * skb (the head, then the last on the frag_list) while they fit, else the
 * segment chained; truesize the sum of what was merged.
 */
static const char *lt_check_layout(struct lt_ctx *t, struct sk_buff *skb,
				   struct lt_in *in, unsigned int n,
				   unsigned int k)
{
	unsigned int nr = in->nfrags, tail_nr = nr, list_nr = 0, got_nr = 0;
	unsigned int ts = in->truesize, lists = 0, chained = 0, j, add;
	bool frames = in->frame, cloned = in->cloned, tail_pp = in->pp;
	bool fill = true;	/* the tail is not a clone */
	struct sk_buff *it;

	for (j = 1; j < n; j++) {
		in = lt_next(t, in);
		add = fill ? lt_fill(in, tail_nr, tail_pp) : 0;
		if (frames) {
			nr += in->nfrags;
			ts += in->truesize;
		} else if (add) {
			tail_nr += add;
			if (chained)
				list_nr += add;
			else
				nr += add;
			ts += in->truesize - (in->stealable ?
					      SKB_TRUESIZE(in->end) :
					      SKB_DATA_ALIGN(sizeof(struct sk_buff)));
		} else {
			chained++;
			ts += in->truesize;
			tail_nr = in->nfrags;
			list_nr += in->nfrags;
			tail_pp = in->pp;
			fill = !in->cloned;
		}
	}
	skb_walk_frags(skb, it) {
		lists++;
		got_nr += skb_shinfo(it)->nr_frags;
	}
	if (skb_shinfo(skb)->nr_frags != nr || lists != chained ||
	    got_nr != list_nr)
		return lt_fail(t, "pkt %u: %u frags + %u chained (%u frags), want %u + %u (%u)",
			       k, skb_shinfo(skb)->nr_frags, lists, got_nr,
			       nr, chained, list_nr);
	/* page mode: the skb LRO allocated for the headers comes on top */
	if (frames ? skb->truesize <= ts ||
		     skb->truesize > ts + SKB_TRUESIZE(2048) :
		     !cloned && skb->truesize != ts)
		return lt_fail(t, "pkt %u: truesize %u, want %s%u", k,
			       skb->truesize, frames ? "a bit over " : "", ts);
	return NULL;
}

/* Forwarding: segmented again, the aggregate gives back the inputs. */
static const char *lt_check_gso(struct lt_ctx *t, struct sk_buff *skb,
				struct lt_in *in, unsigned int n,
				netdev_features_t features, unsigned int k)
{
	struct sk_buff *segs, *s, *c;
	const char *err = NULL;
	unsigned int j = 0;

	segs = skb_gso_segment(skb, features);
	if (IS_ERR_OR_NULL(segs))
		return lt_fail(t, "pkt %u: skb_gso_segment() failed (%ld)", k,
			       PTR_ERR(segs));
	for (s = segs; s && !err; s = s->next, j++, in = lt_next(t, in)) {
		if (j == n) {
			err = lt_fail(t, "pkt %u: more than %u segments", k, n);
			break;
		}
		c = skb_copy(s, GFP_KERNEL);
		if (!c)
			err = "no memory";
		else if (c->ip_summed == CHECKSUM_PARTIAL && skb_checksum_help(c))
			err = lt_fail(t, "pkt %u: segment %u: no checksum", k, j);
		else if (c->len != in->len || memcmp(c->data, in->data, in->len))
			err = lt_fail(t, "pkt %u: segment %u (features %llx) is not the input",
				      k, j, features);
		else if (!lt_csum_ok(c->data, c->len))
			err = lt_fail(t, "pkt %u: segment %u: bad checksum", k, j);
		kfree_skb(c);
	}
	if (!err && j != n)
		err = lt_fail(t, "pkt %u: %u segments, want %u", k, j, n);
	kfree_skb_list(segs);
	return err;
}

/* The first segment's IP header, but for length and checksum */
static const char *lt_check_iph(struct lt_ctx *t, struct sk_buff *c, u8 *want,
				u8 *got, unsigned int k)
{
	struct iphdr *iph = (struct iphdr *)got;

	if (iph->version == 6) {
		((struct ipv6hdr *)want)->payload_len =
			htons(c->len - sizeof(struct ipv6hdr));
		return NULL;
	}
	if (ip_fast_csum(iph, iph->ihl))
		return lt_fail(t, "pkt %u: IP header checksum does not verify", k);
	((struct iphdr *)want)->tot_len = htons(c->len);
	((struct iphdr *)want)->check = 0;
	iph->check = 0;
	return NULL;
}

const char *lt_check_agg(struct lt_ctx *t, struct sk_buff *skb,
			 struct sk_buff *c, struct lt_in *first,
			 unsigned int n, unsigned int k)
{
	const struct skb_shared_info *si = skb_shinfo(skb);
	unsigned int ihl = lt_iphl(c->data, c->len), hl = first->hlen, off = hl;
	bool v6 = ((struct iphdr *)c->data)->version == 6;
	unsigned int type = v6 ? SKB_GSO_TCPV6 : SKB_GSO_TCPV4, j;
	struct lt_in *in = first, *last = first;
	u8 want[128], got[128];
	const char *err;

	/* headers: the first segment's, but for length, checksums and PSH */
	if (!ihl || ihl + ((struct tcphdr *)(c->data + ihl))->doff * 4 != hl ||
	    hl > sizeof(want) || lt_iplen(c->data) != c->len)
		return lt_fail(t, "pkt %u: header or total length is wrong", k);
	for (j = 0; j < n; j++, last = in, in = lt_next(t, in)) {
		if (in->bad)
			return lt_fail(t, "pkt %u: merged a segment with a bad checksum", k);
		if (memcmp(c->data + off, in->data + in->hlen, in->payload))
			return lt_fail(t, "pkt %u: payload of segment %u differs", k, j);
		off += in->payload;
	}
	memcpy(want, first->data, hl);
	memcpy(got, c->data, hl);
	err = lt_check_iph(t, c, want, got, k);
	if (err)
		return err;
	((struct tcphdr *)(want + ihl))->check = 0;
	((struct tcphdr *)(got + ihl))->check = 0;
	((struct tcphdr *)(want + ihl))->psh = last->psh;
	if (memcmp(want, got, hl))
		return lt_fail(t, "pkt %u: headers are not the first segment's", k);

	if (!v6 && lt_next(t, first)->id == first->id)
		type |= SKB_GSO_TCP_FIXEDID;
	if (si->gso_size != first->payload || si->gso_segs != n ||
	    si->gso_type != type)
		return lt_fail(t, "pkt %u: gso size/segs/type %u/%u/%#x, want %u/%u/%#x",
			       k, si->gso_size, si->gso_segs, si->gso_type,
			       first->payload, n, type);
	if (skb->ip_summed != CHECKSUM_PARTIAL ||
	    skb_network_header(skb) != skb->data ||
	    skb_transport_header(skb) != skb->data + ihl ||
	    skb_checksum_start(skb) != skb_transport_header(skb) ||
	    skb->csum_offset != offsetof(struct tcphdr, check))
		return lt_fail(t, "pkt %u: not CHECKSUM_PARTIAL at the TCP header", k);
	skb_gso_reset(c);
	if (skb_checksum_help(c) || !lt_csum_ok(c->data, c->len))
		return lt_fail(t, "pkt %u: TCP checksum does not verify", k);

	err = lt_check_layout(t, skb, first, n, k);
	if (!err)
		err = lt_check_gso(t, skb, first, n, 0, k);
	if (!err)
		err = lt_check_gso(t, skb, first, n,
				   NETIF_F_SG | NETIF_F_HW_CSUM, k);
	return err;
}
