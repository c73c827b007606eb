// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the cases. Each feeds segment trains through the
 * inet_lro API and the table says what must come out (harness.h). Unless a
 * case changes it, the manager has 8 descriptors, max_aggr 64 and
 * LRO_F_NAPI, and segments are linear CHECKSUM_UNNECESSARY skbs of flows
 * with timestamps, DF and incrementing IP IDs.
 */

#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/module.h>

#include "harness.h"

#define MSS	1448	/* with timestamps */
#define MSS_NOTS 1460
#define C_FRAMES	BIT(30)	/* page mode: lro_receive_frags() */
#define C_EMPTY		BIT(29)	/* no payload */

/* One segment, to lro_receive_skb() or, with C_FRAMES, as a frame */
static void put(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
		unsigned long mods)
{
	if (mods & C_EMPTY)
		len = 0;
	if (mods & C_FRAMES)
		lt_frame(t, f, len, mods & ~(C_FRAMES | C_EMPTY));
	else
		lt_seg(t, f, len, mods & ~(C_FRAMES | C_EMPTY));
}

static int c_skb_header(struct sk_buff *skb, void **ip_hdr, void **tcpudp_hdr,
			u64 *hdr_flags, void *priv)
{
	struct iphdr *iph = (struct iphdr *)skb->data;

	*hdr_flags = 0;
	if (skb->protocol != htons(ETH_P_IP))
		return -EINVAL;
	*ip_hdr = iph;
	*hdr_flags = LRO_IPV4;
	if (iph->protocol != IPPROTO_TCP)
		return -EINVAL;
	*tcpudp_hdr = (u8 *)iph + iph->ihl * 4;
	*hdr_flags |= LRO_TCP;
	return 0;
}

/* Full segments of one flow; arg 1: no timestamps, 2: get_skb_header */
static const char *c_merge(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	f->ts = !(arg & 1);
	if (arg & 2)
		t->mgr.get_skb_header = c_skb_header;
	lt_segs(t, f, 4, f->ts ? MSS : MSS_NOTS);
	lt_flush_all(t);
	return NULL;
}

/* A, then X with the changes in arg (never merged), then C, D */
static const char *c_reject(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	unsigned long frames = arg & C_FRAMES;

	put(t, f, MSS, frames);
	put(t, f, MSS, arg);
	put(t, f, MSS, frames);
	put(t, f, MSS, frames);
	lt_flush_all(t);
	return NULL;
}

enum { J_TTL, J_TOS, J_DF, J_ACK, J_WIN, J_TSVAL, J_IPID, J_GAP, J_RETX };

/* A, B, then the flow changes for X, Y */
static const char *c_join(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_segs(t, f, 2, MSS);
	switch (arg) {
	case J_TTL:
		f->ttl--;
		break;
	case J_TOS:
		f->tos = 0x10;
		break;
	case J_DF:
		f->df = false;
		break;
	case J_ACK:
		f->ack += 1000;
		break;
	case J_WIN:
		f->win++;
		break;
	case J_TSVAL:
		f->tsval++;
		break;
	case J_IPID:
		f->id += 5;
		break;
	case J_GAP:
		f->seq += MSS;
		break;
	case J_RETX:	/* B again */
		f->seq -= MSS;
		break;
	}
	lt_segs(t, f, 2, MSS);
	lt_flush_all(t);
	return NULL;
}

static const struct {
	u16 id[4];
	bool df;
} c_ids[] = {
	{ { 7, 7, 7, 7 }, true },		/* fixed */
	{ { 7, 7, 7, 7 }, false },		/* fixed without DF */
	{ { 5, 6, 6, 7 }, true },		/* incrementing, then not */
	{ { 9, 9, 10, 11 }, true },		/* fixed, then not */
	{ { 0xfffe, 0xffff, 0, 1 }, true },	/* incrementing over 0 */
};

