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

#include "desc.h"
#include "engine.h"
#include "flush.h"
#include "frags.h"

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

/* TCP checksum check, as lro_skb_csum_ok() does for skbs: the skb built
 * for a frame that passes it needs no second check by the stack.
 */
bool lro_frags_csum_ok(const struct net_lro_mgr *mgr, struct lro_frame *f,
		       const struct lro_seg *seg)
{
	unsigned int nhlen = lro_seg_nhlen(seg);
	unsigned int tcplen = seg->ip_len - nhlen;
	__wsum csum;

	switch (mgr->ip_summed) {
	case CHECKSUM_UNNECESSARY:
		return true;
	case CHECKSUM_COMPLETE:
		csum = csum_sub(f->sum, csum_partial(seg->iph, nhlen, 0));
		break;
	default:
		csum = lro_frags_csum(f->frags, f->len - seg->ip_len + nhlen,
				      tcplen);
		break;
	}
	if (lro_tcp_csum(seg, tcplen, csum))
		return false;
	f->summed = CHECKSUM_UNNECESSARY;
	return true;
}

/*
 * Build an skb around the frame: the first f->hlen bytes copied into its
 * linear area, the rest left in the fragments. NULL (and the page
 * references dropped) if no memory.
 */
static struct sk_buff *lro_gen_skb(struct net_lro_mgr *mgr,
				   const struct lro_frame *f, u16 vlan_tag)
{
	struct skb_shared_info *shinfo;
	struct sk_buff *skb;
	unsigned int i, n;

	skb = netdev_alloc_skb_ip_align(mgr->dev, f->hlen);
	if (!skb) {
		lro_frags_put(f->frags, f->len);
		return NULL;
	}
	skb_put_data(skb, skb_frag_address(&f->frags[0]), f->hlen);

	shinfo = skb_shinfo(skb);
	n = lro_frags_count(f->frags, f->len);
	for (i = 0; i < n; i++)
		shinfo->frags[i] = f->frags[i];
	shinfo->nr_frags = n;
	skb_frag_off_add(&shinfo->frags[0], f->hlen);
	skb_frag_size_sub(&shinfo->frags[0], f->hlen);
	if (!skb_frag_size(&shinfo->frags[0])) {
		/* all of the first fragment was header */
		__skb_frag_unref(&shinfo->frags[0], false);
		memmove(shinfo->frags, shinfo->frags + 1,
			--shinfo->nr_frags * sizeof(skb_frag_t));
	}
	skb->len = f->len;
	skb->data_len = f->len - f->hlen;
	skb->truesize += f->true_size;
	skb->ip_summed = f->summed;
	skb->csum = f->sum;
	skb->protocol = eth_type_trans(skb, mgr->dev);
	if (vlan_tag)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan_tag);
	return skb;
}

/* Payload fragments the frame would add to a held packet. */
static unsigned int lro_payload_frags(const struct lro_frame *f)
{
	return lro_frags_count(f->frags, f->len) -
	       (skb_frag_size(&f->frags[0]) == f->hlen);
}

/*
 * Room for the frame's payload fragments in the frags[] of the held
 * packet's last skb (its head, unless skb mode chained others: a manager
 * may use both). Page mode does not chain: it flushes (LRO_FLUSH_SIZE).
 * Never into a clone's frags[], nor a page pool skb's (lro_can_fill()).
 */
bool lro_frags_fit(const struct net_lro_desc *d, const struct lro_frame *f)
{
	const struct sk_buff *tail = d->last_skb ?: d->parent;

	return !skb_cloned(tail) && !tail->pp_recycle &&
	       skb_shinfo(tail)->nr_frags + lro_payload_frags(f) <=
	       MAX_SKB_FRAGS;
}

/* Append the frame's payload fragments to the held packet, whose length
 * is booked already (lro_join_account()).
 */
