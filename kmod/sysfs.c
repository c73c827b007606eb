// SPDX-License-Identifier: GPL-2.0
/*
 * lro: /sys/class/net/<dev>/lro/, the sysfs face of LRO on a device.
 *
 *   enabled, and each setting of the spec          decimal, read-write
 *   (settings-gen.h: max_desc, max_aggr, ...)
 *   features                                        bitmask, read-write:
 *                                                   read as hex ("0x5"),
 *                                                   written as decimal,
 *                                                   0x-hex or 0-octal
 *
 * The counters are in netlink only (lroadm stats): sysfs files cost a
 * kernfs node each on every device, which auto rules attach by the
 * hundred. The directory exists while LRO is attached: device.c creates it at
 * attach and removes it at detach, both under RTNL. A write changes one
 * field of the configuration through lro_dev_configure(), like a netlink
 * dev-set with one attribute; a value the configuration check rejects
 * fails with -EINVAL and changes nothing.
 *
 * Removing a kernfs directory waits for the show/store calls running in
 * it, and device.c removes this one with RTNL held: show and store must
 * therefore never block on RTNL. They try to take it and, when it is busy,
 * restart the system call, as net/core/net-sysfs.c does.
 */

#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sysfs.h>
#include <net/net_namespace.h>

#include "device.h"
#include "sysfs.h"

/* The enabled file's index; the settings' are enum lro_setting's. */
#define LRO_SYSFS_ENABLED	LRO_SETTING_NR

struct lro_sysfs_attr {
	struct kobj_attribute attr;
	int index;	/* enum lro_setting or LRO_SYSFS_ENABLED */
};

#define to_lro_sysfs_attr(a) container_of(a, struct lro_sysfs_attr, attr)

/* The "lro" kobject's parent is the net_device's struct device. */
static struct net_device *lro_sysfs_netdev(struct kobject *kobj)
{
	return to_net_dev(kobj_to_dev(kobj->parent));
}

/*
 * Take RTNL, without waiting for it (see the top), and read the
 * configuration of @kobj's device into @cfg. Returns its LRO state with
 * RTNL held, or an error with RTNL released.
 */
static struct lro_dev *lro_sysfs_begin(struct kobject *kobj,
				       struct lro_config *cfg)
{
	struct lro_dev *ld;

	if (!rtnl_trylock())
		return ERR_PTR(restart_syscall());
	ld = lro_dev_find(lro_sysfs_netdev(kobj));
	if (!ld) {
		rtnl_unlock();
		return ERR_PTR(-ENODEV);
	}
	lro_dev_get_config(ld, cfg);
	return ld;
}

static ssize_t lro_cfg_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	int index = to_lro_sysfs_attr(attr)->index;
	struct lro_config cfg;
	struct lro_dev *ld;
	ssize_t ret;

	ld = lro_sysfs_begin(kobj, &cfg);
	if (IS_ERR(ld))
		return PTR_ERR(ld);
	if (index == LRO_SYSFS_ENABLED)
		ret = sysfs_emit(buf, "%u\n", cfg.enabled);
	else if (index == LRO_SETTING_FEATURES)
		ret = sysfs_emit(buf, "%#x\n", cfg.features);
	else
		ret = sysfs_emit(buf, "%u\n", *lro_config_field(&cfg, index));
	rtnl_unlock();
	return ret;
}

static ssize_t lro_cfg_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	int index = to_lro_sysfs_attr(attr)->index;
	struct net_device *dev = lro_sysfs_netdev(kobj);
	struct lro_config cfg;
	struct lro_dev *ld;
	u32 val;
	int err;

	if (!ns_capable(dev_net(dev)->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	/* features also in hex; the others in decimal only */
	if (kstrtou32(buf, index == LRO_SETTING_FEATURES ? 0 : 10, &val))
		return -EINVAL;
	if (index == LRO_SYSFS_ENABLED && val > 1)
		return -EINVAL;

	ld = lro_sysfs_begin(kobj, &cfg);
	if (IS_ERR(ld))
		return PTR_ERR(ld);
	if (index == LRO_SYSFS_ENABLED)
		cfg.enabled = val;
	else
		*lro_config_field(&cfg, index) = val;
	err = lro_config_check(&cfg, NULL) ? -EINVAL :
	      lro_dev_configure(ld, &cfg, NULL);
	rtnl_unlock();
	return err ?: count;
}

/* enabled, then each setting of settings-gen.h, named as there */
#define LRO_CFG_ATTR(name, index) \
	[index] = { __ATTR(name, 0644, lro_cfg_show, lro_cfg_store), index },
#define LRO_SETTING(NAME, name, ...) LRO_CFG_ATTR(name, LRO_SETTING_##NAME)
static struct lro_sysfs_attr lro_cfg_attr[LRO_SETTING_NR + 1] = {
	LRO_CFG_ATTR(enabled, LRO_SYSFS_ENABLED)
#include "settings-gen.h"
};

#undef LRO_SETTING

#define LRO_SETTING(NAME, ...) (&lro_cfg_attr[LRO_SETTING_##NAME].attr.attr),
static struct attribute *lro_cfg_attrs[] = {
	&lro_cfg_attr[LRO_SYSFS_ENABLED].attr.attr,
#include "settings-gen.h"
	NULL,
};

#undef LRO_SETTING
#undef LRO_CFG_ATTR

static const struct attribute_group lro_cfg_group = {
	.attrs = lro_cfg_attrs,
};

static const struct attribute_group *lro_sysfs_groups[] = {
	&lro_cfg_group,
	NULL,
};

/**
 * lro_sysfs_add() - create /sys/class/net/<dev>/lro/
 * @dev: the device LRO is being attached to
 *
 * Called under RTNL by device.c when it attaches LRO.
 *
 * Return: the directory's kobject, to hand to lro_sysfs_del(), or an
 * ERR_PTR().
 */
struct kobject *lro_sysfs_add(struct net_device *dev)
{
	struct kobject *kobj;
	int err;

	kobj = kobject_create_and_add("lro", &dev->dev.kobj);
	if (!kobj)
		return ERR_PTR(-ENOMEM);
	err = sysfs_create_groups(kobj, lro_sysfs_groups);
	if (err) {
		kobject_put(kobj);
		return ERR_PTR(err);
	}
	return kobj;
}

/**
 * lro_sysfs_del() - remove the directory made by lro_sysfs_add()
 * @kobj: its kobject; NULL or an ERR_PTR() is ignored
 *
 * Waits for the show/store calls running in it (which never wait for
 * RTNL), so it may be called under RTNL.
 */
void lro_sysfs_del(struct kobject *kobj)
{
	if (IS_ERR_OR_NULL(kobj))
		return;
	kobject_del(kobj);
	kobject_put(kobj);
}
