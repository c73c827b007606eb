/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_engine_test: what the cases (rules.c, descs.c, paths.c, ipv6.c) use
 * of the harness: the segment builders (build.c, frames.c for page mode)
 * and the checker (check.c, agg.c for aggregates).
 *
 * A case builds TCP segments of one or more test flows, records a copy of
 * each, feeds them to LRO through the public API (linux/inet_lro.h) and
 * says what must come out, as a string of tokens, one per packet sent up:
 *
 *	<segments><how>[x<repeat>]
 *
 * where <how> is the flush reason counted for it (M max_aggr, S size,
 * Q seq, F flags, P push, B batch, K lro_flush_pkt, E evict, H held
 * memory past max_held_bytes) or 'p' for a
 * segment passed up without being held. "1p 2Fx3 4B" is one passed
 * segment, three packets of two segments flushed for their flags, one of
 * four flushed by lro_flush_all(). The harness checks every packet against
 * the recorded segments and the manager's statistics against the string.
 */
#ifndef _LRO_ENGINE_TEST_H
#define _LRO_ENGINE_TEST_H

#include <linux/inet_lro.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

/* One-shot changes to one segment. The first group makes it ineligible. */
#define LT_SYN		BIT(0)
#define LT_FIN		BIT(1)
#define LT_RST		BIT(2)
#define LT_URG		BIT(3)
#define LT_CWR		BIT(4)
#define LT_ECE		BIT(5)
#define LT_NOACK	BIT(6)
#define LT_CE		BIT(7)	/* ECN congestion experienced */
#define LT_IPOPT	BIT(8)	/* 4 bytes of IP options */
#define LT_TCPOPT	BIT(9)	/* 12 bytes of options, not NOP,NOP,TS */
#define LT_FRAGHDR	BIT(10)	/* IPv6: a Fragment header before TCP */
#define LT_PAD		BIT(11)	/* frame padded past the IP length */
#define LT_MF		BIT(12)	/* IP fragment: more fragments */
#define LT_FRAGOFF	BIT(13)	/* IP fragment: non-zero offset */
#define LT_BADIP	BIT(14)	/* bad IP header checksum */
#define LT_INELIGIBLE	(BIT(15) - 1)
#define LT_BAD		BIT(15)	/* bad TCP checksum */
#define LT_PSH		BIT(16)
#define LT_TSECR0	BIT(17)	/* timestamp option with TSecr 0: GRO merges it */
/* For lt_put() only */
#define LT_EMPTY	BIT(29)	/* no payload */
#define LT_FRAMES	BIT(30)	/* page mode: lro_receive_frags() */
/* BIT(28) is LT_V6, of case arguments (below) */

#define MSS		1448	/* with timestamps */
#define MSS_NOTS	1460

#define LT_MAX_EXT	3	/* IPv6 extension headers of a flow */

/* How lt_seg() lays out an skb: headers always linear, then the payload */
enum lt_layout {
	LT_LINEAR,	/* payload linear */
	LT_PAGED,	/* payload in lt_ctx.nfrags page fragments */
	LT_SPLIT,	/* payload half linear, half in one page fragment */
	LT_HEADFRAG,	/* as LT_SPLIT, the linear area a page fragment
			 * (build_skb()), as most NIC drivers build them
			 */
};

/* A TCP flow, over IPv4 unless @v6 (lt_flow6()) */
struct lt_flow {
	__be32 saddr, daddr;
	struct in6_addr saddr6, daddr6;
	u32 label;	/* IPv6 flow label */
	u8 exth[LT_MAX_EXT];	/* IPv6 extension headers (0, 43, 60) */
	u8 nexth;	/* ... how many */
	u8 extlen;	/* bytes of each (8 or 16) */
	u8 extval;	/* a byte of their contents */
	u16 sport, dport;
	u32 seq, ack;
	u32 tsval, tsecr;
	u16 id;		/* IP ID of the next segment */
	u16 win;
	u16 vlan;	/* hardware-stripped VLAN tag, 0 for none */
	u8 ttl, tos;	/* IPv6: hop limit, traffic class */
	bool df, ts, fixedid;
	bool v6;
	bool inband;	/* @vlan as an in-band 802.1Q header, not stripped */
	u16 outer;	/* with @inband: a stripped tag in front of it, 0 none */
	int iif;	/* skb_iif of its skbs (0: the test device's) */
	int cur;	/* first input not seen in the output yet, -1 none */
	int last;	/* last input recorded, -1 none */
};

