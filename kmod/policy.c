// SPDX-License-Identifier: GPL-2.0
/*
 * BPF merge policies: struct lro_policy_ops as a struct_ops type.
 *
 *   bpftool struct_ops register P.bpf.o      -> lro_policy_reg(): on the
 *                                               list, by its name
 *   lroadm set DEV policy NAME (dev-set)     -> cfg.policy of the device,
 *                                               each CPU's policy state
 *                                               and engine ops (rx.c)
 *   engine: a packet about to start          -> ops->start: flow_start():
 *                                               verdict and hold, kept in
 *                                               the descriptor
 *           a packet it started goes up      -> ops->flushed: flow_flush()
 *   bpftool struct_ops unregister, or the    -> lro_policy_unreg(): every
 *   link closed                                 device drops it first
 *
 * The list of policies and every device's cfg.policy change under RTNL.
 * The engine calls its manager's ops, which each CPU takes over with
 * bottom halves disabled (device.c: lro_dev_set_hold()), so a policy
 * that is unregistered is called by no CPU once lro_policy_unreg()
 * returns; the struct_ops map, which holds the programs, is freed after
 * an RCU grace period on top of that, and holds a reference on lro.ko
 * for as long as it exists.
 *
 * What a program returns is never trusted: an unknown verdict falls back
 * to the device's settings, a max_aggr or hold out of range is clamped to
 * the limits of the device's own settings, and both are counted in
 * policy_clamped.
 */

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/ctype.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>

#include "device.h"
#include "engine.h"
#include "netlink-gen.h"
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

/* The devices of @net that use @ops, under RTNL. */
static u64 lro_policy_users(struct net *net, const struct lro_policy_ops *ops)
{
	struct lro_dev *ld = NULL;
	u64 n = 0;

	while ((ld = lro_dev_next(net, ld))) {
		struct lro_config cfg;

		lro_dev_get_config(ld, &cfg);
		n += cfg.policy == ops;
	}
	return n;
}

struct lro_policy_dump_ctx {
	unsigned int done;	/* policies dumped so far */
};

/**
 * lro_nl_policy_get_dumpit() - LRO_CMD_POLICY_GET dump: the policies
 * @skb: the reply being filled
 * @cb: the dump state
 *
 * Return: the dump status, as netlink dumps return it.
 */
int lro_nl_policy_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lro_policy_dump_ctx *ctx = (struct lro_policy_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct lro_policy_ops *ops;
	unsigned int n = 0;
	int err = 0;
	void *hdr;

	NL_ASSERT_DUMP_CTX_FITS(struct lro_policy_dump_ctx);

	rtnl_lock();
	list_for_each_entry(ops, &lro_policies, node) {
		if (n++ < ctx->done)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lro_nl_family,
				  NLM_F_MULTI, LRO_CMD_POLICY_GET);
		if (!hdr ||
		    nla_put_string(skb, LRO_A_POLICY_NAME, ops->name) ||
		    nla_put_uint(skb, LRO_A_POLICY_DEVICES,
				 lro_policy_users(net, ops))) {
			if (hdr)
				genlmsg_cancel(skb, hdr);
			err = -EMSGSIZE;
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->done++;
	}
	rtnl_unlock();
	return err;
}

#if IS_ENABLED(CONFIG_BPF_JIT) && IS_ENABLED(CONFIG_BPF_SYSCALL)

/* The one struct a policy program may write to. */
BTF_ID_LIST_SINGLE(lro_policy_hold_id, struct, lro_policy_hold)
static const struct btf_type *lro_policy_hold_type;

/*
 * resolve_btfids numbered struct lro_policy_hold when lro.ko was built;
 * the BTF the kernel loaded must still give it that number (a module
 * built against a distilled base is renumbered at load), or the write
 * check below would compare against some other type: refuse to register
 * then. Types are compared by pointer, which also tells lro.ko's BTF
 * from vmlinux's.
 */
static int lro_policy_ops_init(struct btf *btf)
{
	const struct btf_type *t = btf_type_by_id(btf, lro_policy_hold_id[0]);

	if (!t || !btf_type_is_struct(t) || btf_type_vlen(t) != 2 ||
	    t->size != sizeof(struct lro_policy_hold)) {
		pr_err("struct lro_policy_hold is not BTF id %u: no policies\n",
		       lro_policy_hold_id[0]);
		return -EINVAL;
	}
	lro_policy_hold_type = t;
	return 0;
}

/* Both callbacks run in softirq context: no sleepable program. */
static int lro_policy_check_member(const struct btf_type *t,
				   const struct btf_member *member,
				   const struct bpf_prog *prog)
{
	return prog->sleepable ? -EINVAL : 0;
}

