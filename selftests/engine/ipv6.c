// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: TCP over IPv6, against Linux 6.12 GRO. Which segments
 * may be held at all (ipv6_gro_receive(), ipv6_gro_pull_exthdrs(),
 * tcp6_gro_receive()), which may join a held packet (ipv6_gro_flush(),
 * tcp_gro_receive()), the 64 KB bound (skb_gro_receive()), flows told apart
 * by their IPv6 addresses, VLAN and family, and the checksums of what comes
 * out (ipv6_gro_complete(), tcp6_gro_complete(): check.c checks them).
 */

#include <linux/if_ether.h>
#include <net/inet_ecn.h>
#include <net/ipv6.h>

#include "harness.h"

/* get_skb_header() for skbs whose data starts at the IPv6 header */
static int c6_skb_header(struct sk_buff *skb, void **ip_hdr, void **tcpudp_hdr,
			 u64 *hdr_flags, void *priv)
{
	*hdr_flags = 0;
	if (skb->protocol != htons(ETH_P_IPV6))
		return -EINVAL;
	*ip_hdr = skb->data;
	return lt_header6((struct ipv6hdr *)skb->data, tcpudp_hdr, hdr_flags);
}

/* Extension headers of @f: @n of @len bytes, the first @n of Hop-by-Hop,
 * Routing, Destination Options (or Destination Options alone if @n is 1)
 */
static void c6_ext(struct lt_flow *f, unsigned int n, unsigned int len)
{
	static const u8 chain[] = { NEXTHDR_HOP, NEXTHDR_ROUTING, NEXTHDR_DEST };

	f->nexth = n;
	f->extlen = len;
	f->extval = 0x5a;
	if (n == 1)
		f->exth[0] = NEXTHDR_DEST;
	else
		memcpy(f->exth, chain, n);
}

#define M6_NOTS		BIT(0)	/* no timestamps */
#define M6_HDRCB	BIT(1)	/* through a get_skb_header() */
#define M6_PAGED	BIT(2)	/* payload in page fragments */
#define M6_DST		BIT(3)	/* one Destination Options header */
#define M6_CHAIN	BIT(4)	/* Hop-by-Hop, Routing, Destination Options */
#define M6_TSECR0	BIT(5)	/* TSecr 0 in every segment */
#define M6_FILL		BIT(6)	/* 40 segments, not 4 */

/* Segments of one flow that all merge: 4 (or 40) full ones */
static const char *c6_merge(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);
	unsigned int i, n = arg & M6_FILL ? 40 : 4;

	f->ts = !(arg & M6_NOTS);
	if (arg & M6_TSECR0)
		f->tsecr = 0;
	if (arg & M6_HDRCB)
		t->mgr.get_skb_header = c6_skb_header;
	if (arg & M6_PAGED)
		t->layout = LT_PAGED;
	if (arg & M6_DST)
		c6_ext(f, 1, 8);
	if (arg & M6_CHAIN)
		c6_ext(f, 3, 16);
	for (i = 0; i < n; i++)
		lt_put(t, f, f->ts ? MSS : MSS_NOTS, arg & LT_FRAMES);
	lt_flush_all(t);
	return NULL;
}

/* A, then X with the changes in arg (never merged), then C, D */
static const char *c6_reject(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);
	unsigned long frames = arg & LT_FRAMES;

	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, arg);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	lt_flush_all(t);
	return NULL;
}

/*
 * A lone segment with a Fragment header (offset 0, no more fragments)
 * before TCP, A, B, another: GRO holds none of them (ipv6_gro_receive():
 * no offload for NEXTHDR_FRAGMENT), and merges A and B. Through a
 * get_skb_header() or get_frag_header() that reports TCP behind it, too.
 */
static const char *c6_fraghdr(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);

	if (arg & M6_HDRCB)
		t->mgr.get_skb_header = c6_skb_header;
	arg &= ~M6_HDRCB;

	lt_put(t, f, MSS, arg | LT_FRAGHDR);
	lt_put(t, f, MSS, arg);
	lt_put(t, f, MSS, arg);
	lt_flush_all(t);
	lt_put(t, f, MSS, arg | LT_FRAGHDR);
	return NULL;
}

