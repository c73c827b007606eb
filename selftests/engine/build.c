// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the test device and the segment builders. Every
 * segment is recorded (struct lt_in) before LRO sees it, so check.c can
 * compare what comes out with what went in.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "harness.h"
#include "testdev.h"

#define LT_ARENA	(2 << 20)
#define LT_PADLEN	6

const u8 lt_peer[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* The test device (testdev.h) takes what LRO sends up here. */
static rx_handler_result_t lt_rx(struct sk_buff **pskb)
{
	struct lt_ctx *t = rcu_dereference((*pskb)->dev->rx_handler_data);

	t->rx_count++;
	lt_seen(t, *pskb);
	skb_queue_tail(&t->rxq, *pskb);
	return RX_HANDLER_CONSUMED;
}

/* Recording inputs */

struct lt_flow *lt_flow(struct lt_ctx *t)
{
	unsigned int i = t->nflows;
	struct lt_flow *f;

	if (i == LT_MAX_FLOWS) {
		t->err = "too many flows";
		i = 0;	/* keep going on a flow that exists */
	} else {
		t->nflows++;
	}
	f = &t->flows[i];
	*f = (struct lt_flow) {
		.saddr = htonl(0x0a4d0001), .daddr = htonl(0x0a4d0002),
		.sport = 1000 + i, .dport = 5001,
		.seq = 0xfffff000 + (i << 20), .ack = 0x01020304,
		.tsval = 1000 + i, .tsecr = 2000,
		.id = 100 + i, .win = 502, .ttl = 64,
		.df = true, .ts = true, .cur = -1, .last = -1,
	};
	return f;
}

/* The same, over IPv6: fd00::4d:1 to fd00::4d:2 (bytes 4-11 of the source
 * are the IPv4 flows' addresses: where an IPv4 header has them)
 */
struct lt_flow *lt_flow6(struct lt_ctx *t)
{
	struct lt_flow *f = lt_flow(t);

	f->v6 = true;
	f->saddr6.s6_addr32[0] = htonl(0xfd000000);
	f->saddr6.s6_addr32[1] = f->saddr;
	f->saddr6.s6_addr32[2] = f->daddr;
	f->saddr6.s6_addr32[3] = htonl(0x004d0001);
	f->daddr6 = f->saddr6;
	f->daddr6.s6_addr32[3] = htonl(0x004d0002);
	f->extlen = 8;
	return f;
}

struct lt_flow *lt_flow_of(struct lt_ctx *t, bool v6)
{
	return v6 ? lt_flow6(t) : lt_flow(t);
}

/* Extension headers of IPv6 flow @f: @n of @len bytes, the first @n of
 * Hop-by-Hop, Routing, Destination Options (or Destination Options alone
 * if @n is 1)
 */
void lt_ext(struct lt_flow *f, unsigned int n, unsigned int len)
{
	static const u8 chain[] = { NEXTHDR_HOP, NEXTHDR_ROUTING, NEXTHDR_DEST };

	f->nexth = n;
	f->extlen = len;
	f->extval = 0x5a;
	if (n == 1)
		f->exth[0] = NEXTHDR_DEST;
	else
		memcpy(f->exth, chain, n);
}

static struct lt_in *lt_new_in(struct lt_ctx *t, struct lt_flow *f,
			       unsigned int len)
{
	struct lt_flow *chain = f ?: &t->raw;
	struct lt_in *in;

	if (t->err)
		return NULL;
	if (t->nin == LT_MAX_IN || t->used + len > LT_ARENA) {
		t->err = "out of input records";
		return NULL;
	}
	in = &t->in[t->nin];
	*in = (struct lt_in) { .data = t->arena + t->used, .len = len,
			       .flow = f, .next = -1 };
	t->used += ALIGN(len, 8);
	if (chain->last >= 0)
		t->in[chain->last].next = t->nin;
	if (chain->cur < 0)
		chain->cur = t->nin;
	chain->last = t->nin++;
	return in;
}

/* The IPv4 header of a segment of @f with @tot bytes from it on */
static void lt_ip4(const struct lt_flow *f, u8 *p, unsigned int iphl,
		   unsigned int tot, u32 mods)
{
	struct iphdr *iph = (struct iphdr *)p;

	iph->version = 4;
	iph->ihl = iphl / 4;
	iph->tos = f->tos | (mods & LT_CE ? INET_ECN_CE : 0);
	iph->tot_len = htons(tot);
	iph->id = htons(f->id);
	iph->frag_off = htons((f->df ? IP_DF : 0) | (mods & LT_MF ? IP_MF : 0) |
			      (mods & LT_FRAGOFF ? 1 : 0));
	iph->ttl = f->ttl;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = f->saddr;
	iph->daddr = f->daddr;
	if (mods & LT_IPOPT)
		memset(p + 20, IPOPT_NOOP, 3);	/* then IPOPT_END */
	iph->check = ip_fast_csum(iph, iph->ihl);
	if (mods & LT_BADIP)
		iph->check = (__force __sum16)((__force u16)iph->check ^ 0x0101);
}

/* IPv6 headers before TCP: @f's extension headers, then a Fragment header
 * (offset 0, no more fragments) with LT_FRAGHDR
 */
static unsigned int lt_ip6_len(const struct lt_flow *f, u32 mods)
{
	return sizeof(struct ipv6hdr) + f->nexth * f->extlen +
	       (mods & LT_FRAGHDR ? sizeof(struct frag_hdr) : 0);
}

/* The IPv6 header and its extension headers; @tot: bytes from it on */
static void lt_ip6(const struct lt_flow *f, u8 *p, unsigned int tot, u32 mods)
{
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p;
	u8 *nexthdr = &ip6->nexthdr;
	unsigned int i;

	ip6->version = 6;
	ip6_flow_hdr(ip6, f->tos | (mods & LT_CE ? INET_ECN_CE : 0),
		     htonl(f->label));
	ip6->payload_len = htons(tot - sizeof(*ip6));
	ip6->hop_limit = f->ttl;
	ip6->saddr = f->saddr6;
	ip6->daddr = f->daddr6;
	p += sizeof(*ip6);
	for (i = 0; i < f->nexth; i++, p += f->extlen) {
		/* next header, length, then PadN (Routing: type, left 0) */
		*nexthdr = f->exth[i];
		nexthdr = p;
		p[1] = f->extlen / 8 - 1;
		if (f->exth[i] != NEXTHDR_ROUTING) {
			p[2] = IPV6_TLV_PADN;
			p[3] = f->extlen - 4;
		}
		memset(p + 4, f->extval, f->extlen - 4);
	}
	if (mods & LT_FRAGHDR) {
		struct frag_hdr *fh = (struct frag_hdr *)p;

		*nexthdr = NEXTHDR_FRAGMENT;
		nexthdr = &fh->nexthdr;
		fh->identification = htonl(f->id);
	}
	*nexthdr = IPPROTO_TCP;
}

/* Record the next segment of @f (IP header on) and advance the flow. */
static struct lt_in *lt_tcp(struct lt_ctx *t, struct lt_flow *f,
			    unsigned int len, u32 mods)
{
	unsigned int iphl = f->v6 ? lt_ip6_len(f, mods) :
			    mods & LT_IPOPT ? 24 : 20;
	unsigned int thl = f->ts || (mods & LT_TCPOPT) ? 32 : 20;
	unsigned int tot = iphl + thl + len, i;
	struct lt_in *in;
	struct tcphdr *th;
	__be32 *opt;
	u8 *p;

	in = lt_new_in(t, f, tot + (mods & LT_PAD ? LT_PADLEN : 0));
	if (!in)
		return NULL;
	p = in->data;
	memset(p, 0, iphl + thl);
	if (f->v6)
		lt_ip6(f, p, tot, mods);
	else
		lt_ip4(f, p, iphl, tot, mods);

	th = (struct tcphdr *)(p + iphl);
	th->source = htons(f->sport);
	th->dest = htons(f->dport);
	th->seq = htonl(f->seq);
	th->ack_seq = htonl(f->ack);
	th->doff = thl / 4;
	th->ack = !(mods & LT_NOACK);
	th->psh = !!(mods & LT_PSH);
	th->syn = !!(mods & LT_SYN);
	th->fin = !!(mods & LT_FIN);
	th->rst = !!(mods & LT_RST);
	th->urg = !!(mods & LT_URG);
	th->cwr = !!(mods & LT_CWR);
	th->ece = !!(mods & LT_ECE);
	th->window = htons(f->win);
	th->urg_ptr = htons(mods & LT_URG ? 1 : 0);
	opt = (__be32 *)(th + 1);
	if (mods & LT_TCPOPT) {
		/* MSS 1460, SACK permitted, NOP, NOP, NOP, EOL */
		opt[0] = htonl(0x020405b4);
		opt[1] = htonl(0x04020101);
		opt[2] = htonl(0x01000000);
	} else if (f->ts) {
		opt[0] = htonl(0x0101080a);
		opt[1] = htonl(f->tsval);
		opt[2] = mods & LT_TSECR0 ? 0 : htonl(f->tsecr);
	}
	for (i = 0; i < len; i++) {
		u32 x = f->seq + i;

		p[iphl + thl + i] = x * 131 + (x >> 8) * 7 + f->sport;
	}
	memset(p + tot, 0xee, in->len - tot);
	if (f->v6)
		th->check = tcp_v6_check(thl + len, &f->saddr6, &f->daddr6,
					 csum_partial(th, thl + len, 0));
	else
		th->check = tcp_v4_check(thl + len, f->saddr, f->daddr,
					 csum_partial(th, thl + len, 0));
	if (mods & LT_BAD)
		th->check = (__force __sum16)((__force u16)th->check ^ 0x0101);

	in->hlen = iphl + thl;
	in->payload = len;
	in->seq = f->seq;
	in->id = f->v6 ? 0 : f->id;
	in->psh = th->psh;
	in->bad = !!(mods & (LT_BAD | LT_BADIP));
	in->plain = !(mods & LT_INELIGIBLE) && len;
	f->seq += len;
	if (!f->fixedid)
		f->id++;
	return in;
}

/* An skb of the recorded bytes, laid out as t->layout says. */
static struct sk_buff *lt_skb(struct lt_ctx *t, struct lt_in *in, __be16 proto)
{
	unsigned int lin = in->len, n = 0, off, i;
	struct sk_buff *skb;
	struct ethhdr *eth;

	if (t->layout == LT_PAGED && in->flow)
		lin = in->hlen;
	else if (t->layout != LT_LINEAR && in->flow)
		lin = in->hlen + (in->len - in->hlen) / 2;
	if (lin < in->len)
		n = min(t->layout == LT_PAGED ? t->nfrags : 1, in->len - lin);
	if (t->layout == LT_HEADFRAG) {
		unsigned int size = SKB_DATA_ALIGN(NET_SKB_PAD + NET_IP_ALIGN +
						   VLAN_ETH_HLEN + lin) +
			SKB_DATA_ALIGN(sizeof(struct skb_shared_info));
		void *data = netdev_alloc_frag(size);

		skb = data ? build_skb(data, size) : NULL;
		if (!skb) {
			if (data)
				skb_free_frag(data);
			goto nomem;
		}
		skb_reserve(skb, NET_SKB_PAD);
	} else {
		skb = alloc_skb(NET_IP_ALIGN + VLAN_ETH_HLEN + lin, GFP_KERNEL);
		if (!skb)
			goto nomem;
	}
	skb_reserve(skb, NET_IP_ALIGN);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, t->dev->dev_addr);
	ether_addr_copy(eth->h_source, lt_peer);
	eth->h_proto = proto;
	in->inband = in->flow && in->flow->inband;
	if (in->inband) {
		struct vlan_hdr *vh = skb_put(skb, VLAN_HLEN);

		eth->h_proto = htons(ETH_P_8021Q);
		vh->h_vlan_TCI = htons(in->flow->vlan);
		vh->h_vlan_encapsulated_proto = proto;
	}
	skb_put_data(skb, in->data, lin);
	for (i = 0, off = lin; i < n; i++) {
		unsigned int size = i < n - 1 ? (in->len - lin) / n : in->len - off;
		struct page *page = alloc_page(GFP_KERNEL);

		if (!page || size > PAGE_SIZE) {
			if (page)
				__free_page(page);
			kfree_skb(skb);
			goto nomem;
		}
		memcpy(page_address(page), in->data + off, size);
		skb_add_rx_frag(skb, i, page, 0, size, PAGE_SIZE);
		off += size;
	}
	skb->protocol = eth_type_trans(skb, t->dev);
	skb->ip_summed = t->summed;
	if (t->summed == CHECKSUM_COMPLETE)
		skb->csum = csum_partial(in->data, in->len, 0);
	if (t->summed == CHECKSUM_COMPLETE && in->inband)	/* from the tag */
		skb->csum = csum_add(csum_partial(skb->data, VLAN_HLEN, 0),
				     skb->csum);
	in->summed = skb->ip_summed;
	in->csum = skb->csum;
	in->truesize = skb->truesize;
	in->end = skb_end_offset(skb);
	in->nfrags = n;
	in->stealable = n && lin == in->hlen;
	in->headfrag = skb->head_frag && lin > in->hlen;
	return skb;
nomem:
	t->err = "no memory for a segment";
	return NULL;
}

