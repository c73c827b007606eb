/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro.ko internals shared between its files. Drivers use
 * include/linux/inet_lro.h instead.
 */
#ifndef _LRO_H
#define _LRO_H

#include <linux/build_bug.h>
#include <linux/inet_lro.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/sizes.h>

/* The manager features a device's features setting takes (config.c) */
#define LRO_F_ALL	(LRO_F_NAPI | LRO_F_EXTRACT_VLAN_ID | LRO_F_EVICT)

/* device.c: LRO on any device through an rx_handler */
struct lro_config {
	u32 max_desc;
	u32 max_aggr;
	u32 features;		/* LRO_F_* */
	u32 flush_timeout_us;	/* 0: flush at the end of each receive batch */
	u32 max_held_bytes;	/* truesize held per CPU, at most */
	bool enabled;		/* false: attached but passing everything */
	const struct lro_policy_ops *policy;	/* BPF merge policy, or NULL */
};

#define LRO_SETTING(NAME, ...) LRO_SETTING_##NAME,
enum lro_setting {
#include "settings-list.h"
	LRO_SETTING_NR,
};

#undef LRO_SETTING

/* What config.c knows of each setting, indexed by enum lro_setting. */
struct lro_setting_info {
	const char *name;
	unsigned int offset;	/* of the u32 member of struct lro_config */
	u16 attr;		/* LRO_A_DEV_* */
	u32 min, max;
};

extern const struct lro_setting_info lro_setting_info[LRO_SETTING_NR];

/* config.c: the defaults (module parameters) and the limits */
static inline u32 *lro_config_field(struct lro_config *cfg,
				    enum lro_setting i)
{
	return (u32 *)((u8 *)cfg + lro_setting_info[i].offset);
}

int lro_config_check(const struct lro_config *cfg,
		     struct netlink_ext_ack *extack);
void lro_default_config(struct lro_config *cfg);

#define LRO_STAT(NAME, ...) LRO_STAT_##NAME,
enum lro_stat {
#include "stats-list.h"
	LRO_STAT_NR,
};

#undef LRO_STAT

/* What device.c knows of each counter, indexed by enum lro_stat. */
struct lro_stat_info {
	const char *name;
	unsigned int offset;	/* of the counter in struct lro_pcpu */
	bool gauge;
};

extern const struct lro_stat_info lro_stat_info[LRO_STAT_NR];

struct lro_dev;

/* All of these need RTNL, except where noted. */
struct lro_dev *lro_dev_find(const struct net_device *dev);
int lro_dev_attach(struct net_device *dev, const struct lro_config *cfg,
		   bool by_rule, struct netlink_ext_ack *extack);
int lro_dev_configure(struct lro_dev *ld, const struct lro_config *cfg,
		      struct netlink_ext_ack *extack);
void lro_dev_detach(struct lro_dev *ld);
struct net_device *lro_dev_netdev(const struct lro_dev *ld);
void lro_dev_get_config(const struct lro_dev *ld, struct lro_config *cfg);
void lro_dev_get_stats(const struct lro_dev *ld, u64 stats[LRO_STAT_NR]);
void lro_dev_reset_stats(struct lro_dev *ld);
void lro_dev_drop_policy(const struct lro_policy_ops *ops);
/* Walk the attached devices of one netns, under RTNL. */
struct lro_dev *lro_dev_next(struct net *net, struct lro_dev *prev);
int lro_device_init(void);
void lro_device_exit(void);

/* netlink.c */
enum lro_notify { LRO_NOTIFY_NEW, LRO_NOTIFY_CHANGE, LRO_NOTIFY_DEL };
void lro_nl_notify(struct lro_dev *ld, enum lro_notify what);
void lro_nl_parse_config(struct nlattr **tb, struct lro_config *cfg);
int lro_nl_init(void);
void lro_nl_exit(void);

/* sysfs.c: /sys/class/net/<dev>/lro/, created at attach, removed at
 * detach (both under RTNL, by device.c).
 */
struct kobject *lro_sysfs_add(struct net_device *dev);
void lro_sysfs_del(struct kobject *kobj);

#endif /* _LRO_H */