/*
 * LRO_F_EXTRACT_VLAN_ID: the driver took the tag (given to the hwaccel
 * variant) but left skb->protocol 802.1Q, data at the IP header. The IP
 * version says IPv6; the aggregate goes up as IPv6 (ETH_P_IPV6).
 */
static const char *c6_extract(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);
	struct sk_buff *skb;
	unsigned int i;

	t->mgr.features |= LRO_F_EXTRACT_VLAN_ID;
	f->vlan = 7;
	for (i = 0; i < 4; i++) {
		skb = lt_make(t, f, MSS, 0);
		if (!skb)
			break;
		skb->protocol = htons(ETH_P_8021Q);
		lt_feed(t, skb, f->vlan);
	}
	lt_flush_all(t);
	return NULL;
}

enum {
	J6_HOPLIMIT, J6_TCLASS, J6_ECT, J6_LABEL, J6_ACK, J6_WIN, J6_TSVAL,
	J6_TSECR0, J6_EXTVAL, J6_EXTLEN, J6_EXTADD, J6_EXTDROP, J6_GAP,
	J6_RETX, J6_NONE,
};

/* A, B, then the flow changes for X, Y (arg: J6_* | LT_FRAMES) */
static const char *c6_join(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);
	unsigned long frames = arg & LT_FRAMES;

	if ((arg & ~LT_FRAMES) >= J6_EXTVAL && (arg & ~LT_FRAMES) != J6_EXTADD)
		c6_ext(f, 1, 8);
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	switch (arg & ~LT_FRAMES) {
	case J6_HOPLIMIT:
		f->ttl--;
		break;
	case J6_TCLASS:		/* DSCP */
		f->tos = 0x10 << 2;
		break;
	case J6_ECT:		/* ECN: not-ECT to ECT(0) */
		f->tos = INET_ECN_ECT_0;
		break;
	case J6_LABEL:
		f->label = 0x12345;
		break;
	case J6_ACK:
		f->ack += 1000;
		break;
	case J6_WIN:
		f->win++;
		break;
	case J6_TSVAL:
		f->tsval++;
		break;
	case J6_TSECR0:
		f->tsecr = 0;
		break;
	case J6_EXTVAL:		/* same length, one byte differs */
		f->extval++;
		break;
	case J6_EXTLEN:		/* 16 bytes, same next header */
		f->extlen = 16;
		break;
	case J6_EXTADD:		/* next header TCP, then DSTOPTS */
		c6_ext(f, 1, 8);
		break;
	case J6_EXTDROP:	/* next header DSTOPTS, then TCP */
		f->nexth = 0;
		break;
	case J6_GAP:
		f->seq += MSS;
		break;
	case J6_RETX:	/* B again */
		f->seq -= MSS;
		break;
	}
	lt_put(t, f, MSS, frames);
	lt_put(t, f, MSS, frames);
	lt_flush_all(t);
	return NULL;
}

/* A train of segments of one flow: up to 4 runs of n segments of len
 * bytes, with LT_* changes
 */
struct c6_train {
	struct {
		u16 n, len;
		u32 mods;
	} run[4];
};

enum {
	T6_PSH, T6_SHORT, T6_LONGER, T6_MAX_AGGR, T6_64K, T6_64K_NOTS,
	T6_65535, T6_65536, T6_65535_SHORT, T6_65536_SHORT, T6_TSECR0,
};

