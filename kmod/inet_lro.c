// SPDX-License-Identifier: GPL-2.0
/*
 * The 2007 inet_lro driver API, skb mode and flushing. Page mode is in
 * frags.c; the engine behind both in engine.c.
 */

#include <linux/if_vlan.h>
#include <linux/module.h>

#include "desc.h"
#include "engine.h"
#include "flush.h"

/**
 * lro_receive_skb - aggregate a received skb, or pass it up
 * @lro_mgr: LRO manager
 * @skb: received skb, data at the network header (eth_type_trans() done)
 * @priv: passed to @lro_mgr->get_skb_header
 *
 * Takes @skb in every case: it is held in a descriptor, joined to a held
 * packet, or (not TCP over IPv4 or IPv6, not eligible, no descriptor free) sent up the
 * stack as it is, after any packet held for the same flow.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_receive_skb(struct net_lro_mgr *lro_mgr, struct sk_buff *skb,
		     void *priv)
{
	/* lro_rx_skb() counted a passed skb in pkts_out/bytes_out already */
	if (lro_rx_skb(lro_mgr, skb, priv) == LRO_PASS)
		__lro_deliver(lro_mgr, skb);
}
EXPORT_SYMBOL_GPL(lro_receive_skb);

/**
 * lro_vlan_hwaccel_receive_skb - lro_receive_skb() for a VLAN-accelerated skb
 * @lro_mgr: LRO manager
 * @skb: received skb, the tag stripped by the hardware
 * @vlan_tag: the stripped 802.1Q TCI
 * @priv: passed to @lro_mgr->get_skb_header
 *
 * In 2007 this took a struct vlan_group, which no longer exists: the tag
 * goes into the skb (__vlan_hwaccel_put_tag()) and the stack's VLAN code
 * finds the VLAN device. The tag is part of the flow key.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_vlan_hwaccel_receive_skb(struct net_lro_mgr *lro_mgr,
				  struct sk_buff *skb, u16 vlan_tag,
				  void *priv)
{
	__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), vlan_tag);
	lro_receive_skb(lro_mgr, skb, priv);
}
EXPORT_SYMBOL_GPL(lro_vlan_hwaccel_receive_skb);

/**
 * lro_flush_all - send every held packet up the stack
 * @lro_mgr: LRO manager
 *
 * Call at the end of a NAPI poll, so no segment waits longer than one
 * receive batch. Counted as LRO_FLUSH_BATCH.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_flush_all(struct net_lro_mgr *lro_mgr)
{
	lro_flush_all_reason(lro_mgr, LRO_FLUSH_BATCH);
}
EXPORT_SYMBOL_GPL(lro_flush_all);

/**
 * lro_flush_pkt - send up the packet held for one flow
 * @lro_mgr: LRO manager
 * @iph: IPv4 header of a packet of the flow
 * @tcph: TCP header of a packet of the flow
 *
 * Does nothing if no packet is held for the flow (the 2007 code
 * dereferenced a NULL descriptor then). Flows are matched by addresses and
 * ports; held packets of the flow on any VLAN are sent up. IPv4 only, as
 * in 2007: lro_flush_all() sends IPv6 flows up.
 *
 * Context: the manager's receive context (NAPI poll), BHs disabled.
 */
void lro_flush_pkt(struct net_lro_mgr *lro_mgr, struct iphdr *iph,
		   struct tcphdr *tcph)
{
	struct lro_seg seg = { .iph = iph, .tcph = tcph };
	struct net_lro_desc *d;

	if (!lro_has_descs(lro_mgr))
		return;
	lro_mgr_ready(lro_mgr);
	lro_seg_hash(&seg);
	while ((d = lro_find_flow(lro_mgr, &seg)))
		lro_flush(lro_mgr, d, LRO_FLUSH_PKT);
}
EXPORT_SYMBOL_GPL(lro_flush_pkt);
