/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF merge policies (policy.c): struct lro_policy_ops is a struct_ops type
 * lro.ko registers. A policy is asked once per packet LRO is about to start
 * (coalesce this flow or not, and under which max_aggr and hold), and told
 * once per packet LRO sends up; segments that join a packet cost it
 * nothing. BPF programs see these types in lro.ko's BTF;
 * Documentation/bpf.md describes them.
 */
#ifndef _LRO_POLICY_H
#define _LRO_POLICY_H

#include <linux/inet_lro.h>
#include <linux/list.h>
#include <linux/types.h>

#define LRO_POLICY_NAME_MAX	16

/* What flow_start() returns */
enum lro_policy_verdict {
	LRO_POLICY_COALESCE,	/* start a packet, under the hold given */
	LRO_POLICY_PASS,	/* send the segment up alone */
};

/**
 * struct lro_policy_flow - the flow a policy is asked or told about
 * @saddr: IPv4 source address (network order), if @family is AF_INET
 * @saddr6: IPv6 source address (network order), if @family is AF_INET6
 * @daddr: IPv4 destination address (network order)
 * @daddr6: IPv6 destination address (network order)
 * @sport: TCP source port
 * @dport: TCP destination port
 * @vlan: VLAN ID, 0 for none
 * @mss: TCP payload of the packet's first segment
 * @ifindex: device LRO is attached to
 * @family: AF_INET or AF_INET6
 *
 * Read-only to the program. Everything but the addresses in host order.
 */
struct lro_policy_flow {
	union {
		__be32 saddr;
		__be32 saddr6[4];
	};
	union {
		__be32 daddr;
		__be32 daddr6[4];
	};
	__u16 sport;
	__u16 dport;
	__u16 vlan;
	__u16 mss;
	__u32 ifindex;
	__u8 family;
};

/**
 * struct lro_policy_hold - how one packet is held
 * @max_aggr: segments it takes at most: on entry the device's max_aggr,
 *	on return this packet's (1..64; below 2 passes the segment)
 * @hold_us: how long it may be held, in microseconds: on entry the
 *	device's flush_timeout_us, on return this packet's (0..1000000;
 *	0: until the end of the receive batch)
 *
 * The only memory a policy program may write. Values out of range are
 * clamped and counted (policy_clamped).
 */
struct lro_policy_hold {
	__u32 max_aggr;
	__u32 hold_us;
};

/**
 * struct lro_policy_flush - a packet the policy started, as it went up
 * @age_ns: time since its first segment was taken
 * @reason: why it was sent up
 * @segs: segments it took
 * @bytes: TCP payload bytes
 * @max_aggr: the max_aggr it was held under
 * @hold_us: the hold it was held under
 *
 * Read-only to the program.
 */
struct lro_policy_flush {
	__u64 age_ns;
	enum lro_flush_reason reason;
	__u32 segs;
	__u32 bytes;
	__u32 max_aggr;
	__u32 hold_us;
};

/**
 * struct lro_policy_ops - a merge policy
 * @flow_start: a packet of @flow is about to be started: return
 *	LRO_POLICY_COALESCE (and set @hold) or LRO_POLICY_PASS. Required.
 * @flow_flush: a packet flow_start() let LRO start went up. Optional.
 * @name: what the policy is attached by (lroadm set DEV policy NAME):
 *	printable, no spaces, unique among the registered policies
 * @node: on the list of registered policies (lro.ko's, zero on load)
 *
 * Both callbacks run in softirq context (or with bottom halves disabled),
 * on the CPU that received the segment; they must not sleep.
 */
struct lro_policy_ops {
	int (*flow_start)(const struct lro_policy_flow *flow,
			  struct lro_policy_hold *hold);
	void (*flow_flush)(const struct lro_policy_flow *flow,
			   const struct lro_policy_flush *flush);
	char name[LRO_POLICY_NAME_MAX];
	struct list_head node;
};

struct lro_seg;

/**
 * struct lro_policy_state - a policy as one manager uses it
 * @ops: the policy, or NULL
 * @pass: segments it sent up alone
 * @clamped: its verdicts out of range, clamped
 *
 * Belongs to the manager's receive context, as the manager does: lro.ko's
 * per-CPU wrapper (rx.c) keeps one beside each manager.
 */
struct lro_policy_state {
	const struct lro_policy_ops *ops;
	unsigned long pass;
	unsigned long clamped;
};

/* Engine side (struct lro_engine_ops), per packet started and sent up. */
bool lro_policy_start(struct lro_policy_state *ps, struct lro_seg *seg,
		      u32 hold_us);
void lro_policy_flushed(const struct lro_policy_state *ps,
			const struct net_lro_desc *d,
			enum lro_flush_reason why);

/* Control side, under RTNL. */
const struct lro_policy_ops *lro_policy_find(const char *name,
					     struct netlink_ext_ack *extack);
int lro_policy_add(struct lro_policy_ops *ops);
void lro_policy_del(struct lro_policy_ops *ops);
const struct lro_policy_ops *lro_policy_nth(unsigned int n);

#endif /* _LRO_POLICY_H */