static const struct c6_train c6_trains[] = {
	/* PSH first (alone), A, B, C with PSH (ends it), D, E */
	[T6_PSH] = { { { 1, MSS, LT_PSH }, { 2, MSS }, { 1, MSS, LT_PSH },
		       { 2, MSS } } },
	/* A, B, a short one (joins, ends it), D, E */
	[T6_SHORT] = { { { 2, MSS }, { 1, 500 }, { 2, MSS } } },
	/* longer than the first never joins (tcp_gro_receive(): len > mss) */
	[T6_LONGER] = { { { 1, 1000 }, { 2, MSS } } },
	[T6_MAX_AGGR] = { { { 7, MSS } } },
	/* 72 + 45 * 1448 = 65232: a 46th would pass 65535 */
	[T6_64K] = { { { 50, MSS } } },
	/* 60 + 44 * 1460 = 64300 */
	[T6_64K_NOTS] = { { { 50, MSS_NOTS } } },
	/* 72 + 3 * 21821 = 65535: fits; a fourth does not */
	[T6_65535] = { { { 4, 21821 } } },
	/* 72 + 8 * 8183 = 65536: the eighth does not fit */
	[T6_65536] = { { { 9, 8183 } } },
	/* 65232 + 303 = 65535: the short one fits and ends it */
	[T6_65535_SHORT] = { { { 45, MSS }, { 1, 303 } } },
	/* 65232 + 304 = 65536: it does not */
	[T6_65536_SHORT] = { { { 45, MSS }, { 1, 304 } } },
	/* TSecr 0 from the start (an early segment, GRO merges it) */
	[T6_TSECR0] = { { { 3, MSS, LT_TSECR0 }, { 1, MSS } } },
};

/* arg: T6_* | max_aggr << 8 */
static const char *c6_train(struct lt_ctx *t, unsigned long arg)
{
	const struct c6_train *tr = &c6_trains[arg & 0xff];
	struct lt_flow *f = lt_flow6(t);
	unsigned int r, i;

	if (arg >> 8)
		t->mgr.max_aggr = arg >> 8;
	if ((arg & 0xff) == T6_64K_NOTS)
		f->ts = false;
	for (r = 0; r < ARRAY_SIZE(tr->run); r++)
		for (i = 0; i < tr->run[r].n; i++)
			lt_seg(t, f, tr->run[r].len, tr->run[r].mods);
	lt_flush_all(t);
	return NULL;
}

/*
 * An IPv4 and an IPv6 flow, same ports, interleaved: two flows. The IPv6
 * source holds the IPv4 addresses where an IPv4 header has them, and its
 * sequence numbers continue the IPv4 flow's, so a mix-up would merge.
 */
static const char *c6_family(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = lt_flow(t), *b = lt_flow6(t);
	unsigned int i;

	b->sport = a->sport;
	b->seq = a->seq + MSS;
	for (i = 0; i < 4; i++)
		lt_put(t, i & 1 ? b : a, MSS, arg);
	lt_flush_all(t);
	return NULL;
}

#define C6_INBAND	BIT(0)	/* tags in-band: an 802.1Q header */
#define C6_V4		BIT(1)	/* IPv4 flows (the in-band control) */

/* One 4-tuple on VLANs 10, 20 and untagged: three flows */
static const char *c6_vlan(struct lt_ctx *t, unsigned long arg)
{
	unsigned long frames = arg & LT_FRAMES;
	struct lt_flow *f[3];
	unsigned int i, r;

	f[0] = arg & C6_V4 ? lt_flow(t) : lt_flow6(t);
	f[0]->vlan = 10;
	f[0]->inband = arg & C6_INBAND;
	for (i = 1; i < 3; i++) {
		f[i] = lt_flow(t);
		*f[i] = *f[0];
		f[i]->vlan = i == 1 ? 20 : 0;
		f[i]->inband = i == 1 && (arg & C6_INBAND);
	}
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 3; i++)
			lt_put(t, f[i], MSS, frames);
		if (r == 1)
			lt_flush_all(t);
	}
	lt_flush_all(t);
	return NULL;
}

/*
 * A double-tagged segment, its outer tag stripped (VLAN 10) and its inner
 * one still in the frame, a priority tag (VID 0), with the addresses,
 * ports and next sequence number of an untagged flow. The stack drops it
 * (no device has VLAN 10), so it must not join the untagged flow's packet:
 * keyed by its inner tag alone it did, and its payload went up as the
 * untagged flow's (found by selftests/fuzz.sh). Not aggregated at all: the
 * untagged flow's own segment with that sequence number joins instead.
 */
static const char *c6_double_tag(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *a = arg & C6_V4 ? lt_flow(t) : lt_flow6(t);
	struct lt_flow *b = lt_flow(t);

	*b = *a;
	b->inband = true;
	b->vlan = 0;
	b->outer = 10;
	lt_put(t, a, MSS, 0);
	b->seq = a->seq;
	lt_put(t, b, MSS, 0);
	lt_put(t, a, MSS, 0);
	lt_flush_all(t);
	return NULL;
}