static const char *c_ipid(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	unsigned int i;

	f->fixedid = true;
	f->df = c_ids[arg].df;
	for (i = 0; i < 4; i++) {
		f->id = c_ids[arg].id[i];
		lt_seg(t, f, MSS, 0);
	}
	lt_flush_all(t);
	return NULL;
}

/* PSH first (alone), A, B, C with PSH (ends it), D, E */
static const char *c_push(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_seg(t, f, MSS, LT_PSH);
	lt_segs(t, f, 2, MSS);
	lt_seg(t, f, MSS, LT_PSH);
	lt_segs(t, f, 2, MSS);
	lt_flush_all(t);
	return NULL;
}

/* A, B, a short one (joins, ends it), D, E */
static const char *c_short(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_segs(t, f, 2, MSS);
	lt_seg(t, f, 500, 0);
	lt_segs(t, f, 2, MSS);
	lt_flush_all(t);
	return NULL;
}

/* 1000 bytes, then full segments: longer than the first never joins */
static const char *c_longer(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_seg(t, f, 1000, 0);
	lt_segs(t, f, 2, MSS);
	lt_flush_all(t);
	return NULL;
}

static const char *c_max_aggr(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	t->mgr.max_aggr = arg;
	lt_segs(t, f, 7, MSS);
	lt_flush_all(t);
	return NULL;
}

/* arg: segment payload | segments << 16 | no timestamps << 31 */
#define C_SIZE(len, n, nots) ((len) | (n) << 16 | (unsigned long)(nots) << 31)
static const char *c_size(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	f->ts = !(arg >> 31);
	lt_segs(t, f, (arg >> 16) & 0x7fff, arg & 0xffff);
	lt_flush_all(t);
	return NULL;
}

/* 2 descriptors, 3 flows of 2, 3 and 2 segments, one after the other */
static const char *c_desc(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f;
	unsigned int i, j;

	if (lt_set_desc(t, 2))
		return NULL;
	t->mgr.features |= arg & LRO_F_EVICT;
	t->no_desc = arg & LRO_F_EVICT ? 1 : 2;
	for (i = 0; i < 3; i++) {
		f = lt_flow(t);
		for (j = 0; j < 2 + (i == 1); j++)
			put(t, f, MSS, arg & C_FRAMES);
	}
	lt_flush_all(t);
	return NULL;
}

/* One descriptor, one flow after the other: all share hash chain 0,
 * kept in descriptor 0's own slot
 */
static const char *c_one_desc(struct lt_ctx *t, unsigned long arg)
{
	unsigned int i;

	if (lt_set_desc(t, 1))
		return NULL;
	for (i = 0; i < 3; i++) {
		struct lt_flow *f = lt_flow(t);

		lt_segs(t, f, 2, MSS);
		if (i == 1)
			lt_flush_pkt(t, f);
		else
			lt_flush_all(t);
	}
	return NULL;
}

static const char *c_flush_pkt(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t), *c = lt_flow(t);

	lt_flush_pkt(t, a);		/* nothing held at all */
	lt_segs(t, a, 2, MSS);
	lt_segs(t, b, 2, MSS);
	lt_flush_pkt(t, c);		/* a flow without a descriptor */
	if (skb_queue_len(&t->rxq))
		return "lro_flush_pkt() of a flow not held sent packets up";
	lt_flush_pkt(t, a);
	lt_flush_pkt(t, a);		/* again: nothing held now */
	lt_flush_all(t);
	return NULL;
}

/* lro_flush_all() sends packets up in the order they were started */
static const char *c_flush_order(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t), *c = lt_flow(t);

	lt_seg(t, b, MSS, 0);
	lt_seg(t, a, MSS, 0);
	lt_seg(t, c, MSS, 0);
	lt_seg(t, a, MSS, 0);
	lt_segs(t, b, 2, MSS);
	lt_segs(t, c, 3, MSS);
	lt_flush_all(t);
	return NULL;
}

/* The debug kernel's checkers make many_flows slow: engine.sh scales it. */
static unsigned int flows = 4096;
module_param(flows, uint, 0444);
MODULE_PARM_DESC(flows, "flows, and descriptors, of the many_flows case (2-4096)");