struct sk_buff *lt_make(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
			u32 mods)
{
	struct lt_in *in = lt_tcp(t, f, len, mods);
	struct sk_buff *skb;

	if (!in)
		return NULL;
	skb = lt_skb(t, in, htons(f->v6 ? ETH_P_IPV6 : ETH_P_IP));
	if (skb)
		skb->skb_iif = f->iif;
	return skb;
}

/* Hand one skb to LRO, as a driver's NAPI poll would. */
void lt_feed(struct lt_ctx *t, struct sk_buff *skb, u16 vlan)
{
	local_bh_disable();
	if (vlan)
		lro_vlan_hwaccel_receive_skb(&t->mgr, skb, vlan, NULL);
	else
		lro_receive_skb(&t->mgr, skb, NULL);
	local_bh_enable();
}

void lt_seg(struct lt_ctx *t, struct lt_flow *f, unsigned int len, u32 mods)
{
	struct sk_buff *skb = lt_make(t, f, len, mods);

	if (skb)
		lt_feed(t, skb, f->inband ? f->outer : f->vlan);
}

void lt_segs(struct lt_ctx *t, struct lt_flow *f, unsigned int n,
	     unsigned int len)
{
	while (n--)
		lt_seg(t, f, len, 0);
}

void lt_frame(struct lt_ctx *t, struct lt_flow *f, unsigned int len, u32 mods)
{
	struct lt_in *in = lt_tcp(t, f, len, mods);

	if (in)
		lt_frame_in(t, in, htons(f->v6 ? ETH_P_IPV6 : ETH_P_IP),
			    f->vlan);
}