/* One segment fed to LRO, as recorded before LRO saw it */
struct lt_in {
	u8 *data;		/* network header on */
	unsigned int len;	/* IP total length, plus padding */
	unsigned int hlen;	/* IP (and IPv6 extension) and TCP headers */
	unsigned int payload;
	unsigned int truesize;
	unsigned int end;	/* skb_end_offset() */
	struct lt_flow *flow;	/* NULL: not a TCP segment of a test flow */
	int next;		/* next input of the same flow, -1 none */
	u32 seq;
	__wsum csum;		/* CHECKSUM_COMPLETE value given */
	u16 id;
	u8 summed;		/* ip_summed given */
	u8 nfrags;		/* payload fragments */
	bool bad, plain, psh, frame, used;
	bool stealable;		/* headers alone linear, payload in frags[] */
	bool headfrag;		/* payload starts in a page-fragment head */
	bool cloned, pp;	/* fed as a clone; pp_recycle set */
	bool inband;		/* fed with an in-band 802.1Q header */
};

#define LT_MAX_FLOWS	4200
#define LT_MAX_IN	16384
#define LT_MAX_KEEP	64

struct lt_ctx {
	struct net_device *dev;
	struct net_lro_mgr mgr;
	struct sk_buff_head rxq;	/* packets sent up, in order */
	unsigned int rx_count;		/* of which through the rx_handler */
	unsigned int hooked;		/* of which through mgr.deliver */

	struct lt_flow *flows;
	unsigned int nflows;
	struct lt_flow raw;		/* inputs that are not test TCP flows */
	struct lt_in *in;
	unsigned int nin;
	u8 *arena;			/* recorded bytes */
	size_t used;

	/* per case, reset before each */
	enum lt_layout layout;
	unsigned int nfrags;		/* LT_PAGED fragments; frames: frag 1.. */
	int pg_head;			/* frames: payload bytes in fragment 0
					 * (< 0: headers cut short)
					 */
	u8 summed;			/* ip_summed of built skbs */
	const char *want;		/* overrides the case's expectation */
	char wantbuf[64];
	unsigned long no_desc;		/* expected stats.no_desc */
	unsigned int inband_out;	/* packets sent up tagged in-band */
	struct {
		struct sk_buff *skb;	/* original of a clone fed to LRO */
		int in;
	} keep[LT_MAX_KEEP];
	unsigned int nkeep;
	struct ubuf_info zc;		/* of a zerocopy segment */
	const char *err;		/* harness error (no memory) */
	char msg[160];
	/* what came up, in the expectations' tokens (diagnostics only) */
	unsigned long seen_flush[LRO_FLUSH_NR];
	unsigned int seen_segs, seen_rep;
	char seen_how;
	char seen[256];
};

/*
 * One of the cases a table entry with variants stands for: named by the
 * entry's name and then the variant's, run with their args ORed, and
 * expecting the variant's want (NULL: the entry's). Lists of variants
 * (lt_rejects, lt_csums) are what the two families' tables share.
 */
struct lt_variant {
	const char *name;
	unsigned long arg;
	const char *want;
};

/*
 * Unless a case changes it, the manager has 8 descriptors, max_aggr 64 and
 * LRO_F_NAPI, and segments are linear CHECKSUM_UNNECESSARY skbs of flows
 * with timestamps, DF and incrementing IP IDs (IPv4), or timestamps and no
 * extension headers (IPv6).
 */
struct lt_case {
	const char *name;
	const char *(*run)(struct lt_ctx *t, unsigned long arg);
	unsigned long arg;
	const char *want;
	const struct lt_variant *variants;	/* ends with a NULL name */
};

struct lt_case_set {
	const struct lt_case *cases;
	unsigned int n;
};

/* run in this order, numbered on from one set to the next */
extern const struct lt_case_set lt_rule_cases;	/* rules.c */
extern const struct lt_case_set lt_desc_cases;	/* descs.c */
extern const struct lt_case_set lt_path_cases;	/* paths.c */
extern const struct lt_case_set lt_ipv6_cases;	/* ipv6.c */

/* descs.c: flows of the many_flows cases (module parameter "flows") */
extern unsigned int lt_flows;

/*
 * Cases of rules.c, descs.c and paths.c that ipv6.c runs over IPv6 too:
 * LT_V6 in their arg (never a segment's change) makes their flows IPv6.
 */
