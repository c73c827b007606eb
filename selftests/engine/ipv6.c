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
		lt_ext(f, 1, 8);
	if (arg & M6_CHAIN)
		lt_ext(f, 3, 16);
	for (i = 0; i < n; i++)
		lt_put(t, f, f->ts ? MSS : MSS_NOTS, arg & LT_FRAMES);
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

#define MERGE(name, arg) { "v6_merge" name, c6_merge, arg, "4B" }
#define REJECT(name, mods) \
	{ "v6_reject_" name, c_reject, (mods) | LT_V6, "1F 1p 2B" }
#define JOIN(name, arg, want) { "v6_join_" name, c_join, (arg) | LT_V6, want }
#define TRAIN(name, arg, want) { "v6_" name, c_train, (arg) | LT_V6, want }
#define CSUM(name, arg, want) { "v6_" name, c_csum, (arg) | LT_V6, want }

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
	{ "v6_reject_", c_reject, LT_V6, "1F 1p 2B", lt_rejects },
	REJECT("tcp_options", LT_TCPOPT),
	REJECT("padded", LT_PAD),
	REJECT("pure_ack", LT_EMPTY),
	REJECT("frames_fin", LT_FIN | LT_FRAMES),
	REJECT("frames_padded", LT_PAD | LT_FRAMES),
	{ "v6_reject_tsecr_zero", c_reject, LT_TSECR0 | LT_V6, "1Fx2 2B" },
	{ "v6_frag_header", c6_fraghdr, 0, "1p 2B 1p" },
	{ "v6_frames_frag_header", c6_fraghdr, LT_FRAMES, "1p 2B 1p" },
	{ "v6_frag_header_get_skb_header", c6_fraghdr, M6_HDRCB, "1p 2B 1p" },
	JOIN("hop_limit", J_TTL, "2F 2B"),
	JOIN("traffic_class", J_TOS, "2F 2B"),
	JOIN("ecn_ect", J_ECT, "2F 2B"),
	JOIN("flow_label", J_LABEL, "2F 2B"),
	JOIN("ack", J_ACK, "2F 2B"),
	JOIN("window", J_WIN, "2F 2B"),
	JOIN("tsval", J_TSVAL, "2F 2B"),
	JOIN("tsecr_zero", J_TSECR0, "2F 2B"),
	JOIN("ext_same", J_NONE, "4B"),
	JOIN("ext_bytes", J_EXTVAL, "2F 2B"),
	JOIN("ext_length", J_EXTLEN, "2F 2B"),
	JOIN("ext_added", J_EXTADD, "2F 2B"),
	JOIN("ext_dropped", J_EXTDROP, "2F 2B"),
	JOIN("seq_gap", J_GAP, "2Q 2B"),
	JOIN("retransmit", J_RETX, "2Q 2B"),
	JOIN("frames_flow_label", J_LABEL | LT_FRAMES, "2F 2B"),
	JOIN("frames_hop_limit", J_TTL | LT_FRAMES, "2F 2B"),
	JOIN("frames_ext_bytes", J_EXTVAL | LT_FRAMES, "2F 2B"),
	TRAIN("psh", T_PSH, "1p 3P 2B"),
	TRAIN("short_last", T_SHORT, "3P 2B"),
	TRAIN("longer_never", T_LONGER, "1F 2B"),
	TRAIN("max_aggr_3", T_MAX_AGGR3, "3Mx2 1B"),
	TRAIN("tsecr_zero_first", T_TSECR0, "3F 1B"),
	TRAIN("size_64k_ts", T_64K, "45S 5B"),
	TRAIN("size_64k_no_ts", T_64K_NOTS, "44S 6B"),
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
	{ "v6_many_flows", c_many, LT_V6, NULL },
	{ "v6_extract_vlan_id", c6_extract, 0, "4B" },
	{ "v6_csum_", c_csum, LT_V6, NULL, lt_csums },
	CSUM("frames_csum_none_good", CHECKSUM_NONE | LT_FRAMES, "1p 4B"),
	CSUM("frames_csum_none_bad", CHECKSUM_NONE | BIT(8) | LT_FRAMES,
	     "1p 2F 1p 1B"),
	CSUM("frames_csum_complete_bad", CHECKSUM_COMPLETE | BIT(8) | LT_FRAMES,
	     "1p 2F 1p 1B"),
};

const struct lt_case_set lt_ipv6_cases = { cases, ARRAY_SIZE(cases) };
