// SPDX-License-Identifier: GPL-2.0
/*
 * BPF merge policies: what the engine asks of one, and the list of the
 * registered ones. The BPF side (struct_ops, verifier) is bpf_policy.c's.
 *
 *   bpftool struct_ops register P.bpf.o      -> bpf_policy.c: reg() ->
 *                                               lro_policy_add(), by name
 *   lroadm set DEV policy NAME (dev-set)     -> cfg.policy of the device,
 *                                               each CPU's policy state
 *                                               and engine ops (rx.c)
 *   engine: a packet about to start          -> ops->start:
 *                                               lro_policy_start():
 *                                               flow_start(), verdict and
 *                                               hold kept in the descriptor
 *           a packet it started goes up      -> ops->flushed:
 *                                               lro_policy_flushed():
 *                                               flow_flush()
 *   bpftool struct_ops unregister, or the    -> unreg(): every device drops
 *   link closed                                 it, then lro_policy_del()
 *
 * The list of policies and every device's cfg.policy change under RTNL.
 * The engine calls its manager's ops, which each CPU takes over with
 * bottom halves disabled (rx.c: lro_rx_take_hold()), so a policy that is
 * unregistered is called by no CPU once its unregistration returns; the
 * struct_ops map, which holds the programs, is freed after an RCU grace
 * period on top of that, and holds a reference on lro.ko for as long as
 * it exists.
 *
 * What a program returns is never trusted: an unknown verdict falls back
 * to the device's settings, a max_aggr or hold out of range is clamped to
 * the limits of the device's own settings, and both are counted in
 * policy_clamped.
 */

#include <linux/rtnetlink.h>

#include "config.h"
#include "seg.h"
#include "policy.h"

static LIST_HEAD(lro_policies);	/* under RTNL */

static void lro_policy_flow_fill(struct lro_policy_flow *f, bool ipv6,
				 const void *nh, const struct tcphdr *th,
				 int ifindex, u16 vlan, u16 mss)
{
	memset(f, 0, sizeof(*f));
	if (ipv6) {
		const struct ipv6hdr *ip6h = nh;

		f->family = AF_INET6;
		memcpy(f->saddr6, &ip6h->saddr, sizeof(f->saddr6));
		memcpy(f->daddr6, &ip6h->daddr, sizeof(f->daddr6));
	} else {
		const struct iphdr *iph = nh;

		f->family = AF_INET;
		f->saddr = iph->saddr;
		f->daddr = iph->daddr;
	}
	f->sport = ntohs(th->source);
	f->dport = ntohs(th->dest);
	f->vlan = vlan;
	f->mss = mss;
	f->ifindex = ifindex;
}

/* Keep @v in @lo..@hi, counting it when it was not. */
static u32 lro_policy_clamp(struct lro_policy_state *ps, u32 v, u32 lo, u32 hi)
{
	if (likely(v >= lo && v <= hi))
		return v;
	ps->clamped++;
	return clamp(v, lo, hi);
}

/**
 * lro_policy_start - ask a manager's policy about a packet to start
 * @ps: the policy as the manager uses it; @ps->ops is set
 * @seg: the segment that would start it, its max_aggr the manager's; on
 *	true, the packet's max_aggr and hold are set in it
 * @hold_us: the device's hold, offered as the default
 *
 * Called once per packet, not per segment (struct lro_engine_ops): segments
 * that join a packet use what the descriptor keeps (lro_init_desc()).
 *
 * Return: false if the policy passes the segment.
 */
