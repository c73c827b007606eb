// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the test device and the segment builders. Every
 * segment is recorded (struct lt_in) before LRO sees it, so check.c can
 * compare what comes out with what went in.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <net/checksum.h>
#include <net/ip.h>
#include <net/tcp.h>

#include "harness.h"

#define LT_ARENA	(2 << 20)
#define LT_PADLEN	6

static const u8 lt_peer[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* The test device: drops what it sends, takes what LRO sends up. */

static netdev_tx_t lt_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops lt_netdev_ops = {
	.ndo_start_xmit = lt_xmit,
};

static void lt_dev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &lt_netdev_ops;
	dev->flags |= IFF_NOARP;
	eth_hw_addr_random(dev);
}

static rx_handler_result_t lt_rx(struct sk_buff **pskb)
{
	struct lt_ctx *t = rcu_dereference((*pskb)->dev->rx_handler_data);

	t->rx_count++;
	skb_queue_tail(&t->rxq, *pskb);
	return RX_HANDLER_CONSUMED;
}

/* Page mode: the frames the harness builds start with an Ethernet header. */
static int lt_frag_header(skb_frag_t *frag, void **mac_hdr, void **ip_hdr,
			  void **tcpudp_hdr, u64 *hdr_flags, void *priv)
{
	struct ethhdr *eth = skb_frag_address(frag);
	struct iphdr *iph = (struct iphdr *)(eth + 1);

	*hdr_flags = 0;
	if (eth->h_proto != htons(ETH_P_IP))
		return -EINVAL;
	*mac_hdr = eth;
	*ip_hdr = iph;
	*hdr_flags = LRO_IPV4;
	if (iph->protocol != IPPROTO_TCP)
		return -EINVAL;
	*tcpudp_hdr = (u8 *)iph + iph->ihl * 4;
	*hdr_flags |= LRO_TCP;
	return 0;
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

/* Record the next segment of @f (IP header on) and advance the flow. */
static struct lt_in *lt_tcp(struct lt_ctx *t, struct lt_flow *f,
			    unsigned int len, u32 mods)
{
	unsigned int iphl = mods & LT_IPOPT ? 24 : 20;
	unsigned int thl = f->ts || (mods & LT_TCPOPT) ? 32 : 20;
	unsigned int tot = iphl + thl + len, i;
	struct lt_in *in;
	struct iphdr *iph;
	struct tcphdr *th;
	__be32 *opt;
	u8 *p;

	in = lt_new_in(t, f, tot + (mods & LT_PAD ? LT_PADLEN : 0));
	if (!in)
		return NULL;
	p = in->data;
	memset(p, 0, iphl + thl);
	iph = (struct iphdr *)p;
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
	th->check = tcp_v4_check(thl + len, iph->saddr, iph->daddr,
				 csum_partial(th, thl + len, 0));
	if (mods & LT_BAD)
		th->check = (__force __sum16)((__force u16)th->check ^ 0x0101);

	in->hlen = iphl + thl;
	in->payload = len;
	in->seq = f->seq;
	in->id = f->id;
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
						   ETH_HLEN + lin) +
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
		skb = alloc_skb(NET_IP_ALIGN + ETH_HLEN + lin, GFP_KERNEL);
		if (!skb)
			goto nomem;
	}
	skb_reserve(skb, NET_IP_ALIGN);
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, t->dev->dev_addr);
	ether_addr_copy(eth->h_source, lt_peer);
	eth->h_proto = proto;
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
	skb = lt_skb(t, in, htons(ETH_P_IP));
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
		lt_feed(t, skb, f->vlan);
}

void lt_segs(struct lt_ctx *t, struct lt_flow *f, unsigned int n,
	     unsigned int len)
{
	while (n--)
		lt_seg(t, f, len, 0);
}

/* Page mode: the frame in pages (Ethernet header and t->pg_head payload
 * bytes in fragment 0, the rest in t->nfrags more), to lro_receive_frags().
 */
static void lt_frame_in(struct lt_ctx *t, struct lt_in *in, __be16 proto,
			u16 vlan)
{
	unsigned int hl = min_t(int, in->hlen + t->pg_head, in->len);
	unsigned int len = ETH_HLEN + in->len, n = 1, off, i;
	skb_frag_t frags[MAX_SKB_FRAGS];
	struct ethhdr *eth;
	struct page *page;
	__wsum sum;

	if (hl < in->len)
		n += min(t->nfrags, in->len - hl);
	for (i = 0, off = 0; i < n; i++) {
		unsigned int size = i ? (in->len - hl) / (n - 1) : ETH_HLEN + hl;

		if (i == n - 1 && i)
			size = in->len - off;
		page = alloc_page(GFP_KERNEL);
		if (!page || size > PAGE_SIZE) {
			if (page)
				__free_page(page);
			while (i--)
				__free_page(skb_frag_page(&frags[i]));
			t->err = "no memory for a frame";
			return;
		}
		if (!i) {
			eth = page_address(page);
			ether_addr_copy(eth->h_dest, t->dev->dev_addr);
			ether_addr_copy(eth->h_source, lt_peer);
			eth->h_proto = proto;
			memcpy(eth + 1, in->data, hl);
			off = hl;
		} else {
			memcpy(page_address(page), in->data + off, size);
			off += size;
		}
		skb_frag_fill_page_desc(&frags[i], page, 0, size);
	}
	sum = csum_partial(in->data, in->len, 0);
	in->frame = true;
	in->summed = t->mgr.ip_summed;
	in->csum = sum;
	in->truesize = n * PAGE_SIZE;
	in->nfrags = n - (hl == in->hlen);
	local_bh_disable();
	if (vlan)
		lro_vlan_hwaccel_receive_frags(&t->mgr, frags, len, n * PAGE_SIZE,
					       vlan, NULL, sum);
	else
		lro_receive_frags(&t->mgr, frags, len, n * PAGE_SIZE, NULL, sum);
	local_bh_enable();
}

void lt_frame(struct lt_ctx *t, struct lt_flow *f, unsigned int len, u32 mods)
{
	struct lt_in *in = lt_tcp(t, f, len, mods);

	if (in)
		lt_frame_in(t, in, htons(ETH_P_IP), f->vlan);
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
	t->nkeep = 0;
	t->err = NULL;
	t->rx_count = 0;
	t->hooked = 0;
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
	if (t->dev) {
		rtnl_lock();
		netdev_rx_handler_unregister(t->dev);
		rtnl_unlock();
		unregister_netdev(t->dev);
		free_netdev(t->dev);
	}
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
	int err = -ENOMEM;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	skb_queue_head_init(&t->rxq);
	t->flows = kvcalloc(LT_MAX_FLOWS, sizeof(*t->flows), GFP_KERNEL);
	t->in = kvcalloc(LT_MAX_IN, sizeof(*t->in), GFP_KERNEL);
	t->arena = kvmalloc(LT_ARENA, GFP_KERNEL);
	dev = alloc_netdev(0, "lrotest%d", NET_NAME_ENUM, lt_dev_setup);
	if (!t->flows || !t->in || !t->arena || !dev)
		goto err;
	err = register_netdev(dev);
	if (err)
		goto err;
	rtnl_lock();
	err = dev_open(dev, NULL);
	if (!err)
		err = netdev_rx_handler_register(dev, lt_rx, t);
	rtnl_unlock();
	if (err) {
		unregister_netdev(dev);
		goto err;
	}
	t->dev = dev;
	return t;
err:
	if (dev)
		free_netdev(dev);
	lt_ctx_free(t);
	return ERR_PTR(err);
}
