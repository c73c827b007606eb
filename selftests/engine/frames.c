// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: page mode. A recorded segment as a frame in pages, to
 * lro_receive_frags(), and the get_frag_header() a driver would give.
 */

#include <linux/etherdevice.h>
#include <net/ipv6.h>

#include "harness.h"

/*
 * The TCP header of the IPv6 packet at @ip6, as a NIC's parser finds it:
 * behind any extension headers lt_ip6() writes, a Fragment header too.
 * Whether such a segment may be held is the engine's call, not ours.
 */
int lt_header6(struct ipv6hdr *ip6, void **tcpudp_hdr, u64 *hdr_flags)
{
	u8 h = ip6->nexthdr, *p = (u8 *)(ip6 + 1);

	*hdr_flags = LRO_IPV6;
	while (h == NEXTHDR_HOP || h == NEXTHDR_ROUTING || h == NEXTHDR_DEST ||
	       h == NEXTHDR_FRAGMENT) {
		unsigned int len = h == NEXTHDR_FRAGMENT ?
				   sizeof(struct frag_hdr) : (p[1] + 1) * 8;

		h = p[0];
		p += len;
	}
	if (h != IPPROTO_TCP)
		return -EINVAL;
	*tcpudp_hdr = p;
	*hdr_flags |= LRO_TCP;
	return 0;
}

/* get_frag_header(): the frames the harness builds start with an Ethernet
 * header, then IPv4 or IPv6
 */
int lt_frag_header(skb_frag_t *frag, void **mac_hdr, void **ip_hdr,
		   void **tcpudp_hdr, u64 *hdr_flags, void *priv)
{
	struct ethhdr *eth = skb_frag_address(frag);
	struct iphdr *iph = (struct iphdr *)(eth + 1);

	*hdr_flags = 0;
	*mac_hdr = eth;
	*ip_hdr = iph;
	if (eth->h_proto == htons(ETH_P_IPV6))
		return lt_header6((struct ipv6hdr *)iph, tcpudp_hdr, hdr_flags);
	if (eth->h_proto != htons(ETH_P_IP))
		return -EINVAL;
	*hdr_flags = LRO_IPV4;
	if (iph->protocol != IPPROTO_TCP)
		return -EINVAL;
	*tcpudp_hdr = (u8 *)iph + iph->ihl * 4;
	*hdr_flags |= LRO_TCP;
	return 0;
}

/* The frame in pages (Ethernet header and t->pg_head payload
 * bytes in fragment 0, the rest in t->nfrags more), to lro_receive_frags().
 */
void lt_frame_in(struct lt_ctx *t, struct lt_in *in, __be16 proto, u16 vlan)
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
