/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LRO on a device (device.c): attaching, configuring, detaching, counters.
 * The receive path under it is rx.c's; the control surfaces above it
 * (netlink.c, sysfs.c, auto.c, policy.c) use these functions.
 */
#ifndef _LRO_DEVICE_H
#define _LRO_DEVICE_H

#include <linux/netdevice.h>

#include "config.h"
#include "rx_ctl.h"

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

struct lro_dev {
	struct lro_rx rx;		/* rx_handler_data; its cfg is ours */
	netdevice_tracker tracker;
	struct list_head node;		/* lro_devs, under RTNL */
	struct kobject *kobj;
	bool by_rule;			/* attached by an auto rule (auto.c) */
};

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

#endif /* _LRO_DEVICE_H */