/*
 * As many IPv6 flows as descriptors, their addresses differing in the
 * last bytes: a round of one segment each, a second with PSH on even
 * flows (they end), a third (odd flows join, even ones start again).
 */
static const char *c6_many(struct lt_ctx *t, unsigned long arg)
{
	unsigned int i, r, n = clamp(lt_flows, 2U, 4096U);
	struct lt_flow *f = lt_flow6(t);

	if (lt_set_desc(t, n))
		return NULL;
	for (i = 1; i < n; i++) {
		lt_flow6(t);
		f[i].saddr6.s6_addr16[7] = htons(i);
		f[i].daddr6.s6_addr16[6] = htons(i);
	}
	for (r = 0; r < 3; r++)
		for (i = 0; i < n && !t->err; i++)
			lt_seg(t, &f[i], 64, r == 1 && !(i & 1) ? LT_PSH : 0);
	lt_flush_all(t);
	snprintf(t->wantbuf, sizeof(t->wantbuf), "2Px%u 3Bx%u 1Bx%u",
		 (n + 1) / 2, n / 2, (n + 1) / 2);
	t->want = t->wantbuf;
	return NULL;
}

/*
 * arg: ip_summed | bad << 8 | LT_FRAMES. PSH first (passes alone, verified
 * against the IPv6 pseudo-header), A, B, X (bad or not), C.
 */
