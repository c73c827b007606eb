// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the ways in and out. Frames that are not TCP, skb
 * layouts (page fragments, clones, page-fragment heads, page pool),
 * checksums the hardware did
 * or did not verify, netif_rx() and mgr->deliver, and page mode
 * (lro_receive_frags()).
 */

#include <linux/if_ether.h>

#include "harness.h"

/* UDP, IPv6 and ARP pass untouched and leave the held TCP flow alone */
static const char *c_passthrough(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_put(t, f, MSS, arg);
	lt_raw(t, htons(ETH_P_IP), IPPROTO_UDP, arg);
	lt_put(t, f, MSS, arg);
	lt_raw(t, htons(ETH_P_IPV6), IPPROTO_TCP, arg);
	lt_raw(t, htons(ETH_P_ARP), 0, arg);
	lt_put(t, f, MSS, arg);
	lt_flush_all(t);
	return NULL;
}

/* A segment whose original skb is kept: LRO gets a clone (as on veth,
 * where it is the clone a local TCP sender transmitted), with pp_recycle
 * set if @pp
 */
static void c_clone(struct lt_ctx *t, struct lt_flow *f, bool pp)
{
	struct sk_buff *skb = lt_make(t, f, MSS, 0), *clone;
	struct lt_in *in = &t->in[t->nin - 1];

	if (!skb)
		return;
	skb->pp_recycle = pp;
	clone = skb_clone(skb, GFP_KERNEL);
	if (!clone || t->nkeep == LT_MAX_KEEP) {
		kfree_skb(clone);
		kfree_skb(skb);
		t->err = "no memory for a clone";
		return;
	}
	in->cloned = true;
	in->pp = pp;
	t->keep[t->nkeep].skb = skb;
	t->keep[t->nkeep++].in = t->nin - 1;
	lt_feed(t, clone, f->vlan);
}

/* A segment with pp_recycle set, as a page pool driver builds them */
static void c_pp(struct lt_ctx *t, struct lt_flow *f)
{
	struct sk_buff *skb = lt_make(t, f, MSS, 0);

	if (skb) {
		skb->pp_recycle = 1;
		t->in[t->nin - 1].pp = true;
		lt_feed(t, skb, 0);
	}
}

enum {
	L_PAGED, L_PAGED6, L_SPLIT, L_MIXED, L_CLONE, L_PP, L_FILL,
	L_CLONE_FILL, L_HEADFRAG, L_HEADFRAG_FILL, L_PP_MIXED, L_PP_CLONE,
};

/*
 * Payload in page fragments: moved (or, from a clone, referenced) into the
 * frags[] of the packet's last skb while they fit, a page-fragment head
 * stolen as a fragment, anything else chained on the frag_list; the
 * layout is checked by lt_check_layout().
 */
static const char *c_layout(struct lt_ctx *t, unsigned long arg)
{
	static const u8 mixed[][2] = {	/* layout, fragments */
		{ LT_PAGED, 6 }, { LT_PAGED, 6 }, { LT_PAGED, 6 },
		{ LT_LINEAR, 0 }, { LT_SPLIT, 1 }, { LT_PAGED, 1 },
		{ LT_HEADFRAG, 1 }, { LT_PAGED, 1 },
	};
	struct lt_flow *f = lt_flow(t);
	unsigned int i;

	t->layout = arg == L_SPLIT ? LT_SPLIT : LT_PAGED;
	t->nfrags = arg == L_PAGED6 ? 6 : 1;
	switch (arg) {
	case L_MIXED:
		for (i = 0; i < ARRAY_SIZE(mixed); i++) {
			t->layout = mixed[i][0];
			t->nfrags = mixed[i][1];
			lt_seg(t, f, MSS, 0);
		}
		break;
	case L_CLONE:	/* cloned first and third */
		c_clone(t, f, false);
		lt_seg(t, f, MSS, 0);
		c_clone(t, f, false);
		lt_seg(t, f, MSS, 0);
		break;
	case L_CLONE_FILL:	/* veth: every segment a clone */
		for (i = 0; i < 40; i++)
			c_clone(t, f, false);
		break;
	case L_PP:	/* page pool fragments never go into others' */
		lt_seg(t, f, MSS, 0);
		c_pp(t, f);
		lt_seg(t, f, MSS, 0);
		break;
	case L_PP_MIXED:	/* ... but into a page pool skb's, and back */
		c_pp(t, f);
		c_pp(t, f);
		lt_segs(t, f, 2, MSS);
		c_pp(t, f);
		c_pp(t, f);
		break;
	case L_PP_CLONE:	/* a page pool clone's pages: chained */
		c_pp(t, f);
		c_clone(t, f, true);
		c_pp(t, f);
		break;
	case L_HEADFRAG:
	case L_HEADFRAG_FILL:
		t->layout = LT_HEADFRAG;
		lt_segs(t, f, arg == L_HEADFRAG ? 4 : 30, MSS);
		break;
	case L_FILL:	/* past MAX_SKB_FRAGS: the frag_list skb's frags[] */
		lt_segs(t, f, 40, MSS);
		break;
	default:
		lt_segs(t, f, arg == L_PAGED6 ? 5 : 4, MSS);
	}
	lt_flush_all(t);
	return NULL;
}

