// SPDX-License-Identifier: GPL-2.0
/*
 * struct lro_policy_ops as a BPF struct_ops type: what the verifier lets a
 * policy program do, and its registration, which puts it on policy.c's
 * list (and its unregistration, which every device drops it for first).
 * Beside the policy hook as bpf_tcp_ca.c is beside TCP's congestion
 * control: policy.c and the engine know nothing of BPF.
 */

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/ctype.h>
#include <linux/filter.h>
#include <linux/rtnetlink.h>

#include "bpf_policy.h"
#include "device.h"
#include "policy.h"

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
	err = lro_policy_add(ops);
	rtnl_unlock();
	return err;
}

/* Devices using the policy drop it first (lro_dev_drop_policy()). */
static void lro_policy_unreg(void *kdata, struct bpf_link *link)
{
	struct lro_policy_ops *ops = kdata;

	rtnl_lock();
	lro_dev_drop_policy(ops);
	lro_policy_del(ops);
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
 * lro_bpf_policy_init - register struct lro_policy_ops with BPF
 *
 * Return: 0, or the error of the registration (no BTF for lro.ko, say):
 * then no policy can be loaded, and LRO works without.
 */
int lro_bpf_policy_init(void)
{
	return register_bpf_struct_ops(&lro_policy_struct_ops, lro_policy_ops);
}

#else

int lro_bpf_policy_init(void)
{
	pr_notice("no BPF policies: the kernel lacks CONFIG_BPF_JIT or CONFIG_BPF_SYSCALL\n");
	return 0;
}

#endif