static const char *c6_csum(struct lt_ctx *t, unsigned long arg)
{
	struct lt_flow *f = lt_flow6(t);
	unsigned long frames = arg & LT_FRAMES;

	c6_ext(f, 1, 8);	/* not in the pseudo-header */
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

#define MERGE(name, arg) { "v6_merge" name, c6_merge, arg, "4B" }
#define REJECT(name, mods) { "v6_reject_" name, c6_reject, mods, "1F 1p 2B" }
#define JOIN(name, arg, want) { "v6_join_" name, c6_join, arg, want }
#define TRAIN(name, arg, want) { "v6_" name, c6_train, arg, want }
#define CSUM(name, arg, want) { "v6_" name, c6_csum, arg, want }

static const struct lt_case cases[] = {
	MERGE("", 0),
	MERGE("_no_ts", M6_NOTS),
	MERGE("_get_skb_header", M6_HDRCB),
	MERGE("_paged", M6_PAGED),
	{ "v6_merge_paged_fill", c6_merge, M6_PAGED | M6_FILL, "40B" },
	MERGE("_dstopts", M6_DST),
	MERGE("_ext_chain", M6_CHAIN),
	MERGE("_ext_chain_get_skb_header", M6_CHAIN | M6_HDRCB),
	MERGE("_tsecr_zero", M6_TSECR0),
	MERGE("_frames", LT_FRAMES),
	MERGE("_frames_ext_chain", M6_CHAIN | LT_FRAMES),
	REJECT("syn", LT_SYN),
	REJECT("fin", LT_FIN),
	REJECT("rst", LT_RST),
	REJECT("urg", LT_URG),
	REJECT("cwr", LT_CWR),
	REJECT("ece", LT_ECE),
	REJECT("no_ack", LT_NOACK),
	REJECT("ecn_ce", LT_CE),
	REJECT("tcp_options", LT_TCPOPT),
	REJECT("padded", LT_PAD),
	REJECT("pure_ack", LT_EMPTY),
	REJECT("frames_fin", LT_FIN | LT_FRAMES),
	REJECT("frames_padded", LT_PAD | LT_FRAMES),
	{ "v6_reject_tsecr_zero", c6_reject, LT_TSECR0, "1Fx2 2B" },
	{ "v6_frag_header", c6_fraghdr, 0, "1p 2B 1p" },
	{ "v6_frames_frag_header", c6_fraghdr, LT_FRAMES, "1p 2B 1p" },
	{ "v6_frag_header_get_skb_header", c6_fraghdr, M6_HDRCB, "1p 2B 1p" },
	JOIN("hop_limit", J6_HOPLIMIT, "2F 2B"),
	JOIN("traffic_class", J6_TCLASS, "2F 2B"),
	JOIN("ecn_ect", J6_ECT, "2F 2B"),
	JOIN("flow_label", J6_LABEL, "2F 2B"),
	JOIN("ack", J6_ACK, "2F 2B"),
	JOIN("window", J6_WIN, "2F 2B"),
	JOIN("tsval", J6_TSVAL, "2F 2B"),
	JOIN("tsecr_zero", J6_TSECR0, "2F 2B"),
	JOIN("ext_same", J6_NONE, "4B"),
	JOIN("ext_bytes", J6_EXTVAL, "2F 2B"),
	JOIN("ext_length", J6_EXTLEN, "2F 2B"),
	JOIN("ext_added", J6_EXTADD, "2F 2B"),
	JOIN("ext_dropped", J6_EXTDROP, "2F 2B"),
	JOIN("seq_gap", J6_GAP, "2Q 2B"),
	JOIN("retransmit", J6_RETX, "2Q 2B"),
	JOIN("frames_flow_label", J6_LABEL | LT_FRAMES, "2F 2B"),
	JOIN("frames_hop_limit", J6_HOPLIMIT | LT_FRAMES, "2F 2B"),
	JOIN("frames_ext_bytes", J6_EXTVAL | LT_FRAMES, "2F 2B"),
	TRAIN("psh", T6_PSH, "1p 3P 2B"),
	TRAIN("short_last", T6_SHORT, "3P 2B"),
	TRAIN("longer_never", T6_LONGER, "1F 2B"),
	TRAIN("max_aggr_3", T6_MAX_AGGR | 3 << 8, "3Mx2 1B"),
	TRAIN("tsecr_zero_first", T6_TSECR0, "3F 1B"),
	TRAIN("size_64k_ts", T6_64K, "45S 5B"),
	TRAIN("size_64k_no_ts", T6_64K_NOTS, "44S 6B"),
	TRAIN("size_65535", T6_65535, "3S 1B"),
	TRAIN("size_65536", T6_65536, "7S 2B"),
	TRAIN("size_65535_short", T6_65535_SHORT, "46P"),
	TRAIN("size_65536_short", T6_65536_SHORT, "45S 1B"),
	{ "v4_v6_same_ports", c6_family, 0, "2Bx2" },
	{ "v4_v6_frames_same_ports", c6_family, LT_FRAMES, "2Bx2" },
	{ "v6_vlan_keyed", c6_vlan, 0, "2Bx3 1Bx3" },
	{ "v6_frames_vlan_keyed", c6_vlan, LT_FRAMES, "2Bx3 1Bx3" },
	{ "v6_inband_vlan_keyed", c6_vlan, C6_INBAND, "2Bx3 1Bx3" },
	{ "v4_inband_vlan_keyed", c6_vlan, C6_INBAND | C6_V4, "2Bx3 1Bx3" },
	{ "v6_double_tag_apart", c6_double_tag, 0, "1p 2B" },
	{ "v4_double_tag_apart", c6_double_tag, C6_V4, "1p 2B" },
	{ "v6_many_flows", c6_many, 0, NULL },
	{ "v6_extract_vlan_id", c6_extract, 0, "4B" },
	CSUM("csum_none_good", CHECKSUM_NONE, "1p 4B"),
	CSUM("csum_none_bad", CHECKSUM_NONE | BIT(8), "1p 2F 1p 1B"),
	CSUM("csum_complete_good", CHECKSUM_COMPLETE, "1p 4B"),
	CSUM("csum_complete_bad", CHECKSUM_COMPLETE | BIT(8), "1p 2F 1p 1B"),
	CSUM("frames_csum_none_good", CHECKSUM_NONE | LT_FRAMES, "1p 4B"),
	CSUM("frames_csum_none_bad", CHECKSUM_NONE | BIT(8) | LT_FRAMES,
	     "1p 2F 1p 1B"),
	CSUM("frames_csum_complete_bad", CHECKSUM_COMPLETE | BIT(8) | LT_FRAMES,
	     "1p 2F 1p 1B"),
};

const struct lt_case_set lt_ipv6_cases = { cases, ARRAY_SIZE(cases) };
