/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/lro.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_LRO_GEN_H
#define _LINUX_LRO_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/lro.h>

/* Common nested types */
extern const struct nla_policy lro_config_nl_policy[LRO_A_DEV_MAX_HELD_BYTES + 1];

int lro_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		    struct genl_info *info);
int lro_nl_pre_doit_dev(const struct genl_split_ops *ops, struct sk_buff *skb,
			struct genl_info *info);
void
lro_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		 struct genl_info *info);

int lro_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int lro_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_dev_add_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_auto_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int lro_nl_auto_add_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_auto_del_doit(struct sk_buff *skb, struct genl_info *info);
int lro_nl_policy_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

enum {
	LRO_NLGRP_MONITOR,
};

extern struct genl_family lro_nl_family;

#endif /* _LINUX_LRO_GEN_H */
