// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: the merge rules. Which segments may join a held
 * packet (flags, options, IP fields, IP IDs, sequence) and what ends one
 * (PSH, a short segment, max_aggr, 64 KB). ipv6.c runs the reject, join
 * and train cases over IPv6 too.
 */

#include <linux/if_ether.h>
#include <net/inet_ecn.h>

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
const char *c_reject(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow_of(t, arg & LT_V6);
	unsigned long frames = arg & LT_FRAMES;

	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, arg & ~LT_V6);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	lt_flush_all(t);
	return NULL;
}

/* A, B, then the flow changes for X, Y (see J_* in harness.h) */
const char *c_join(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow_of(t, arg & LT_V6);
	unsigned long frames = arg & LT_FRAMES;
	unsigned long how = arg & ~(LT_FRAMES | LT_V6);

	if (f->v6 && how >= J_EXTVAL && how != J_EXTADD)
		lt_ext(f, 1, 8);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	switch (how) {
	case J_TTL:
		f->ttl--;
		break;
	case J_TOS:		/* DSCP */
		f->tos = f->v6 ? 0x10 << 2 : 0x10;
		break;
	case J_DF:
		f->df = false;
		break;
	case J_IPID:
		f->id += 5;
		break;
	case J_ECT:		/* ECN: not-ECT to ECT(0) */
		f->tos = INET_ECN_ECT_0;
		break;
	case J_LABEL:
		f->label = 0x12345;
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
	case J_TSECR0:
		f->tsecr = 0;
		break;
	case J_EXTVAL:		/* same length, one byte differs */
		f->extval++;
		break;
	case J_EXTLEN:		/* 16 bytes, same next header */
		f->extlen = 16;
		break;
	case J_EXTADD:		/* next header TCP, then DSTOPTS */
		lt_ext(f, 1, 8);
		break;
	case J_EXTDROP:		/* next header DSTOPTS, then TCP */
		f->nexth = 0;
		break;
	case J_GAP:
		f->seq += MSS;
		break;
	case J_RETX:		/* B again */
		f->seq -= MSS;
		break;
	}
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
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

/* Up to 4 runs of n segments of len bytes, with LT_* changes */
struct lt_train {
	bool nots;	/* without timestamps */
	u8 max_aggr;	/* of the manager, 0: the default */
	struct {
		u16 n, len;
		u32 mods;
	} run[4];
};

static const struct lt_train c_trains[] = {
	/* PSH first (alone), A, B, C with PSH (ends it), D, E */
	[T_PSH] = { .run = { { 1, MSS, LT_PSH }, { 2, MSS },
			     { 1, MSS, LT_PSH }, { 2, MSS } } },
	/* A, B, a short one (joins, ends it), D, E */
	[T_SHORT] = { .run = { { 2, MSS }, { 1, 500 }, { 2, MSS } } },
	/* longer than the first never joins (tcp_gro_receive(): len > mss) */
	[T_LONGER] = { .run = { { 1, 1000 }, { 2, MSS } } },
	[T_MAX_AGGR3] = { .max_aggr = 3, .run = { { 7, MSS } } },
	[T_MAX_AGGR1] = { .max_aggr = 1, .run = { { 7, MSS } } },
	/* 52 + 45 * 1448 = 65212 (IPv6: 72 + 45 * 1448 = 65232): a 46th
	 * would pass 65535
	 */
	[T_64K] = { .run = { { 50, MSS } } },
	/* 40 + 44 * 1460 = 64280 (IPv6: 60 + 44 * 1460 = 64300) */
	[T_64K_NOTS] = { .nots = true, .run = { { 50, MSS_NOTS } } },
	/* TSecr 0 from the start (an early segment, GRO merges it) */
	[T_TSECR0] = { .run = { { 3, MSS, LT_TSECR0 }, { 1, MSS } } },
	/* 52 + 11 * 5953 = 65535: fits; a twelfth does not */
	[T4_65535] = { .run = { { 12, 5953 } } },
	/* 52 + 12 * 5457 = 65536: the twelfth does not fit */
	[T4_65536] = { .run = { { 13, 5457 } } },
	/* 40 + 5 * 13099 = 65535 */
	[T4_65535_NOTS] = { .nots = true, .run = { { 6, 13099 } } },
	/*
	 * 45 full segments (52 + 45 * 1448 = 65212 bytes from the IP header),
	 * then a short one: skb_gro_receive() takes it while p->len + len <
	 * 65536, so 323 bytes fit (65535) and 324 do not.
	 */
	[T4_65535_SHORT] = { .run = { { 45, MSS }, { 1, 323 } } },
	[T4_65536_SHORT] = { .run = { { 45, MSS }, { 1, 324 } } },
	/* 72 + 3 * 21821 = 65535: fits; a fourth does not */
	[T6_65535] = { .run = { { 4, 21821 } } },
	/* 72 + 8 * 8183 = 65536: the eighth does not fit */
	[T6_65536] = { .run = { { 9, 8183 } } },
	/* 65232 + 303 = 65535: the short one fits and ends it */
	[T6_65535_SHORT] = { .run = { { 45, MSS }, { 1, 303 } } },
	/* 65232 + 304 = 65536: it does not */
	[T6_65536_SHORT] = { .run = { { 45, MSS }, { 1, 304 } } },
};

/* A train of c_trains[], then lro_flush_all() */
const char *c_train(struct lt_ctx *t, unsigned long arg)
{
	const struct lt_train *tr = &c_trains[arg & ~LT_V6];
	struct lt_flow *f = lt_flow_of(t, arg & LT_V6);
	unsigned int r, i;

	if (tr->max_aggr)
		t->mgr.max_aggr = tr->max_aggr;
	f->ts = !tr->nots;
	for (r = 0; r < ARRAY_SIZE(tr->run); r++)
		for (i = 0; i < tr->run[r].n; i++)
			lt_seg(t, f, tr->run[r].len, tr->run[r].mods);
	lt_flush_all(t);
	return NULL;
}

/* Changes that make a segment ineligible over either family: reject_*,
 * v6_reject_*
 */
const struct lt_variant lt_rejects[] = {
	{ "syn", LT_SYN }, { "fin", LT_FIN }, { "rst", LT_RST },
	{ "urg", LT_URG }, { "cwr", LT_CWR }, { "ece", LT_ECE },
	{ "no_ack", LT_NOACK }, { "ecn_ce", LT_CE },
	{ }
};

#define REJECT(name, mods) { "reject_" name, c_reject, mods, "1F 1p 2B" }
#define JOIN(name, arg, want) { "join_" name, c_join, arg, want }
#define IP_ID(name, arg, want) { "ip_id_" name, c_ipid, arg, want }
#define TRAIN(name, arg, want) { name, c_train, arg, want }

static const struct lt_case cases[] = {
	{ "merge_ts", c_merge, 0, "4B" },
	{ "merge_no_ts", c_merge, 1, "4B" },
	{ "merge_get_skb_header", c_merge, 2, "4B" },
	{ "merge_tsecr_zero", c_merge, 4, "4B" },
	{ "reject_", c_reject, 0, "1F 1p 2B", lt_rejects },
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
	IP_ID("fixed", 0, "4B"),
	IP_ID("fixed_no_df", 1, "1Fx3 1B"),
	IP_ID("inc_then_fixed", 2, "2F 2B"),
	IP_ID("fixed_then_inc", 3, "2F 2B"),
	IP_ID("wrap", 4, "4B"),
	TRAIN("psh", T_PSH, "1p 3P 2B"),
	TRAIN("short_last", T_SHORT, "3P 2B"),
	TRAIN("longer_never", T_LONGER, "1F 2B"),
	TRAIN("max_aggr_3", T_MAX_AGGR3, "3Mx2 1B"),
	TRAIN("max_aggr_1", T_MAX_AGGR1, "1px7"),
	TRAIN("size_64k_ts", T_64K, "45S 5B"),
	TRAIN("size_64k_no_ts", T_64K_NOTS, "44S 6B"),
	TRAIN("size_65535_ts", T4_65535, "11S 1B"),
	TRAIN("size_65536_ts", T4_65536, "11S 2B"),
	TRAIN("size_65535_no_ts", T4_65535_NOTS, "5S 1B"),
	TRAIN("size_65535_short", T4_65535_SHORT, "46P"),
	TRAIN("size_65536_short", T4_65536_SHORT, "45S 1B"),
};

const struct lt_case_set lt_rule_cases = { cases, ARRAY_SIZE(cases) };
