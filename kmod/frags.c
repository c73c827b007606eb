// SPDX-License-Identifier: GPL-2.0
/*
 * Page mode: drivers that receive into pages hand LRO the fragments of a
 * frame, and LRO builds the skb. A segment that joins a held packet costs
 * no skb at all: its fragments are appended to the held one's. The driver's
 * page references pass to LRO with the call, whatever becomes of the frame.
 */

#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <linux/skbuff_ref.h>
#include <net/checksum.h>
#include <net/tcp.h>

#include "engine.h"

/* Bytes copied into the linear area of a frame LRO does not aggregate. */
#define LRO_MAX_PG_HLEN 64

static unsigned int lro_frags_count(const skb_frag_t *frags, int len)
{
	unsigned int n = 0;

	for (; len > 0; frags++, n++)
		len -= skb_frag_size(frags);
	return n;
}

static void lro_frags_put(skb_frag_t *frags, int len)
{
	unsigned int i, n = lro_frags_count(frags, len);

	for (i = 0; i < n; i++)
		__skb_frag_unref(&frags[i], false);
}

/* Checksum of @len bytes at offset @off of the frame in @frags. */
static __wsum lro_frags_csum(const skb_frag_t *frags, unsigned int off,
			     unsigned int len)
{
	unsigned int done = 0;
	__wsum csum = 0;

	for (; len; frags++) {
		unsigned int size = skb_frag_size(frags), n;

		if (off >= size) {
			off -= size;
			continue;
		}
		n = min(size - off, len);
		csum = csum_block_add(csum, csum_partial(skb_frag_address(frags) +
							 off, n, 0), done);
		done += n;
		len -= n;
		off = 0;
	}
	return csum;
}

/* TCP checksum check, as lro_skb_csum_ok() does for skbs. @sum covers
 * the frame from its network header on (CHECKSUM_COMPLETE drivers).
 */
static bool lro_frags_csum_ok(const struct net_lro_mgr *mgr,
			      const skb_frag_t *frags, unsigned int mac_len,
			      const struct lro_seg *seg, __wsum sum)
{
	unsigned int iphlen = seg->iph->ihl * 4;
	unsigned int tcplen = seg->ip_len - iphlen;
	__wsum csum;

	switch (mgr->ip_summed) {
	case CHECKSUM_UNNECESSARY:
		return true;
	case CHECKSUM_COMPLETE:
		csum = csum_sub(sum, csum_partial(seg->iph, iphlen, 0));
		break;
	default:
		csum = lro_frags_csum(frags, mac_len + iphlen, tcplen);
		break;
	}
	return !csum_fold(csum_tcpudp_nofold(seg->iph->saddr, seg->iph->daddr,
					     tcplen, IPPROTO_TCP, csum));
}

/*
 * Build an skb around the frame: the first @hlen bytes copied into its
 * linear area, the rest left in the fragments. NULL (and the page
 * references dropped) if no memory.
 */
static struct sk_buff *lro_gen_skb(struct net_lro_mgr *mgr, skb_frag_t *frags,
				   int len, int true_size, int hlen,
				   __wsum sum, u32 ip_summed)
{
	struct skb_shared_info *shinfo;
	struct sk_buff *skb;
	unsigned int i, n;

	skb = netdev_alloc_skb_ip_align(mgr->dev, hlen);
	if (!skb) {
		lro_frags_put(frags, len);
		return NULL;
	}
	skb_put_data(skb, skb_frag_address(&frags[0]), hlen);

	shinfo = skb_shinfo(skb);
	n = lro_frags_count(frags, len);
	for (i = 0; i < n; i++)
		shinfo->frags[i] = frags[i];
	shinfo->nr_frags = n;
	skb_frag_off_add(&shinfo->frags[0], hlen);
	skb_frag_size_sub(&shinfo->frags[0], hlen);
	if (!skb_frag_size(&shinfo->frags[0])) {
		/* all of the first fragment was header */
		__skb_frag_unref(&shinfo->frags[0], false);
		memmove(shinfo->frags, shinfo->frags + 1,
			--shinfo->nr_frags * sizeof(skb_frag_t));
	}
	skb->len = len;
	skb->data_len = len - hlen;
	skb->truesize += true_size;
	skb->ip_summed = ip_summed;
	skb->csum = sum;
	skb->protocol = eth_type_trans(skb, mgr->dev);
	return skb;
}

