// SPDX-License-Identifier: GPL-2.0
/*
 * The settings of an attachment: their defaults, as module parameters,
 * and their limits, checked wherever a configuration comes from
 * (netlink, sysfs, an auto rule, the module parameters themselves).
 */

#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/sysfs.h>

#include "lro.h"

/*
 * The defaults of a new attachment, as module parameters. Each is checked
 * against the limit netlink enforces when it is set (at load or through
 * /sys/module/lro/parameters/), so a bad value is refused there and then,
 * not by every later attach with a message about a value nobody passed.
 */
struct lro_param {
	unsigned int val, min, max;
};

static int lro_param_set(const char *s, const struct kernel_param *kp)
{
	struct lro_param *p = kp->arg;
	unsigned int v;
	int err;

	err = kstrtouint(s, 0, &v);
	if (err)
		return err;
	if (v < p->min || v > p->max) {
		pr_err("%s must be %u..%u, not %u\n", kp->name, p->min, p->max, v);
		return -ERANGE;
	}
	WRITE_ONCE(p->val, v);
	return 0;
}

static int lro_param_get(char *buf, const struct kernel_param *kp)
{
	const struct lro_param *p = kp->arg;

	return sysfs_emit(buf, "%u\n", READ_ONCE(p->val));
}

static const struct kernel_param_ops lro_param_ops = {
	.set = lro_param_set,
	.get = lro_param_get,
};

#define LRO_PARAM(name, def, lo, hi, desc)				\
	static struct lro_param name = { def, lo, hi };			\
	module_param_cb(name, &lro_param_ops, &name, 0644);		\
	MODULE_PARM_DESC(name, desc)

LRO_PARAM(default_max_desc, 256, 1, LRO_MAX_DESC_LIMIT,
	  "max_desc of a new attachment (flows per CPU)");
LRO_PARAM(default_max_aggr, 64, 1, LRO_MAX_AGGR_LIMIT,
	  "max_aggr of a new attachment (segments per packet)");
LRO_PARAM(default_flush_timeout_us, 0, 0, LRO_FLUSH_TIMEOUT_LIMIT,
	  "hold timer of a new attachment in us (0: flush at the end of each receive batch)");
LRO_PARAM(default_features, LRO_F_NAPI, 0, LRO_F_ALL,
	  "features of a new attachment (1 napi, 2 extract_vlan_id, 4 evict)");
/* What GRO holds at most per NAPI instance is of this order: 8 hash
 * buckets of 8 packets (GRO_HASH_BUCKETS, MAX_GRO_SKBS) of up to 64 KB.
 */
LRO_PARAM(default_max_held_bytes, SZ_8M, LRO_MAX_HELD_MIN, LRO_MAX_HELD_LIMIT,
	  "max_held_bytes of a new attachment (truesize held per CPU)");

/**
 * lro_config_check - validate a configuration
 * @cfg: configuration
 * @extack: where to say what is wrong
 *
 * Return: 0 or -EINVAL.
 */
int lro_config_check(const struct lro_config *cfg,
		     struct netlink_ext_ack *extack)
{
	if (cfg->max_desc < 1 || cfg->max_desc > LRO_MAX_DESC_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "max_desc must be 1..%u",
				       LRO_MAX_DESC_LIMIT);
		return -EINVAL;
	}
	if (cfg->max_aggr < 1 || cfg->max_aggr > LRO_MAX_AGGR_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "max_aggr must be 1..%u",
				       LRO_MAX_AGGR_LIMIT);
		return -EINVAL;
	}
	if (cfg->features & ~LRO_F_ALL) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "unknown features 0x%x",
				       cfg->features & ~LRO_F_ALL);
		return -EINVAL;
	}
	if (cfg->flush_timeout_us > LRO_FLUSH_TIMEOUT_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "flush_timeout_us must be 0..%u",
				       LRO_FLUSH_TIMEOUT_LIMIT);
		return -EINVAL;
	}
	if (cfg->max_held_bytes < LRO_MAX_HELD_MIN ||
	    cfg->max_held_bytes > LRO_MAX_HELD_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "max_held_bytes must be %u..%u",
				       LRO_MAX_HELD_MIN, LRO_MAX_HELD_LIMIT);
		return -EINVAL;
	}
	return 0;
}

/**
 * lro_default_config - the configuration of a new attachment
 * @cfg: filled from the module parameters
 */
void lro_default_config(struct lro_config *cfg)
{
	cfg->max_desc = READ_ONCE(default_max_desc.val);
	cfg->max_aggr = READ_ONCE(default_max_aggr.val);
	cfg->features = READ_ONCE(default_features.val);
	cfg->flush_timeout_us = READ_ONCE(default_flush_timeout_us.val);
	cfg->max_held_bytes = READ_ONCE(default_max_held_bytes.val);
	cfg->enabled = true;
}
