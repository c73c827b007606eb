// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/lro.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink-gen.h"

#include <uapi/linux/lro.h>

/* Integer value ranges */
static const struct netlink_range_validation lro_a_dev_max_desc_range = {
	.min	= 1ULL,
	.max	= 65536ULL,
};

static const struct netlink_range_validation lro_a_dev_flush_timeout_us_range = {
	.max	= 1000000ULL,
};

static const struct netlink_range_validation lro_a_dev_max_held_bytes_range = {
	.min	= 65536ULL,
	.max	= 1073741824ULL,
};

/* Common nested types */
const struct nla_policy lro_config_nl_policy[LRO_A_DEV_MAX_HELD_BYTES + 1] = {
	[LRO_A_DEV_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[LRO_A_DEV_MAX_DESC] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_desc_range),
	[LRO_A_DEV_MAX_AGGR] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
	[LRO_A_DEV_FEATURES] = NLA_POLICY_MASK(NLA_U32, 0xf),
	[LRO_A_DEV_FLUSH_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_flush_timeout_us_range),
	[LRO_A_DEV_MAX_HELD_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_held_bytes_range),
};

/* LRO_CMD_DEV_GET - do */
static const struct nla_policy lro_dev_get_nl_policy[LRO_A_DEV_IFINDEX + 1] = {
	[LRO_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* LRO_CMD_DEV_SET - do */
static const struct nla_policy lro_dev_set_nl_policy[LRO_A_DEV_POLICY + 1] = {
	[LRO_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[LRO_A_DEV_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[LRO_A_DEV_MAX_DESC] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_desc_range),
	[LRO_A_DEV_MAX_AGGR] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
	[LRO_A_DEV_FEATURES] = NLA_POLICY_MASK(NLA_U32, 0xf),
	[LRO_A_DEV_FLUSH_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_flush_timeout_us_range),
	[LRO_A_DEV_MAX_HELD_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_held_bytes_range),
	[LRO_A_DEV_POLICY] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* LRO_CMD_DEV_DEL - do */
static const struct nla_policy lro_dev_del_nl_policy[LRO_A_DEV_IFINDEX + 1] = {
	[LRO_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* LRO_CMD_STATS_RESET - do */
static const struct nla_policy lro_stats_reset_nl_policy[LRO_A_DEV_IFINDEX + 1] = {
	[LRO_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* LRO_CMD_DEV_ADD - do */
static const struct nla_policy lro_dev_add_nl_policy[LRO_A_DEV_POLICY + 1] = {
	[LRO_A_DEV_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),
	[LRO_A_DEV_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[LRO_A_DEV_MAX_DESC] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_desc_range),
	[LRO_A_DEV_MAX_AGGR] = NLA_POLICY_RANGE(NLA_U32, 1, 64),
	[LRO_A_DEV_FEATURES] = NLA_POLICY_MASK(NLA_U32, 0xf),
	[LRO_A_DEV_FLUSH_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_flush_timeout_us_range),
	[LRO_A_DEV_MAX_HELD_BYTES] = NLA_POLICY_FULL_RANGE(NLA_U32, &lro_a_dev_max_held_bytes_range),
	[LRO_A_DEV_POLICY] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* LRO_CMD_AUTO_ADD - do */
static const struct nla_policy lro_auto_add_nl_policy[LRO_A_AUTO_CONFIG + 1] = {
	[LRO_A_AUTO_KIND] = { .type = NLA_NUL_STRING, .len = 15, },
	[LRO_A_AUTO_IFNAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[LRO_A_AUTO_ALL_NETNS] = { .type = NLA_FLAG, },
	[LRO_A_AUTO_CONFIG] = NLA_POLICY_NESTED(lro_config_nl_policy),
};

/* LRO_CMD_AUTO_DEL - do */
static const struct nla_policy lro_auto_del_nl_policy[LRO_A_AUTO_ALL_NETNS + 1] = {
	[LRO_A_AUTO_KIND] = { .type = NLA_NUL_STRING, .len = 15, },
	[LRO_A_AUTO_IFNAME] = { .type = NLA_NUL_STRING, .len = 31, },
	[LRO_A_AUTO_ALL_NETNS] = { .type = NLA_FLAG, },
};

/* Ops table for lro */
static const struct genl_split_ops lro_nl_ops[] = {
	{
		.cmd		= LRO_CMD_DEV_GET,
		.pre_doit	= lro_nl_pre_doit,
		.doit		= lro_nl_dev_get_doit,
		.post_doit	= lro_nl_post_doit,
		.policy		= lro_dev_get_nl_policy,
		.maxattr	= LRO_A_DEV_IFINDEX,
		.flags		= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= LRO_CMD_DEV_GET,
		.dumpit	= lro_nl_dev_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= LRO_CMD_DEV_SET,
		.pre_doit	= lro_nl_pre_doit,
		.doit		= lro_nl_dev_set_doit,
		.post_doit	= lro_nl_post_doit,
		.policy		= lro_dev_set_nl_policy,
		.maxattr	= LRO_A_DEV_POLICY,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= LRO_CMD_DEV_DEL,
		.pre_doit	= lro_nl_pre_doit,
		.doit		= lro_nl_dev_del_doit,
		.post_doit	= lro_nl_post_doit,
		.policy		= lro_dev_del_nl_policy,
		.maxattr	= LRO_A_DEV_IFINDEX,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= LRO_CMD_STATS_RESET,
		.pre_doit	= lro_nl_pre_doit,
		.doit		= lro_nl_stats_reset_doit,
		.post_doit	= lro_nl_post_doit,
		.policy		= lro_stats_reset_nl_policy,
		.maxattr	= LRO_A_DEV_IFINDEX,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= LRO_CMD_DEV_ADD,
		.pre_doit	= lro_nl_pre_doit_dev,
		.doit		= lro_nl_dev_add_doit,
		.post_doit	= lro_nl_post_doit,
		.policy		= lro_dev_add_nl_policy,
		.maxattr	= LRO_A_DEV_POLICY,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= LRO_CMD_AUTO_GET,
		.dumpit	= lro_nl_auto_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= LRO_CMD_AUTO_ADD,
		.doit		= lro_nl_auto_add_doit,
		.policy		= lro_auto_add_nl_policy,
		.maxattr	= LRO_A_AUTO_CONFIG,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd		= LRO_CMD_AUTO_DEL,
		.doit		= lro_nl_auto_del_doit,
		.policy		= lro_auto_del_nl_policy,
		.maxattr	= LRO_A_AUTO_ALL_NETNS,
		.flags		= GENL_UNS_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= LRO_CMD_POLICY_GET,
		.dumpit	= lro_nl_policy_get_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
};

static const struct genl_multicast_group lro_nl_mcgrps[] = {
	[LRO_NLGRP_MONITOR] = { "monitor", },
};

struct genl_family lro_nl_family __ro_after_init = {
	.name		= LRO_FAMILY_NAME,
	.version	= LRO_FAMILY_VERSION,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.split_ops	= lro_nl_ops,
	.n_split_ops	= ARRAY_SIZE(lro_nl_ops),
	.mcgrps		= lro_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(lro_nl_mcgrps),
};