#define LT_V6		BIT(28)

/* rules.c */
const char *c_reject(struct lt_ctx *t, unsigned long arg);
extern const struct lt_variant lt_rejects[];

/*
 * c_join()'s change (arg: J_* | LT_FRAMES). IPv6 flows have a Destination
 * Options header from the first segment on for the changes from J_EXTVAL
 * on, but J_EXTADD (from the third).
 */
enum {
	J_TTL,		/* IPv6: hop limit */
	J_TOS,		/* IPv6: traffic class */
	J_DF, J_IPID, J_ECT, J_LABEL, J_ACK, J_WIN, J_TSVAL, J_TSECR0,
	J_EXTVAL, J_EXTLEN, J_EXTADD, J_EXTDROP, J_GAP, J_RETX, J_NONE,
};

const char *c_join(struct lt_ctx *t, unsigned long arg);

/* c_train()'s train of segments (arg: T_*) */
enum {
	T_PSH, T_SHORT, T_LONGER, T_MAX_AGGR3, T_MAX_AGGR1, T_64K, T_64K_NOTS,
	T_TSECR0,
	/* the 64 KB bound in the sizes of an IPv4 packet's headers */
	T4_65535, T4_65536, T4_65535_NOTS, T4_65535_SHORT, T4_65536_SHORT,
	/* ... and an IPv6 packet's */
	T6_65535, T6_65536, T6_65535_SHORT, T6_65536_SHORT,
};

const char *c_train(struct lt_ctx *t, unsigned long arg);

/* descs.c */
const char *c_many(struct lt_ctx *t, unsigned long arg);

/* paths.c */
const char *c_csum(struct lt_ctx *t, unsigned long arg);
extern const struct lt_variant lt_csums[];

/* check.c */
const char *lt_fail(struct lt_ctx *t, const char *fmt, ...) __printf(2, 3);
void lt_seen(struct lt_ctx *t, struct sk_buff *skb);
const char *lt_seen_str(struct lt_ctx *t);

static inline struct lt_in *lt_next(struct lt_ctx *t, struct lt_in *in)
{
	return in->next >= 0 ? &t->in[in->next] : NULL;
}

/* agg.c */
unsigned int lt_iphl(const u8 *p, unsigned int len);
unsigned int lt_iplen(const u8 *p);
bool lt_csum_ok(const u8 *p, unsigned int len);
const char *lt_check_agg(struct lt_ctx *t, struct sk_buff *skb,
			 struct sk_buff *c, struct lt_in *first,
			 unsigned int n, unsigned int k);

/* build.c */
extern const u8 lt_peer[ETH_ALEN];	/* the test device's peer */
struct lt_ctx *lt_ctx_new(void);
void lt_ctx_free(struct lt_ctx *t);
int lt_reset(struct lt_ctx *t);
struct lt_flow *lt_flow(struct lt_ctx *t);
struct lt_flow *lt_flow6(struct lt_ctx *t);
struct lt_flow *lt_flow_of(struct lt_ctx *t, bool v6);
void lt_ext(struct lt_flow *f, unsigned int n, unsigned int len);
int lt_set_desc(struct lt_ctx *t, int max_desc);
struct sk_buff *lt_make(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
			u32 mods);
void lt_feed(struct lt_ctx *t, struct sk_buff *skb, u16 vlan);
void lt_seg(struct lt_ctx *t, struct lt_flow *f, unsigned int len, u32 mods);
void lt_segs(struct lt_ctx *t, struct lt_flow *f, unsigned int n,
	     unsigned int len);
void lt_frame(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
	      u32 mods);

/* frames.c: page mode */
int lt_frag_header(skb_frag_t *frag, void **mac_hdr, void **ip_hdr,
		   void **tcpudp_hdr, u64 *hdr_flags, void *priv);
void lt_frame_in(struct lt_ctx *t, struct lt_in *in, __be16 proto, u16 vlan);
int lt_header6(struct ipv6hdr *ip6, void **tcpudp_hdr, u64 *hdr_flags);
void lt_raw(struct lt_ctx *t, __be16 proto, u8 l4, bool frame);
void lt_put(struct lt_ctx *t, struct lt_flow *f, unsigned int len,
	    unsigned long mods);
void lt_flush_all(struct lt_ctx *t);
void lt_flush_pkt(struct lt_ctx *t, struct lt_flow *f);

#endif /* _LRO_ENGINE_TEST_H */