static bool lro_policy_is_valid_access(int off, int size,
				       enum bpf_access_type type,
				       const struct bpf_prog *prog,
				       struct bpf_insn_access_aux *info)
{
	return bpf_tracing_btf_ctx_access(off, size, type, prog, info);
}

/* Writes through a pointer the program was given: @hold's members only. */
static int lro_policy_struct_access(struct bpf_verifier_log *log,
				    const struct bpf_reg_state *reg,
				    int off, int size)
{
	if ((reg->type & PTR_UNTRUSTED) ||
	    btf_type_by_id(reg->btf, reg->btf_id) != lro_policy_hold_type) {
		bpf_log(log, "lro policy: only struct lro_policy_hold may be written\n");
		return -EACCES;
	}
	if (off < 0 || off + size > sizeof(struct lro_policy_hold)) {
		bpf_log(log, "lro policy: write at %d (%d bytes) past struct lro_policy_hold\n",
			off, size);
		return -EACCES;
	}
	return 0;
}

static const struct bpf_verifier_ops lro_policy_verifier_ops = {
	.get_func_proto = bpf_base_func_proto,
	.is_valid_access = lro_policy_is_valid_access,
	.btf_struct_access = lro_policy_struct_access,
};

/* The name, the one member that is not a program: checked and copied. */
static int lro_policy_init_member(const struct btf_type *t,
				  const struct btf_member *member,
				  void *kdata, const void *udata)
{
	const struct lro_policy_ops *uops = udata;
	struct lro_policy_ops *ops = kdata;
	size_t i, len;

	if (__btf_member_bit_offset(t, member) / 8 !=
	    offsetof(struct lro_policy_ops, name))
		return 0;
	len = strnlen(uops->name, sizeof(uops->name));
	if (!len || len == sizeof(uops->name))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isgraph(uops->name[i]))
			return -EINVAL;
	memcpy(ops->name, uops->name, len + 1);
	return 1;
}

static int lro_policy_reg(void *kdata, struct bpf_link *link)
{
	struct lro_policy_ops *ops = kdata;
	int err = 0;

	/* Policies see and steer every device's flows, in every netns. */
	if (!capable(CAP_NET_ADMIN))
		return -EPERM;
	/* lroadm's word for no policy */
	if (!ops->flow_start || !strcmp(ops->name, "none"))
		return -EINVAL;
	rtnl_lock();
	if (!IS_ERR(lro_policy_find(ops->name, NULL))) {
		err = -EEXIST;
	} else {
		list_add_tail(&ops->node, &lro_policies);
		pr_info("policy %s registered\n", ops->name);
	}
	rtnl_unlock();
	return err;
}

/* Devices using the policy drop it first (lro_dev_drop_policy()). */
static void lro_policy_unreg(void *kdata, struct bpf_link *link)
{
	struct lro_policy_ops *ops = kdata;

	rtnl_lock();
	lro_dev_drop_policy(ops);
	list_del(&ops->node);
	pr_info("policy %s unregistered\n", ops->name);
	rtnl_unlock();
}

/* What the trampolines are built against (CFI), never called. */
static int lro_policy_flow_start_stub(const struct lro_policy_flow *flow,
				      struct lro_policy_hold *hold)
{
	return LRO_POLICY_COALESCE;
}

static void lro_policy_flow_flush_stub(const struct lro_policy_flow *flow,
				       const struct lro_policy_flush *flush)
{
}

static struct lro_policy_ops lro_policy_stubs = {
	.flow_start = lro_policy_flow_start_stub,
	.flow_flush = lro_policy_flow_flush_stub,
};

static struct bpf_struct_ops lro_policy_struct_ops = {
	.verifier_ops = &lro_policy_verifier_ops,
	.init = lro_policy_ops_init,
	.check_member = lro_policy_check_member,
	.init_member = lro_policy_init_member,
	.reg = lro_policy_reg,
	.unreg = lro_policy_unreg,
	.cfi_stubs = &lro_policy_stubs,
	.name = "lro_policy_ops",
	.owner = THIS_MODULE,
};

/**
 * lro_policy_init - register struct lro_policy_ops with BPF
 *
 * Return: 0, or the error of the registration (no BTF for lro.ko, say):
 * then no policy can be loaded, and LRO works without.
 */
int lro_policy_init(void)
{
	return register_bpf_struct_ops(&lro_policy_struct_ops, lro_policy_ops);
}

#else

int lro_policy_init(void)
{
	pr_notice("no BPF policies: the kernel lacks CONFIG_BPF_JIT or CONFIG_BPF_SYSCALL\n");
	return 0;
}

#endif