/*
 * As many flows as descriptors: two rounds of one segment each, every
 * other flow flushed by lro_flush_pkt() (unhashing from the middle of
 * chains), a third round (odd flows join, even ones take freed
 * descriptors), lro_flush_all().
 */
static const char *c_many(struct lt_ctx *t, unsigned long arg)
{
	unsigned int i, r, n = clamp(flows, 2U, 4096U);
	struct lt_flow *f = lt_flow(t);

	if (lt_set_desc(t, n))
		return NULL;
	for (i = 1; i < n; i++)
		lt_flow(t);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < n && !t->err; i++)
			lt_seg(t, &f[i], 64, 0);
		for (i = 0; i < n && r == 1; i += 2)
			lt_flush_pkt(t, &f[i]);
	}
	lt_flush_all(t);
	snprintf(t->wantbuf, sizeof(t->wantbuf), "2Kx%u 3Bx%u 1Bx%u",
		 (n + 1) / 2, n / 2, (n + 1) / 2);
	t->want = t->wantbuf;
	return NULL;
}

/* One 4-tuple on VLANs 10, 20 and untagged: three flows */
static const char *c_vlan(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f[3];
	unsigned int i, r;

	f[0] = lt_flow(t);
	f[0]->vlan = 10;
	for (i = 1; i < 3; i++) {
		f[i] = lt_flow(t);
		*f[i] = *f[0];
		f[i]->vlan = i == 1 ? 20 : 0;
	}
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 3; i++)
			put(t, f[i], MSS, arg);
		if (r == 1)
			lt_flush_all(t);
	}
	lt_flush_pkt(t, f[0]);	/* the 4-tuple on every VLAN */
	return NULL;
}

/* One 4-tuple arriving on two devices (skb_iif): two flows */
static const char *c_dev(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow(t);
	unsigned int i;

	*b = *a;
	b->iif = t->dev->ifindex + 1000;
	b->seq += 1 << 24;
	for (i = 0; i < 4; i++)
		lt_seg(t, i & 1 ? b : a, MSS, 0);
	lt_flush_all(t);
	return NULL;
}

/* UDP, IPv6 and ARP pass untouched and leave the held TCP flow alone */
static const char *c_passthrough(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	put(t, f, MSS, arg);
	lt_raw(t, htons(ETH_P_IP), IPPROTO_UDP, arg);
	put(t, f, MSS, arg);
	lt_raw(t, htons(ETH_P_IPV6), IPPROTO_TCP, arg);
	lt_raw(t, htons(ETH_P_ARP), 0, arg);
	put(t, f, MSS, arg);
	lt_flush_all(t);
	return NULL;
}

/* A segment whose original skb is kept: LRO gets a clone */
static void c_clone(struct lt_ctx *t, struct lt_flow *f)
{
	struct sk_buff *skb = lt_make(t, f, MSS, 0), *clone;
	struct lt_in *in = &t->in[t->nin - 1];

	if (!skb)
		return;
	clone = skb_clone(skb, GFP_KERNEL);
	if (!clone || t->nkeep == LT_MAX_KEEP) {
		kfree_skb(clone);
		kfree_skb(skb);
		t->err = "no memory for a clone";
		return;
	}
	in->cloned = true;
	in->stealable = false;
	t->keep[t->nkeep].skb = skb;
	t->keep[t->nkeep++].in = t->nin - 1;
	lt_feed(t, clone, f->vlan);
}

enum { L_PAGED, L_PAGED6, L_SPLIT, L_MIXED, L_CLONE, L_PP };

