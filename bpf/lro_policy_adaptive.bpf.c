// SPDX-License-Identifier: GPL-2.0
/*
 * The "adaptive" merge policy: each flow's hold is learnt from how its
 * packets went up. New flows start at hold 0, as GRO does: a packet goes
 * up at the end of its receive batch. Then, at each flush:
 *
 *   MAX_AGGR or SIZE: the packet filled up while held   -> raise the hold
 *   BATCH with >= ADAPTIVE_TRAIN_SEGS segments: the      -> raise the hold
 *     flow's segments come back to back, more would
 *     have followed in the next batch
 *   TIMER with <= ADAPTIVE_FEW_SEGS segments: the hold   -> halve it (0 below
 *     bought (almost) nothing, only latency                 ADAPTIVE_HOLD_MIN_US)
 *   anything else (PUSH, SEQ, FLAGS: the sender or the   -> leave it
 *     flow ended the packet, not the hold; DETACH, MEM,
 *     EVICT: LRO's own reasons)
 *
 * Raising starts at ADAPTIVE_HOLD_MIN_US and doubles up to
 * ADAPTIVE_HOLD_MAX_US. max_aggr stays the device's.
 *
 * The per-flow state is in the LRU hash lro_adaptive, keyed by the flow's
 * addresses, ports and family, so flows that are gone age out. It can be
 * read with "bpftool map dump name lro_adaptive" (selftests/policy.sh
 * does). flow_start and flow_flush of one flow may run on two CPUs at once
 * (a flow whose segments arrive on two CPUs): the updates are plain
 * stores, and a lost one only delays learning by a packet.
 *
 *   bpftool struct_ops register lro_policy_adaptive.bpf.o
 *   lroadm set DEV policy adaptive
 *   bpftool struct_ops unregister name policy_adaptive
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#ifndef AF_INET6
#define AF_INET6	10	/* not in vmlinux.h: a macro */
#endif

char LICENSE[] SEC("license") = "GPL";

/*
 * First hold of a flow that showed back-to-back segments: 16 us is a bit
 * more than one 1500-byte frame takes at 1 Gb/s (12 us), so the next
 * segment of a train can join for little latency.
 */
#define ADAPTIVE_HOLD_MIN_US	16
/*
 * The longest hold learnt: 256 us, about where gro_flush_timeout is set for
 * bulk receivers; past it latency grows while packets are mostly ended by
 * max_aggr or the sender's PSH anyway.
 */
#define ADAPTIVE_HOLD_MAX_US	256
/*
 * A packet sent up at the end of its batch with this many segments says
 * the flow's segments arrive in trains: a bulk sender clocked by ACKs
 * sends several at once (4-7 per batch were measured on veth), while a
 * sender writing from a process (request/response) brings one per batch.
 */
#define ADAPTIVE_TRAIN_SEGS	4
/*
 * A packet the timer sent up with this many segments or fewer: the hold
 * caught at most one segment, not worth its latency.
 */
#define ADAPTIVE_FEW_SEGS	2
/* Flows remembered; the least recently used one makes room for a new one. */
#define ADAPTIVE_FLOWS		4096

/* A flow: addresses (IPv4 in the first word), ports, family. */
struct lro_adaptive_key {
	__u32 saddr[4];
	__u32 daddr[4];
	__u16 sport;
	__u16 dport;
	__u32 family;
};

/*
 * What is learnt about a flow. Only hold_us steers LRO; the rest says how
 * it got there (for bpftool map dump and the selftest).
 */
struct lro_adaptive_flow {
	__u32 hold_us;		/* given to the flow's next packet */
	__u32 peak_hold_us;	/* longest hold a packet of it went up under */
	__u32 raised;		/* flushes that raised hold_us */
	__u32 lowered;		/* flushes that lowered it */
	__u64 flushes;		/* packets of the flow told to flow_flush */
	__u64 segs;		/* their segments */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ADAPTIVE_FLOWS);
	__type(key, struct lro_adaptive_key);
	__type(value, struct lro_adaptive_flow);
} lro_adaptive SEC(".maps");

