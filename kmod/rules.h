/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The merge rules, for TCP over IPv4 and IPv6: can a segment be aggregated
 * at all, can it join its flow's held packet, and what joining books. Each
 * follows the GRO function of Linux 6.12 named in its comment; where LRO
 * differs, the comment says so and why (Documentation/engine.md lists it).
 *
 * They run for every segment: inlined into the receive core (engine.c),
 * their only user. Called out of line they cost 38 of the micro-benchmark's
 * 1056 instructions per segment.
 */
#ifndef _LRO_RULES_H
#define _LRO_RULES_H

#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "seg.h"

/* lro_join_check() result: join, or flush the descriptor for this reason */
#define LRO_JOIN	(-1)

#define TCPH_LEN_WO_OPTIONS	5
#define TCPH_LEN_W_TIMESTAMP	8
#define LRO_TS_OPT_WORD	htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) | \
			      (TCPOPT_TIMESTAMP << 8) | TCPOLEN_TIMESTAMP)

/*
 * The TCP header alone. As tcp_gro_receive(), nothing that must reach the
 * stack on its own (SYN, FIN, RST, URG; CWR); unlike it, and as the seed,
 * no ECE and no option but the timestamp, so that what is merged is what
 * TCP's fast path takes.
 */
static __always_inline bool lro_tcp_eligible(const struct tcphdr *th)
{
	if (th->cwr || th->ece || th->urg || !th->ack || th->rst ||
	    th->syn || th->fin)
		return false;
	if (th->doff == TCPH_LEN_WO_OPTIONS)
		return true;
	return th->doff == TCPH_LEN_W_TIMESTAMP &&
	       *(const __be32 *)(th + 1) == LRO_TS_OPT_WORD;
}

/* The IPv4 header alone (inet_gro_receive()): no options, not a fragment;
 * and, as the seed, not marked CE, which the stack must see per segment.
 */
static __always_inline bool lro_ip4_eligible(const struct iphdr *iph)
{
	return iph->ihl == 5 && !(iph->frag_off & htons(IP_MF | IP_OFFSET)) &&
	       !INET_ECN_is_ce(ipv4_get_dsfield(iph));
}

/* inet_gro_receive()'s header checksum check, last: it is the costly one */
static __always_inline bool lro_ip4_csum_ok(const struct iphdr *iph)
{
	return !ip_fast_csum((const u8 *)iph, iph->ihl);
}

/*
 * Checks of one segment on its own: could it be aggregated at all? The
 * IP header must account for the frame exactly (ipv6_gro_receive()'s
 * payload_len test; a padded IPv4 frame is GRO's too, but trimmed first)
 * and be no longer than an aggregate may be (only an IPv6 one can: 40
 * bytes of header and 65,535 of payload; skb_gro_receive() would never add
 * to it), and carry payload: pure ACKs never merge. IPv6 extension headers were
 * walked by the parser, as ipv6_gro_pull_exthdrs() walks them.
 */
static __always_inline bool lro_seg_eligible(const struct lro_seg *seg)
{
	if (seg->tot_len != seg->ip_len || !seg->payload)
		return false;
	if (seg->ipv6) {
		if (seg->tot_len > IP_MAX_MTU ||
		    INET_ECN_is_ce(ipv6_get_dsfield(seg->ip6h)))
			return false;
	} else if (!lro_ip4_eligible(seg->iph)) {
		return false;
	}
	if (!lro_tcp_eligible(seg->tcph))
		return false;
	return seg->ipv6 || lro_ip4_csum_ok(seg->iph);
}

/* The options of two TCP headers of one length (the flag word matched),
 * a word at a time as in tcp_gro_receive(): memcmp() is a byte loop on x86.
 */
static __always_inline bool lro_opts_differ(const struct tcphdr *th,
					    const struct tcphdr *th0)
{
	const u32 *a = (const u32 *)(th + 1), *b = (const u32 *)(th0 + 1);
	unsigned int i, words = th->doff - TCPH_LEN_WO_OPTIONS;
	u32 diff = 0;

	for (i = 0; i < words; i++)
		diff |= a[i] ^ b[i];
	return diff;
}