/* Payload in page fragments: stolen while they fit, else frag_list */
static const char *c_layout(struct lt_ctx *t, unsigned long arg)
{
	static const u8 mixed[][2] = {	/* layout, fragments */
		{ LT_PAGED, 6 }, { LT_PAGED, 6 }, { LT_PAGED, 6 },
		{ LT_LINEAR, 0 }, { LT_SPLIT, 1 }, { LT_PAGED, 1 },
	};
	struct lt_flow *f = lt_flow(t);
	struct sk_buff *skb;
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
		c_clone(t, f);
		lt_seg(t, f, MSS, 0);
		c_clone(t, f);
		lt_seg(t, f, MSS, 0);
		break;
	case L_PP:	/* page pool fragments are never stolen into others */
		lt_seg(t, f, MSS, 0);
		skb = lt_make(t, f, MSS, 0);
		if (skb) {
			skb->pp_recycle = 1;
			t->in[t->nin - 1].stealable = false;
			lt_feed(t, skb, 0);
		}
		lt_seg(t, f, MSS, 0);
		break;
	default:
		lt_segs(t, f, arg == L_PAGED6 ? 5 : 4, MSS);
	}
	lt_flush_all(t);
	return NULL;
}

/*
 * arg: ip_summed | bad << 8 | C_FRAMES. PSH first (passes alone, verified),
 * A, B, X (bad or not), C.
 */
static const char *c_csum(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);
	unsigned long frames = arg & C_FRAMES;

	t->summed = arg & 0xff;
	t->mgr.ip_summed = arg & 0xff;
	t->layout = LT_PAGED;
	t->nfrags = 2;
	put(t, f, MSS, LT_PSH | frames);
	put(t, f, MSS, frames);
	put(t, f, MSS, frames);
	put(t, f, MSS, (arg & BIT(8) ? LT_BAD : 0) | frames);
	put(t, f, MSS, frames);
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

#define REJECT(name, mods) { "reject_" name, c_reject, mods, "1F 1p 2B" }
#define JOIN(name, arg, want) { "join_" name, c_join, arg, want }
#define CSUM(name, arg, want) { name, c_csum, arg, want }