bool lro_policy_start(struct lro_policy_state *ps, struct lro_seg *seg,
		      u32 hold_us)
{
	const struct lro_setting_info *aggr = &lro_setting_info[LRO_SETTING_MAX_AGGR];
	const struct lro_setting_info *hold =
		&lro_setting_info[LRO_SETTING_FLUSH_TIMEOUT_US];
	struct lro_policy_hold h = {
		.max_aggr = seg->max_aggr,
		.hold_us = hold_us,
	};
	struct lro_policy_flow flow;
	int verdict;

	lro_policy_flow_fill(&flow, seg->ipv6, seg->iph, seg->tcph,
			     seg->ifindex, seg->vlan_tag, seg->payload);
	verdict = ps->ops->flow_start(&flow, &h);
	if (verdict == LRO_POLICY_PASS) {
		ps->pass++;
		return false;
	}
	if (unlikely(verdict != LRO_POLICY_COALESCE)) {
		ps->clamped++;
		h.max_aggr = seg->max_aggr;
		h.hold_us = hold_us;
	}
	seg->max_aggr = lro_policy_clamp(ps, h.max_aggr, aggr->min, aggr->max);
	seg->hold_us = lro_policy_clamp(ps, h.hold_us, hold->min, hold->max);
	if (seg->max_aggr < 2) {	/* nothing would join it */
		ps->pass++;
		return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(lro_policy_start);	/* bench/kmod: the micro-benchmark */

/**
 * lro_policy_flushed - tell a manager's policy a packet it started went up
 * @ps: the policy as the manager uses it; @ps->ops is set
 * @d: the descriptor, its headers not yet rewritten
 * @why: why it goes up
 */
void lro_policy_flushed(const struct lro_policy_state *ps,
			const struct net_lro_desc *d,
			enum lro_flush_reason why)
{
	const struct tcphdr *th = d->tcph;
	struct lro_policy_flush f;
	struct lro_policy_flow flow;

	if (!ps->ops->flow_flush)
		return;
	f = (struct lro_policy_flush) {
		.age_ns = ktime_get_ns() - d->start_ns,
		.reason = why,
		.segs = d->pkt_aggr_cnt,
		.bytes = d->ip_tot_len - ((u8 *)th - (u8 *)d->iph) -
			 th->doff * 4,
		.max_aggr = d->max_aggr,
		.hold_us = d->hold_us,
	};
	lro_policy_flow_fill(&flow, d->ipv6, d->iph, th, d->ifindex,
			     d->vlan_tag, d->mss);
	ps->ops->flow_flush(&flow, &f);
}
EXPORT_SYMBOL_GPL(lro_policy_flushed);	/* bench/kmod */

/**
 * lro_policy_find - the registered policy of a name
 * @name: its name
 * @extack: where a failure is said (naming the policy attribute)
 *
 * Context: RTNL held. The policy stays registered while it is (its
 * unregistration takes RTNL): a user outside device.c, whose devices
 * lro_dev_drop_policy() cannot reach, must hold RTNL for as long as it
 * uses the policy (bench/kmod does).
 * Return: the policy, or an ERR_PTR() with a message in @extack.
 */
const struct lro_policy_ops *lro_policy_find(const char *name,
					     struct netlink_ext_ack *extack)
{
	struct lro_policy_ops *ops;

	ASSERT_RTNL();
	if (!IS_ENABLED(CONFIG_BPF_JIT) || !IS_ENABLED(CONFIG_BPF_SYSCALL)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "this kernel cannot run BPF policies (no CONFIG_BPF_JIT or CONFIG_BPF_SYSCALL)");
		return ERR_PTR(-EOPNOTSUPP);
	}
	list_for_each_entry(ops, &lro_policies, node)
		if (!strcmp(ops->name, name))
			return ops;
	NL_SET_ERR_MSG_FMT_MOD(extack, "no policy %s is registered", name);
	return ERR_PTR(-ENOENT);
}
EXPORT_SYMBOL_GPL(lro_policy_find);	/* bench/kmod: the micro-benchmark */

/**
 * lro_policy_add - put a policy on the list of registered ones
 * @ops: the policy, its name checked
 *
 * Context: RTNL held.
 * Return: 0, or -EEXIST if a policy of its name is registered.
 */
int lro_policy_add(struct lro_policy_ops *ops)
{
	ASSERT_RTNL();
	if (!IS_ERR(lro_policy_find(ops->name, NULL)))
		return -EEXIST;
	list_add_tail(&ops->node, &lro_policies);
	pr_info("policy %s registered\n", ops->name);
	return 0;
}

/**
 * lro_policy_del - take a policy off the list
 * @ops: the policy, which no device uses any more
 *
 * Context: RTNL held.
 */
void lro_policy_del(struct lro_policy_ops *ops)
{
	ASSERT_RTNL();
	list_del(&ops->node);
	pr_info("policy %s unregistered\n", ops->name);
}

/**
 * lro_policy_nth - the registered policies, in the order they came
 * @n: 0 for the first
 *
 * Context: RTNL held (a netlink dump resumes by number).
 * Return: the policy, or NULL past the last.
 */
const struct lro_policy_ops *lro_policy_nth(unsigned int n)
{
	const struct lro_policy_ops *ops;

	ASSERT_RTNL();
	list_for_each_entry(ops, &lro_policies, node)
		if (!n--)
			return ops;
	return NULL;
}