/*
 * IPv4 (inet_gro_flush()): fields other than length, ID and checksum must
 * match; the ID must increment, or stay fixed under DF, as the second
 * segment decided (recorded by lro_join_account()).
 */
static __always_inline bool lro_ip4_joins(const struct net_lro_desc *d,
					  const struct iphdr *iph)
{
	const struct iphdr *iph0 = d->iph;
	u16 id_delta = ntohs(iph->id) - d->ip_id;
	bool fixedid;

	if (iph->ttl != iph0->ttl || iph->tos != iph0->tos ||
	    ((iph->frag_off ^ iph0->frag_off) & htons(IP_DF)))
		return false;
	fixedid = d->pkt_aggr_cnt == 1 ?
		  !id_delta && !!(iph->frag_off & htons(IP_DF)) : d->ip_fixedid;
	return id_delta == (fixedid ? 0 : d->pkt_aggr_cnt);
}

/*
 * IPv6: version and flow label (ipv6_gro_receive(), else another flow),
 * traffic class and hop limit (ipv6_gro_flush()), next header and the
 * extension headers byte for byte (ipv6_gro_receive()). GRO would hold a
 * segment with a new flow label beside the old packet; LRO keys flows by
 * addresses and ports, so it sends the old one up first instead.
 */
static __always_inline bool lro_ip6_joins(const struct net_lro_desc *d,
					  const struct lro_seg *seg)
{
	const struct ipv6hdr *ip6h = seg->ip6h, *ip6h0 = d->ip6h;
	unsigned int nhlen = lro_seg_nhlen(seg);

	if (*(const __be32 *)ip6h != *(const __be32 *)ip6h0 ||
	    ip6h->hop_limit != ip6h0->hop_limit ||
	    ip6h->nexthdr != ip6h0->nexthdr)
		return false;
	if (likely(nhlen == sizeof(*ip6h)))
		return (u8 *)d->tcph - (u8 *)ip6h0 == sizeof(*ip6h);
	return (u8 *)d->tcph - (u8 *)ip6h0 == nhlen &&
	       !memcmp(ip6h + 1, ip6h0 + 1, nhlen - sizeof(*ip6h));
}

/*
 * Can @seg join @d? Returns LRO_JOIN, or why @d must be flushed first.
 * After the IP rules above, tcp_gro_receive()'s: the TCP flag word (flags
 * and window) must match but for PSH, the ACK and all options must be
 * byte-identical, and a segment may not be longer than the first. The
 * packet may grow to 65,535 bytes from its IP header on, in both families:
 * skb_gro_receive() refuses p->len + len >= 65536 (gro_max_size and
 * gro_ipv4_max_size at their default; BIG TCP is not done here).
 */
static __always_inline int lro_join_check(const struct net_lro_mgr *mgr,
					  const struct net_lro_desc *d,
					  const struct lro_seg *seg)
{
	const struct tcphdr *th = seg->tcph, *th0 = d->tcph;

	if (ntohl(th->seq) != d->tcp_next_seq)
		return LRO_FLUSH_SEQ;
	if (seg->ipv6 ? !lro_ip6_joins(d, seg) : !lro_ip4_joins(d, seg->iph))
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
	if (d->pkt_aggr_cnt >= d->max_aggr)
		return LRO_FLUSH_MAX_AGGR;
	return LRO_JOIN;
}

/*
 * Book @seg into @d, before its bytes are attached to the parent (which may
 * free the segment's headers). Returns LRO_JOIN while the packet can grow,
 * or why it is complete and must be flushed once the bytes are attached:
 * PSH or a short segment (tcp_gro_receive()'s final check), or max_aggr.
 * A packet that a full segment would no longer fit stays held, as GRO's:
 * a shorter one may still fill it to the byte.
 */
static __always_inline int lro_join_account(struct net_lro_mgr *mgr,
					    struct net_lro_desc *d,
					    const struct lro_seg *seg)
{
	struct sk_buff *parent = d->parent;

	if (d->pkt_aggr_cnt == 1 && !seg->ipv6)
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
	if (d->pkt_aggr_cnt >= d->max_aggr)
		return LRO_FLUSH_MAX_AGGR;
	return LRO_JOIN;
}

#endif /* _LRO_RULES_H */