const struct lt_case lt_cases[] = {
	{ "merge_ts", c_merge, 0, "4B" },
	{ "merge_no_ts", c_merge, 1, "4B" },
	{ "merge_get_skb_header", c_merge, 2, "4B" },
	REJECT("syn", LT_SYN),
	REJECT("fin", LT_FIN),
	REJECT("rst", LT_RST),
	REJECT("urg", LT_URG),
	REJECT("cwr", LT_CWR),
	REJECT("ece", LT_ECE),
	REJECT("no_ack", LT_NOACK),
	REJECT("ecn_ce", LT_CE),
	REJECT("ip_options", LT_IPOPT),
	REJECT("tcp_options", LT_TCPOPT),
	REJECT("tsecr_zero", LT_TSECR0),
	REJECT("padded", LT_PAD),
	REJECT("pure_ack", C_EMPTY),
	REJECT("ip_more_frags", LT_MF),
	REJECT("ip_frag_offset", LT_FRAGOFF),
	REJECT("bad_ip_csum", LT_BADIP),
	REJECT("frames_fin", LT_FIN | C_FRAMES),
	REJECT("frames_bad_ip_csum", LT_BADIP | C_FRAMES),
	JOIN("ttl", J_TTL, "2F 2B"),
	JOIN("tos", J_TOS, "2F 2B"),
	JOIN("df", J_DF, "2F 2B"),
	JOIN("ack", J_ACK, "2F 2B"),
	JOIN("window", J_WIN, "2F 2B"),
	JOIN("tsval", J_TSVAL, "2F 2B"),
	JOIN("ip_id_jump", J_IPID, "2F 2B"),
	JOIN("seq_gap", J_GAP, "2Q 2B"),
	JOIN("retransmit", J_RETX, "2Q 2B"),
	{ "ip_id_fixed", c_ipid, 0, "4B" },
	{ "ip_id_fixed_no_df", c_ipid, 1, "1Fx3 1B" },
	{ "ip_id_inc_then_fixed", c_ipid, 2, "2F 2B" },
	{ "ip_id_fixed_then_inc", c_ipid, 3, "2F 2B" },
	{ "ip_id_wrap", c_ipid, 4, "4B" },
	{ "psh", c_push, 0, "1p 3P 2B" },
	{ "short_last", c_short, 0, "3P 2B" },
	{ "longer_never", c_longer, 0, "1F 2B" },
	{ "max_aggr_3", c_max_aggr, 3, "3Mx2 1B" },
	{ "max_aggr_1", c_max_aggr, 1, "1px7" },
	{ "size_64k_ts", c_size, C_SIZE(MSS, 50, 0), "45S 5B" },
	{ "size_64k_no_ts", c_size, C_SIZE(MSS_NOTS, 50, 1), "44S 6B" },
	{ "size_65535_ts", c_size, C_SIZE(5953, 12, 0), "11S 1B" },
	{ "size_65536_ts", c_size, C_SIZE(5457, 13, 0), "11S 2B" },
	{ "size_65535_no_ts", c_size, C_SIZE(13099, 6, 1), "5S 1B" },
	{ "no_desc", c_desc, 0, "1px2 2B 3B" },
	{ "evict", c_desc, LRO_F_EVICT, "2E 3B 2B" },
	{ "frames_no_desc", c_desc, C_FRAMES, "1px2 2B 3B" },
	{ "frames_evict", c_desc, LRO_F_EVICT | C_FRAMES, "2E 3B 2B" },
	{ "one_desc", c_one_desc, 0, "2B 2K 2B" },
	{ "flush_pkt", c_flush_pkt, 0, "2K 2B" },
	{ "flush_all_order", c_flush_order, 0, "3B 2B 4B" },
	{ "many_flows", c_many, 0, NULL },
	{ "vlan_keyed", c_vlan, 0, "2Bx3 1Kx3" },
	{ "dev_keyed", c_dev, 0, "2Bx2" },
	{ "passthrough", c_passthrough, 0, "1px3 3B" },
	{ "frames_passthrough", c_passthrough, C_FRAMES, "1px3 3B" },
	{ "paged_steal", c_layout, L_PAGED, "4B" },
	{ "paged_frag_list", c_layout, L_PAGED6, "5B" },
	{ "split_frag_list", c_layout, L_SPLIT, "4B" },
	{ "forward_mixed", c_layout, L_MIXED, "6B" },
	{ "cloned", c_layout, L_CLONE, "4B" },
	{ "page_pool", c_layout, L_PP, "3B" },
	CSUM("csum_none_good", CHECKSUM_NONE, "1p 4B"),
	CSUM("csum_none_bad", CHECKSUM_NONE | BIT(8), "1p 2F 1p 1B"),
	CSUM("csum_complete_good", CHECKSUM_COMPLETE, "1p 4B"),
	CSUM("csum_complete_bad", CHECKSUM_COMPLETE | BIT(8), "1p 2F 1p 1B"),
	CSUM("frames_csum_none_good", CHECKSUM_NONE | C_FRAMES, "1p 4B"),
	CSUM("frames_csum_none_bad", CHECKSUM_NONE | BIT(8) | C_FRAMES,
	     "1p 2F 1p 1B"),
	CSUM("frames_csum_complete_good", CHECKSUM_COMPLETE | C_FRAMES, "1p 4B"),
	CSUM("frames_csum_complete_bad", CHECKSUM_COMPLETE | BIT(8) | C_FRAMES,
	     "1p 2F 1p 1B"),
	{ "netif_rx", c_netif_rx, 0, "1p 3B" },
	{ "deliver_hook", c_hook, 0, "1p 3B" },
	{ "frames_merge", c_frames, F_MERGE, "4B" },
	{ "frames_max_skb_frags", c_frames, F_MAXFRAGS1, NULL },
	{ "frames_max_skb_frags_2", c_frames, F_MAXFRAGS2, NULL },
	{ "frames_vlan_keyed", c_frames, F_VLAN, "2Bx2" },
	{ "frames_split_headers", c_frames, F_SPLIT_HDR, "1p" },
};

const unsigned int lt_ncases = ARRAY_SIZE(lt_cases);
