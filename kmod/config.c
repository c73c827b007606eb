// SPDX-License-Identifier: GPL-2.0
/*
 * The settings of an attachment: their defaults, as module parameters,
 * and their limits, checked wherever a configuration comes from
 * (netlink, sysfs, an auto rule, the module parameters themselves).
 */

#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/sysfs.h>

#include <uapi/linux/lro.h>

#include "config.h"

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

/* A declaration per setting, semicolon included: the list has none. */
#define LRO_SETTING(NAME, name, lo, hi, def, desc)			\
	LRO_PARAM(default_##name, def, lo, hi,				\
		  #name " of a new attachment (" desc ")");
#include "settings-gen.h"
#undef LRO_SETTING

#define LRO_SETTING(NAME, name, ...) \
	[LRO_SETTING_##NAME] = &default_##name,
static const struct lro_param *const lro_defaults[LRO_SETTING_NR] = {
#include "settings-gen.h"
};

#undef LRO_SETTING

#define LRO_SETTING(NAME, name, lo, hi, ...)				\
	[LRO_SETTING_##NAME] = {					\
		#name, offsetof(struct lro_config, name),		\
		LRO_A_DEV_##NAME, lo, hi,				\
	},
const struct lro_setting_info lro_setting_info[LRO_SETTING_NR] = {
#include "settings-gen.h"
};

#undef LRO_SETTING

/* features: the spec's bits (0..15) are the manager's (netlink.c) */
static_assert(LRO_F_ALL == 15);

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
	int i;

	for (i = 0; i < LRO_SETTING_NR; i++) {
		const struct lro_setting_info *s = &lro_setting_info[i];
		u32 v = lro_config_get(cfg, i);

		if (v < s->min || v > s->max) {
			NL_SET_ERR_MSG_FMT_MOD(extack, "%s must be %u..%u",
					       s->name, s->min, s->max);
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * lro_default_config - the configuration of a new attachment
 * @cfg: filled from the module parameters
 */
void lro_default_config(struct lro_config *cfg)
{
	int i;

	for (i = 0; i < LRO_SETTING_NR; i++)
		*lro_config_field(cfg, i) = READ_ONCE(lro_defaults[i]->val);
	cfg->enabled = true;
	cfg->policy = NULL;
}

/**
 * lro_config_apply - the settings @p gives, over @cfg
 * @cfg: a whole configuration
 * @p: the settings to change in it
 */
void lro_config_apply(struct lro_config *cfg, const struct lro_config_part *p)
{
	int i;

	if (p->given & LRO_GIVEN_ENABLED)
		cfg->enabled = p->cfg.enabled;
	for (i = 0; i < LRO_SETTING_NR; i++)
		if (p->given & BIT(i))
			*lro_config_field(cfg, i) = lro_config_get(&p->cfg, i);
}