static void c_zc_complete(struct sk_buff *skb, struct ubuf_info *uarg,
			  bool success)
{
}

static const struct ubuf_info_ops c_zc_ops = { .complete = c_zc_complete };

enum { R_FRAG_LIST, R_PFMEMALLOC, R_ZEROCOPY };

/* A segment whose skb LRO must pass (lro_skb_plain()), between two that
 * merge: first (R_FRAG_LIST) or second.
 */
static const char *c_plain(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	struct sk_buff *skb, *list;
	unsigned int hlen;

	t->layout = LT_PAGED;
	if (arg != R_FRAG_LIST)
		lt_seg(t, f, MSS, 0);
	t->layout = arg == R_FRAG_LIST ? LT_LINEAR : LT_PAGED;
	skb = lt_make(t, f, MSS, 0);
	if (!skb)
		return NULL;
	switch (arg) {
	case R_FRAG_LIST:	/* the payload in a frag_list skb */
		hlen = t->in[t->nin - 1].hlen;
		list = alloc_skb(MSS, GFP_KERNEL);
		if (!list) {
			kfree_skb(skb);
			return "no memory for a frag_list";
		}
		skb_put_data(list, skb->data + hlen, MSS);
		__skb_trim(skb, hlen);
		skb_shinfo(skb)->frag_list = list;
		skb->len += MSS;
		skb->data_len += MSS;
		skb->truesize += list->truesize;
		break;
	case R_PFMEMALLOC:
		skb->pfmemalloc = 1;
		break;
	case R_ZEROCOPY:	/* as a MSG_ZEROCOPY sender's, on veth */
		t->zc = (struct ubuf_info) { .ops = &c_zc_ops,
					     .refcnt = REFCOUNT_INIT(1),
					     .flags = SKBFL_ZEROCOPY_FRAG };
		skb_zcopy_init(skb, &t->zc);
		break;
	}
	lt_feed(t, skb, 0);
	t->layout = LT_PAGED;
	lt_segs(t, f, 2, MSS);
	lt_flush_all(t);
	return NULL;
}

/*
 * arg: ip_summed | bad << 8 | LT_FRAMES. PSH first (passes alone, verified),
 * A, B, X (bad or not), C.
 */
const char *c_csum(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow_of(t, arg & LT_V6);
	unsigned long frames = arg & LT_FRAMES;

	if (f->v6)
		lt_ext(f, 1, 8);	/* not in the pseudo-header */
	t->summed = arg & 0xff;
	t->mgr.ip_summed = arg & 0xff;
	t->layout = LT_PAGED;
	t->nfrags = 2;
	lt_put(t, f, MSS, LT_PSH | frames);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, (arg & BIT(8) ? LT_BAD : 0) | frames);
	lt_put(t, f, MSS, frames);
	lt_flush_all(t);
	return NULL;
}

/* Without LRO_F_NAPI: netif_rx(), so nothing is up before the softirq */
static const char *c_netif_rx(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	struct sk_buff *skb[4];
	unsigned int i, early;

	t->mgr.features = 0;
	for (i = 0; i < 4; i++)
		skb[i] = lt_make(t, f, MSS, i ? 0 : LT_PSH);
	if (t->err) {
		for (i = 0; i < 4; i++)
			kfree_skb(skb[i]);
		return NULL;
	}
	local_bh_disable();
	for (i = 0; i < 4; i++)
		lro_receive_skb(&t->mgr, skb[i], NULL);
	lro_flush_all(&t->mgr);
	early = skb_queue_len(&t->rxq);
	local_bh_enable();
	return early ? "sent up before the softirq" : NULL;
}

static void c_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	struct lt_ctx *t = container_of(mgr, struct lt_ctx, mgr);

	t->hooked++;
	lt_seen(t, skb);
	skb_queue_tail(&t->rxq, skb);
}