void lro_frags_attach(struct net_lro_desc *d, struct lro_frame *f)
{
	struct sk_buff *parent = d->parent, *tail = d->last_skb ?: parent;
	struct skb_shared_info *tinfo = skb_shinfo(tail);
	unsigned int i, n = lro_frags_count(f->frags, f->len);

	skb_frag_off_add(&f->frags[0], f->hlen);
	skb_frag_size_sub(&f->frags[0], f->hlen);
	for (i = 0; i < n; i++) {
		if (!skb_frag_size(&f->frags[i])) {
			__skb_frag_unref(&f->frags[i], false);
			continue;
		}
		tinfo->frags[tinfo->nr_frags++] = f->frags[i];
	}
	parent->truesize += f->true_size;
	if (tail != parent) {
		tail->len += f->len - f->hlen;
		tail->data_len += f->len - f->hlen;
		tail->truesize += f->true_size;
	}
}

/* Find the headers through the driver's get_frag_header(); they must be in
 * the first fragment. If not, the frame is passed up with f->hlen left as
 * the caller's safe default.
 */
static int lro_frags_parse(struct net_lro_mgr *mgr, struct lro_frame *f,
			   void *priv, struct lro_seg *seg)
{
	unsigned int hl, size = skb_frag_size(&f->frags[0]);
	void *mac, *ip, *tcp;
	u64 flags;

	if (!mgr->get_frag_header ||
	    mgr->get_frag_header(f->frags, &mac, &ip, &tcp, &flags, priv) ||
	    !(flags & LRO_TCP) || !(flags & (LRO_IPV4 | LRO_IPV6)))
		return -EINVAL;
	seg->ipv6 = !!(flags & LRO_IPV6);
	seg->iph = ip;
	seg->tcph = tcp;
	hl = (u8 *)tcp - (u8 *)mac;
	if (hl + sizeof(struct tcphdr) > size)
		return -EINVAL;
	hl += seg->tcph->doff * 4;
	if (hl > size || hl > f->len || (seg->ipv6 && !lro_ip6_chain_ok(seg)))
		return -EINVAL;
	f->hlen = hl;
	seg->ip_len = f->len - ((u8 *)ip - (u8 *)mac);
	return lro_seg_set_payload(seg);
}

/*
 * Start a packet with this eligible frame: build its skb (f->skb), then
 * take a descriptor. LRO_PASS: none is free, send f->skb up.
 */
enum lro_verdict lro_frags_start(struct net_lro_mgr *mgr, struct lro_frame *f,
				 struct lro_seg *seg)
{
	unsigned int nhoff = f->len - seg->ip_len - ETH_HLEN;
	unsigned int nhlen = lro_seg_nhlen(seg);
	struct net_lro_desc *d;
	struct sk_buff *skb;

	skb = lro_gen_skb(mgr, f, seg->vlan_tag);
	if (!skb)
		return LRO_HELD;	/* dropped for lack of memory */
	f->skb = skb;
	/* The headers are the skb's copy from now on: lro_gen_skb() has
	 * dropped the first fragment if it held nothing but them.
	 * eth_type_trans() pulled ETH_HLEN.
	 */
	seg->iph = (struct iphdr *)(skb->data + nhoff);
	seg->tcph = (struct tcphdr *)((u8 *)seg->iph + nhlen);
	d = lro_get_desc(mgr);
	if (!d)
		return LRO_PASS;
	lro_init_desc(mgr, d, skb, seg);
	skb_set_network_header(skb, nhoff);
	skb_set_transport_header(skb, nhoff + nhlen);
	return LRO_HELD;
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
	struct lro_frame f = {
		.frags = frags,
		.len = len,
		.true_size = true_size,
		.hlen = min3(LRO_MAX_PG_HLEN, len,
			     (int)skb_frag_size(&frags[0])),
		.sum = sum,
		.summed = mgr->ip_summed,
	};

	lro_mgr_ready(mgr);
	mgr->stats.pkts_in++;
	/* network header on, as in skb mode and in bytes_out */
	mgr->stats.bytes_in += len - ETH_HLEN;
	if (!lro_has_descs(mgr) ||
	    lro_frags_parse(mgr, &f, priv, &seg))
		goto pass;
	if (lro_receive_frame(mgr, &seg, &f) == LRO_HELD)
		return NULL;
	if (f.skb)
		return f.skb;
pass:
	return lro_gen_skb(mgr, &f, vlan_tag);
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