/* Something LRO must pass untouched: UDP/IPv4, TCP/IPv6 or ARP. */
void lt_raw(struct lt_ctx *t, __be16 proto, u8 l4, bool frame)
{
	unsigned int len = proto == htons(ETH_P_ARP) ? 28 : 200;
	struct lt_in *in = lt_new_in(t, NULL, len);
	struct sk_buff *skb;
	unsigned int i;

	if (!in)
		return;
	for (i = 0; i < len; i++)
		in->data[i] = i * 29 + 3;
	in->hlen = len;
	if (proto == htons(ETH_P_IP)) {
		struct iphdr *iph = (struct iphdr *)in->data;
		struct udphdr *uh = (struct udphdr *)(iph + 1);

		*iph = (struct iphdr) { .version = 4, .ihl = 5,
			.tot_len = htons(len), .ttl = 64, .protocol = l4,
			.saddr = htonl(0x0a4d0001), .daddr = htonl(0x0a4d0002) };
		iph->check = ip_fast_csum(iph, 5);
		*uh = (struct udphdr) { .source = htons(53), .dest = htons(53),
					.len = htons(len - 20) };
		uh->check = csum_tcpudp_magic(iph->saddr, iph->daddr, len - 20,
					      l4, csum_partial(uh, len - 20, 0));
	} else if (proto == htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)in->data;

		memset(ip6, 0, sizeof(*ip6));
		ip6->version = 6;
		ip6->payload_len = htons(len - sizeof(*ip6));
		ip6->nexthdr = l4;
		ip6->hop_limit = 64;
		ip6->saddr.s6_addr[15] = 1;
		ip6->daddr.s6_addr[15] = 2;
	}
	if (frame) {
		lt_frame_in(t, in, proto, 0);
		return;
	}
	skb = lt_skb(t, in, proto);
	if (skb)
		lt_feed(t, skb, 0);
}