/* The map key of @flow; unused address words stay zero. */
static void adaptive_key(struct lro_adaptive_key *k,
			 const struct lro_policy_flow *flow)
{
	__builtin_memset(k, 0, sizeof(*k));
	k->family = flow->family;
	k->sport = flow->sport;
	k->dport = flow->dport;
	if (flow->family == AF_INET6) {
		__builtin_memcpy(k->saddr, flow->saddr6, sizeof(k->saddr));
		__builtin_memcpy(k->daddr, flow->daddr6, sizeof(k->daddr));
	} else {
		k->saddr[0] = flow->saddr;
		k->daddr[0] = flow->daddr;
	}
}

/* The hold after @hold_us bought something: start, or double, capped. */
static __u32 adaptive_raise(__u32 hold_us)
{
	if (!hold_us)
		return ADAPTIVE_HOLD_MIN_US;
	if (hold_us >= ADAPTIVE_HOLD_MAX_US / 2)
		return ADAPTIVE_HOLD_MAX_US;
	return hold_us * 2;
}

/* The hold after @hold_us bought nothing: half, and 0 below the floor. */
static __u32 adaptive_lower(__u32 hold_us)
{
	hold_us /= 2;
	return hold_us < ADAPTIVE_HOLD_MIN_US ? 0 : hold_us;
}

/* What a flush says about the hold: 1 raise, -1 lower, 0 leave it. */
static int adaptive_verdict(const struct lro_policy_flush *flush)
{
	switch (flush->reason) {
	case LRO_FLUSH_MAX_AGGR:
	case LRO_FLUSH_SIZE:
		return 1;
	case LRO_FLUSH_BATCH:
		return flush->segs >= ADAPTIVE_TRAIN_SEGS;
	case LRO_FLUSH_TIMER:
		return flush->segs <= ADAPTIVE_FEW_SEGS ? -1 : 0;
	default:
		return 0;
	}
}

/* A known flow gets its learnt hold; a new one 0 (end of the batch). */
SEC("struct_ops/flow_start")
int BPF_PROG(adaptive_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	struct lro_adaptive_flow *st;
	struct lro_adaptive_key k;

	adaptive_key(&k, flow);
	st = bpf_map_lookup_elem(&lro_adaptive, &k);
	hold->hold_us = st ? st->hold_us : 0;
	return LRO_POLICY_COALESCE;
}

/* Learn from one packet of @flow that went up. */
SEC("struct_ops/flow_flush")
void BPF_PROG(adaptive_flow_flush, const struct lro_policy_flow *flow,
	      const struct lro_policy_flush *flush)
{
	struct lro_adaptive_flow *st, fresh = {};
	struct lro_adaptive_key k;
	int v;

	adaptive_key(&k, flow);
	st = bpf_map_lookup_elem(&lro_adaptive, &k);
	if (!st) {
		bpf_map_update_elem(&lro_adaptive, &k, &fresh, BPF_NOEXIST);
		st = bpf_map_lookup_elem(&lro_adaptive, &k);
		if (!st)
			return;
	}
	st->flushes++;
	st->segs += flush->segs;
	if (flush->hold_us > st->peak_hold_us)
		st->peak_hold_us = flush->hold_us;
	v = adaptive_verdict(flush);
	if (v > 0 && st->hold_us < ADAPTIVE_HOLD_MAX_US) {
		st->hold_us = adaptive_raise(st->hold_us);
		st->raised++;
	} else if (v < 0 && st->hold_us) {
		st->hold_us = adaptive_lower(st->hold_us);
		st->lowered++;
	}
}

/* The map's name is what bpftool struct_ops unregister takes. */
SEC(".struct_ops")
struct lro_policy_ops policy_adaptive = {
	.flow_start = (void *)adaptive_flow_start,
	.flow_flush = (void *)adaptive_flow_flush,
	.name = "adaptive",
};
