// SPDX-License-Identifier: GPL-2.0
/* The segments lro_bench feeds (train.h). */

#include <linux/etherdevice.h>
#include <linux/jhash.h>
#include <net/ip.h>
#include <net/tcp.h>

#include "train.h"

#define LB_TCP_HLEN	(sizeof(struct tcphdr) + TCPOLEN_TSTAMP_ALIGNED)
#define LB_HLEN		(ETH_HLEN + sizeof(struct iphdr) + LB_TCP_HLEN)
#define LB_SADDR	htonl(0x0a4d0001)	/* 10.77.0.1 */
#define LB_DADDR	htonl(0x0a4d0002)	/* 10.77.0.2 */
#define LB_SPORT	10000
#define LB_DPORT	5001

void lb_flow_reset(struct lb_flow *f, unsigned int index)
{
	f->seq = 1;
	f->id = 0;
	f->sport = LB_SPORT + index;
	f->hash = jhash_3words((__force u32)LB_SADDR, (__force u32)LB_DADDR,
			       f->sport << 16 | LB_DPORT, 0);
}

/* One MSS-sized segment of @f: headers linear, payload in a fragment. */
static struct sk_buff *lb_build(const struct lb_train *t, struct lb_flow *f)
{
	struct sk_buff *skb;
	struct ethhdr *eth;
	struct iphdr *iph;
	struct tcphdr *th;
	__be32 *opt;

	skb = netdev_alloc_skb_ip_align(t->dev, LB_HLEN);
	if (!skb)
		return NULL;
	eth = skb_put(skb, ETH_HLEN);
	ether_addr_copy(eth->h_dest, t->dev->dev_addr);
	eth_zero_addr(eth->h_source);
	eth->h_source[5] = 1;
	eth->h_proto = htons(ETH_P_IP);

	iph = skb_put_zero(skb, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tot_len = htons(sizeof(*iph) + LB_TCP_HLEN + t->mss);
	iph->id = htons(f->id++);
	iph->frag_off = htons(IP_DF);
	iph->ttl = 64;
	iph->protocol = IPPROTO_TCP;
	iph->saddr = LB_SADDR;
	iph->daddr = LB_DADDR;
	iph->check = ip_fast_csum((u8 *)iph, iph->ihl);

	th = skb_put_zero(skb, LB_TCP_HLEN);
	th->source = htons(f->sport);
	th->dest = htons(LB_DPORT);
	th->seq = htonl(f->seq);
	f->seq += t->mss;
	th->ack_seq = htonl(1);
	th->doff = LB_TCP_HLEN / 4;
	th->ack = 1;
	th->window = htons(8192);
	opt = (__be32 *)(th + 1);
	opt[0] = htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
		       (TCPOPT_TIMESTAMP << 8) | TCPOLEN_TIMESTAMP);
	opt[1] = htonl(1000);	/* TSval, the same for the whole train */
	opt[2] = htonl(1);	/* TSecr */

	get_page(t->page);
	skb_add_rx_frag(skb, 0, t->page, 0, t->mss, PAGE_SIZE / 2);
	skb->protocol = eth_type_trans(skb, t->dev);
	skb->ip_summed = CHECKSUM_UNNECESSARY;
	/* As an RSS NIC would: GRO picks its hash bucket from it. */
	skb_set_hash(skb, f->hash, PKT_HASH_TYPE_L4);
	return skb;
}

int lb_train_build(const struct lb_train *t, struct lb_flow *flows,
		   unsigned int nflows, struct sk_buff **skbs,
		   unsigned int segs)
{
	unsigned int i;

	for (i = 0; i < segs; i++) {
		skbs[i] = lb_build(t, &flows[i % nflows]);
		if (!skbs[i]) {
			while (i--) {
				kfree_skb(skbs[i]);
				skbs[i] = NULL;
			}
			return -ENOMEM;
		}
	}
	return 0;
}