/* One segment, to lro_receive_skb() or, with LT_FRAMES, as a frame */
void lt_put(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
	    unsigned long mods)
{
	if (mods & LT_EMPTY)
		len = 0;
	if (mods & LT_FRAMES)
		lt_frame(t, f, len, mods & ~(LT_FRAMES | LT_EMPTY));
	else
		lt_seg(t, f, len, mods & ~(LT_FRAMES | LT_EMPTY));
}

void lt_flush_all(struct lt_ctx *t)
{
	local_bh_disable();
	lro_flush_all(&t->mgr);
	local_bh_enable();
}

void lt_flush_pkt(struct lt_ctx *t, struct lt_flow *f)
{
	struct iphdr iph = { .version = 4, .ihl = 5, .protocol = IPPROTO_TCP,
			     .saddr = f->saddr, .daddr = f->daddr };
	struct tcphdr th = { .source = htons(f->sport), .dest = htons(f->dport),
			     .doff = 5 };

	local_bh_disable();
	lro_flush_pkt(&t->mgr, &iph, &th);
	local_bh_enable();
}

int lt_set_desc(struct lt_ctx *t, int max_desc)
{
	kvfree(t->mgr.lro_arr);
	t->mgr.lro_arr = kvcalloc(max_desc, sizeof(*t->mgr.lro_arr),
				  GFP_KERNEL);
	t->mgr.max_desc = t->mgr.lro_arr ? max_desc : 0;
	if (!t->mgr.lro_arr)
		t->err = "no memory for descriptors";
	return t->mgr.lro_arr ? 0 : -ENOMEM;
}

