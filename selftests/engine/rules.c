// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the merge rules. Which segments may join a held
 * packet (flags, options, IP fields, IP IDs, sequence) and what ends one
 * (PSH, a short segment, max_aggr, 64 KB).
 */

#include <linux/if_ether.h>

#include "harness.h"

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

/* Full segments of one flow; arg 1: no timestamps, 2: get_skb_header,
 * 4: TSecr 0 (tcp_gro_receive() compares options, it reads none of them)
 */
static const char *c_merge(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	f->ts = !(arg & 1);
	if (arg & 4)
		f->tsecr = 0;
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
	unsigned long frames = arg & LT_FRAMES;

	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, arg);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
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

/*
 * 45 full segments (52 + 45 * 1448 = 65232 bytes from the IP header), then
 * @arg bytes: skb_gro_receive() takes them while p->len + len < 65536, so
 * 323 fit (65535) and 324 do not.
 */
static const char *c_size_short(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow(t);

	lt_segs(t, f, 45, MSS);
	lt_seg(t, f, arg, 0);
	lt_flush_all(t);
	return NULL;
}

#define REJECT(name, mods) { "reject_" name, c_reject, mods, "1F 1p 2B" }
#define JOIN(name, arg, want) { "join_" name, c_join, arg, want }

static const struct lt_case cases[] = {
	{ "merge_ts", c_merge, 0, "4B" },
	{ "merge_no_ts", c_merge, 1, "4B" },
	{ "merge_get_skb_header", c_merge, 2, "4B" },
	{ "merge_tsecr_zero", c_merge, 4, "4B" },
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
	/* not ineligible: it differs from A's options, then C's */
	{ "reject_tsecr_zero", c_reject, LT_TSECR0, "1Fx2 2B" },
	REJECT("padded", LT_PAD),
	REJECT("pure_ack", LT_EMPTY),
	REJECT("ip_more_frags", LT_MF),
	REJECT("ip_frag_offset", LT_FRAGOFF),
	REJECT("bad_ip_csum", LT_BADIP),
	REJECT("frames_fin", LT_FIN | LT_FRAMES),
	REJECT("frames_bad_ip_csum", LT_BADIP | LT_FRAMES),
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
	{ "size_65535_short", c_size_short, 323, "46P" },
	{ "size_65536_short", c_size_short, 324, "45S 1B" },
};

const struct lt_case_set lt_rule_cases = { cases, ARRAY_SIZE(cases) };