/* mgr->deliver takes every packet, passed or aggregated */
static const char *c_hook(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	t->mgr.deliver = c_deliver;
	lt_seg(t, f, MSS, LT_PSH);
	lt_segs(t, f, 3, MSS);
	lt_flush_all(t);
	if (t->hooked != 2 || t->rx_count)
		return lt_fail(t, "deliver() got %u packets, netif_receive_skb() %u",
			       t->hooked, t->rx_count);
	return NULL;
}

enum { F_MERGE, F_MAXFRAGS1, F_MAXFRAGS2, F_VLAN, F_SPLIT_HDR };

/* Page mode */
static const char *c_frames(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t), *g;
	unsigned int i, n = MAX_SKB_FRAGS;

	switch (arg) {
	case F_MERGE:
		for (i = 0; i < 4; i++)
			lt_frame(t, f, MSS, 0);
		break;
	case F_MAXFRAGS1:	/* headers alone in fragment 0 */
		for (i = 0; i < n + 3; i++)
			lt_frame(t, f, MSS, 0);
		snprintf(t->wantbuf, sizeof(t->wantbuf), "%uS 3B", n);
		t->want = t->wantbuf;
		break;
	case F_MAXFRAGS2:	/* payload in fragment 0 too: 2 each */
		t->pg_head = 200;
		for (i = 0; i < 2 * (n / 2) + 3; i++)
			lt_frame(t, f, MSS, 0);
		snprintf(t->wantbuf, sizeof(t->wantbuf), "%uSx2 3B", n / 2);
		t->want = t->wantbuf;
		break;
	case F_VLAN:
		g = lt_flow(t);
		*g = *f;
		f->vlan = 5;
		g->vlan = 6;
		for (i = 0; i < 4; i++)
			lt_frame(t, i & 1 ? g : f, MSS, 0);
		break;
	case F_SPLIT_HDR:	/* TCP header not all in fragment 0 */
		t->pg_head = -10;
		lt_frame(t, f, MSS, 0);
		break;
	}
	lt_flush_all(t);
	return NULL;
}

/* ip_summed, and whether X is bad: csum_*, frames_csum_*, v6_csum_* */
const struct lt_variant lt_csums[] = {
	{ "none_good", CHECKSUM_NONE, "1p 4B" },
	{ "none_bad", CHECKSUM_NONE | BIT(8), "1p 2F 1p 1B" },
	{ "complete_good", CHECKSUM_COMPLETE, "1p 4B" },
	{ "complete_bad", CHECKSUM_COMPLETE | BIT(8), "1p 2F 1p 1B" },
	{ }
};

static const struct lt_case cases[] = {
	{ "passthrough", c_passthrough, 0, "1px3 3B" },
	{ "frames_passthrough", c_passthrough, LT_FRAMES, "1px3 3B" },
	{ "paged_steal", c_layout, L_PAGED, "4B" },
	{ "paged_frag_list", c_layout, L_PAGED6, "5B" },
	{ "split_frag_list", c_layout, L_SPLIT, "4B" },
	{ "forward_mixed", c_layout, L_MIXED, "8B" },
	{ "cloned", c_layout, L_CLONE, "4B" },
	{ "cloned_fill", c_layout, L_CLONE_FILL, "40B" },
	{ "paged_fill", c_layout, L_FILL, "40B" },
	{ "headfrag_steal", c_layout, L_HEADFRAG, "4B" },
	{ "headfrag_fill", c_layout, L_HEADFRAG_FILL, "30B" },
	{ "page_pool", c_layout, L_PP, "3B" },
	{ "page_pool_mixed", c_layout, L_PP_MIXED, "6B" },
	{ "page_pool_clone", c_layout, L_PP_CLONE, "3B" },
	{ "frag_list_first", c_plain, R_FRAG_LIST, "1p 2B" },
	{ "pfmemalloc", c_plain, R_PFMEMALLOC, "1F 1p 2B" },
	{ "zerocopy", c_plain, R_ZEROCOPY, "1F 1p 2B" },
	{ "csum_", c_csum, 0, NULL, lt_csums },
	{ "frames_csum_", c_csum, LT_FRAMES, NULL, lt_csums },
	{ "netif_rx", c_netif_rx, 0, "1p 3B" },
	{ "deliver_hook", c_hook, 0, "1p 3B" },
	{ "frames_merge", c_frames, F_MERGE, "4B" },
	{ "frames_max_skb_frags", c_frames, F_MAXFRAGS1, NULL },
	{ "frames_max_skb_frags_2", c_frames, F_MAXFRAGS2, NULL },
	{ "frames_vlan_keyed", c_frames, F_VLAN, "2Bx2" },
	{ "frames_split_headers", c_frames, F_SPLIT_HDR, "1p" },
};

const struct lt_case_set lt_path_cases = { cases, ARRAY_SIZE(cases) };