/* Append the frame's payload fragments to the held packet. */
static void lro_attach_frags(struct net_lro_desc *d, skb_frag_t *frags,
			     int len, int true_size, int hlen)
{
	struct skb_shared_info *pinfo = skb_shinfo(d->parent);
	unsigned int i, n = lro_frags_count(frags, len);

	skb_frag_off_add(&frags[0], hlen);
	skb_frag_size_sub(&frags[0], hlen);
	for (i = 0; i < n; i++) {
		if (!skb_frag_size(&frags[i])) {
			__skb_frag_unref(&frags[i], false);
			continue;
		}
		pinfo->frags[pinfo->nr_frags++] = frags[i];
	}
	d->parent->truesize += true_size;
}

/* Payload fragments the frame would add to a held packet. */
static unsigned int lro_payload_frags(const skb_frag_t *frags, int len,
				      int hlen)
{
	return lro_frags_count(frags, len) -
	       (skb_frag_size(&frags[0]) == hlen);
}

static int lro_frags_parse(struct net_lro_mgr *mgr, skb_frag_t *frags, int len,
			   void *priv, struct lro_seg *seg, int *hlen)
{
	unsigned int hl, size = skb_frag_size(&frags[0]);
	void *mac, *ip, *tcp;
	u64 flags;

	if (!mgr->get_frag_header ||
	    mgr->get_frag_header(frags, &mac, &ip, &tcp, &flags, priv) ||
	    (flags & (LRO_IPV4 | LRO_TCP)) != (LRO_IPV4 | LRO_TCP))
		return -EINVAL;
	seg->iph = ip;
	seg->tcph = tcp;
	/* Headers must be in the first fragment; if not, the frame is passed
	 * up with *hlen left as the caller's safe default.
	 */
	hl = (u8 *)tcp - (u8 *)mac;
	if (hl + sizeof(struct tcphdr) > size)
		return -EINVAL;
	hl += seg->tcph->doff * 4;
	if (hl > size || hl > len)
		return -EINVAL;
	*hlen = hl;
	seg->ip_len = len - ((u8 *)ip - (u8 *)mac);
	if (ntohs(seg->iph->tot_len) < seg->iph->ihl * 4 + seg->tcph->doff * 4)
		return -EINVAL;
	seg->payload = ntohs(seg->iph->tot_len) - seg->iph->ihl * 4 -
		       seg->tcph->doff * 4;
	return 0;
}

/*
 * Start a packet with this eligible frame. Returns the frame's skb if it
 * must be sent up after all (no descriptor free), else NULL.
 */
static struct sk_buff *lro_frags_start(struct net_lro_mgr *mgr,
				       skb_frag_t *frags, int len,
				       int true_size, u16 vlan_tag,
				       struct lro_seg *seg, int hlen)
{
	unsigned int nhoff = len - seg->ip_len - ETH_HLEN;
	struct net_lro_desc *d;
	struct sk_buff *skb;

	skb = lro_gen_skb(mgr, frags, len, true_size, hlen, 0,
			  CHECKSUM_UNNECESSARY);
	if (!skb)
		return NULL;	/* dropped for lack of memory */
	/* The headers are the skb's copy from now on: lro_gen_skb() has
	 * dropped the first fragment if it held nothing but them.
	 * eth_type_trans() pulled ETH_HLEN.
	 */
	seg->iph = (struct iphdr *)(skb->data + nhoff);
	seg->tcph = (struct tcphdr *)((u8 *)seg->iph + seg->iph->ihl * 4);
	if (vlan_tag)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan_tag);
	if (seg->tcph->psh || mgr->max_aggr < 2)
		return skb;
	d = lro_new_desc(mgr);
	if (!d)
		d = lro_desc_busy(mgr);
	if (!d)
		return skb;
	lro_init_desc(mgr, d, skb, seg);
	skb_set_network_header(skb, nhoff);
	skb_set_transport_header(skb, nhoff + seg->iph->ihl * 4);
	return NULL;
}

/*
 * Returns the skb to send up when the frame was not taken, or NULL when it
 * is held (or dropped for lack of memory).
 */