/* A fresh manager on the test device, and the defaults of harness.h */
int lt_reset(struct lt_ctx *t)
{
	skb_queue_purge(&t->rxq);
	t->nflows = 0;
	t->nin = 0;
	t->used = 0;
	t->raw.cur = -1;
	t->raw.last = -1;
	t->layout = LT_LINEAR;
	t->nfrags = 1;
	t->pg_head = 0;
	t->summed = CHECKSUM_UNNECESSARY;
	t->want = NULL;
	t->no_desc = 0;
	t->inband_out = 0;
	t->nkeep = 0;
	t->err = NULL;
	t->rx_count = 0;
	t->hooked = 0;
	memset(t->seen_flush, 0, sizeof(t->seen_flush));
	t->seen_rep = 0;
	t->seen[0] = 0;
	kvfree(t->mgr.lro_arr);
	memset(&t->mgr, 0, sizeof(t->mgr));
	t->mgr.dev = t->dev;
	t->mgr.features = LRO_F_NAPI;
	t->mgr.ip_summed = CHECKSUM_UNNECESSARY;
	t->mgr.max_aggr = 64;
	t->mgr.get_frag_header = lt_frag_header;
	return lt_set_desc(t, 8);
}

void lt_ctx_free(struct lt_ctx *t)
{
	if (t->dev)
		lro_testdev_free(t->dev);
	skb_queue_purge(&t->rxq);
	kvfree(t->mgr.lro_arr);
	kvfree(t->arena);
	kvfree(t->in);
	kvfree(t->flows);
	kfree(t);
}

/* The context, with the test device up and taking what is sent up */
struct lt_ctx *lt_ctx_new(void)
{
	struct net_device *dev;
	struct lt_ctx *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	skb_queue_head_init(&t->rxq);
	t->flows = kvcalloc(LT_MAX_FLOWS, sizeof(*t->flows), GFP_KERNEL);
	t->in = kvcalloc(LT_MAX_IN, sizeof(*t->in), GFP_KERNEL);
	t->arena = kvmalloc(LT_ARENA, GFP_KERNEL);
	dev = t->flows && t->in && t->arena ?
	      lro_testdev_new("lrotest%d", true, lt_rx, t) : ERR_PTR(-ENOMEM);
	if (IS_ERR(dev)) {
		lt_ctx_free(t);
		return ERR_CAST(dev);
	}
	t->dev = dev;
	return t;
}