static struct sk_buff *lro_frags_rx(struct net_lro_mgr *mgr, skb_frag_t *frags,
				    int len, int true_size, u16 vlan_tag,
				    void *priv, __wsum sum)
{
	struct lro_seg seg = { .ifindex = mgr->dev->ifindex,
			       .vlan_tag = vlan_tag };
	int hlen = min3(LRO_MAX_PG_HLEN, len, (int)skb_frag_size(&frags[0]));
	struct net_lro_desc *d;
	struct sk_buff *skb;
	int why;

	lro_mgr_ready(mgr);
	mgr->stats.pkts_in++;
	/* network header on, as in skb mode and in bytes_out */
	mgr->stats.bytes_in += len - ETH_HLEN;
	if (mgr->max_desc <= 0 || !mgr->lro_arr ||
	    lro_frags_parse(mgr, frags, len, priv, &seg, &hlen))
		goto pass;

	d = lro_find_desc(mgr, &seg);
	if (!lro_seg_eligible(&seg) ||
	    !lro_frags_csum_ok(mgr, frags, len - seg.ip_len, &seg, sum)) {
		if (d)
			lro_flush(mgr, d, LRO_FLUSH_FLAGS);
		goto pass;
	}
	if (d) {
		why = lro_join_check(mgr, d, &seg);
		if (why == LRO_JOIN &&
		    skb_shinfo(d->parent)->nr_frags +
		    lro_payload_frags(frags, len, hlen) > MAX_SKB_FRAGS)
			why = LRO_FLUSH_SIZE;
		if (why == LRO_JOIN) {
			why = lro_join_account(mgr, d, &seg);
			lro_attach_frags(d, frags, len, true_size, hlen);
			if (why != LRO_JOIN)
				lro_flush(mgr, d, why);
			return NULL;
		}
		lro_flush(mgr, d, why);
	}
	return lro_frags_start(mgr, frags, len, true_size, vlan_tag, &seg, hlen);
pass:
	skb = lro_gen_skb(mgr, frags, len, true_size, hlen, sum,
			  mgr->ip_summed);
	if (skb && vlan_tag)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan_tag);
	return skb;
}

/**
 * lro_receive_frags - aggregate a frame received into pages, or pass it up
 * @lro_mgr: LRO manager
 * @frags: the frame's fragments; the first holds the MAC, IP and TCP headers
 * @len: frame length, MAC header included
 * @true_size: memory the fragments take (for truesize)
 * @priv: passed to @lro_mgr->get_frag_header
 * @sum: full checksum from the network header on, when @lro_mgr->ip_summed
 *	is CHECKSUM_COMPLETE
 *
 * The page references in @frags pass to LRO. The 2007 API took a
 * struct skb_frag_struct array; today's type is skb_frag_t.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_receive_frags(struct net_lro_mgr *lro_mgr, skb_frag_t *frags,
		       int len, int true_size, void *priv, __wsum sum)
{
	lro_vlan_hwaccel_receive_frags(lro_mgr, frags, len, true_size, 0,
				       priv, sum);
}
EXPORT_SYMBOL_GPL(lro_receive_frags);

/**
 * lro_vlan_hwaccel_receive_frags - lro_receive_frags() with a stripped tag
 * @lro_mgr: LRO manager
 * @frags: the frame's fragments; the first holds the MAC, IP and TCP headers
 * @len: frame length, MAC header included
 * @true_size: memory the fragments take (for truesize)
 * @vlan_tag: the 802.1Q TCI the hardware stripped; part of the flow key
 * @priv: passed to @lro_mgr->get_frag_header
 * @sum: full checksum from the network header on (CHECKSUM_COMPLETE)
 *
 * The 2007 struct vlan_group argument is gone (so is the type): the tag
 * is put into the skb and the stack finds the VLAN device.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_vlan_hwaccel_receive_frags(struct net_lro_mgr *lro_mgr,
				    skb_frag_t *frags, int len, int true_size,
				    u16 vlan_tag, void *priv, __wsum sum)
{
	struct sk_buff *skb;

	skb = lro_frags_rx(lro_mgr, frags, len, true_size, vlan_tag, priv, sum);
	if (skb)
		lro_deliver(lro_mgr, skb);
}
EXPORT_SYMBOL_GPL(lro_vlan_hwaccel_receive_frags);
