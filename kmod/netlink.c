// SPDX-License-Identifier: GPL-2.0
/*
 * lro: the "lro" generic netlink family, the control plane of lro.ko.
 *
 * The family, its policies and its operation table are generated from
 * Documentation/netlink/specs/lro.yaml into netlink-gen.[ch]; this file
 * implements the device and policy operations. Every device request names
 * a device by ifindex in the request's network namespace; the pre_doit
 * hooks look it up and take RTNL, which post_doit releases, so an
 * operation sees the device and its LRO state stable. Dumps walk the
 * devices of the caller's namespace under RTNL. Changes made here or
 * anywhere else (sysfs, device unregistration) are announced by device.c
 * through lro_nl_notify() to the "monitor" multicast group of the device's
 * namespace, and auto.c's rules through lro_nl_auto_notify().
 *
 * The auto-rule operations are in netlink_auto.c; the other files export
 * what the operations do and know no message, as ovpn's do for its
 * netlink.c.
 *
 * Permissions: dev-get is open to everyone; dev-add, dev-set, dev-del and
 * stats-reset carry GENL_UNS_ADMIN_PERM (CAP_NET_ADMIN in the user
 * namespace owning the network namespace).
 */

#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "auto.h"
#include "device.h"
#include "netlink.h"
#include "netlink-gen.h"
#include "policy.h"

/* The kernel autoloads lro.ko when userspace resolves the family. */
MODULE_ALIAS_GENL_FAMILY(LRO_FAMILY_NAME);

/* The stats nest's attribute of each enum lro_stat */
#define LRO_STAT(NAME, ...) LRO_A_STATS_##NAME,
static const u16 lro_nl_stat_attr[LRO_STAT_NR] = {
#include "stats-list.h"
};

#undef LRO_STAT

/* The uapi numbers the features like the LRO_F_* bits. */
static_assert(LRO_FEATURE_NAPI == LRO_F_NAPI);
static_assert(LRO_FEATURE_EXTRACT_VLAN_ID == LRO_F_EXTRACT_VLAN_ID);
static_assert(LRO_FEATURE_EVICT == LRO_F_EVICT);
static_assert(LRO_FEATURE_ADAPTIVE == LRO_F_ADAPTIVE);

/* What the pre_doit hooks leave in info->user_ptr[] */
#define LRO_NL_NETDEV	0	/* struct net_device * */
#define LRO_NL_LRODEV	1	/* struct lro_dev *, NULL if not attached */

/* Notifications go out only while the family is registered (RTNL). */
static bool lro_nl_registered;

struct lro_nl_dump_ctx {
	unsigned long ifindex;	/* next device to look at */
};

/* Whether a notification to @net's monitor group would reach anyone. */
bool lro_nl_listened(struct net *net)
{
	return lro_nl_registered &&
	       genl_has_listeners(&lro_nl_family, net, LRO_NLGRP_MONITOR);
}

static size_t lro_nl_dev_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* IFINDEX */
	       nla_total_size(IFNAMSIZ) +		/* IFNAME */
	       nla_total_size(sizeof(u8)) +		/* ENABLED */
	       LRO_SETTING_NR * nla_total_size(sizeof(u32)) +
	       nla_total_size(LRO_POLICY_NAME_MAX) +	/* POLICY */
	       nla_total_size(0) +			/* STATS */
	       LRO_STAT_NR * nla_total_size(sizeof(u64));
}

static int lro_nl_fill_dev(struct sk_buff *skb, struct lro_dev *ld, u32 portid,
			   u32 seq, int flags, u8 cmd)
{
	struct net_device *dev = lro_dev_netdev(ld);
	u64 stats[LRO_STAT_NR];
	struct lro_config cfg;
	struct nlattr *nest;
	void *hdr;
	int i;

	hdr = genlmsg_put(skb, portid, seq, &lro_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;

	lro_dev_get_config(ld, &cfg);
	if (nla_put_u32(skb, LRO_A_DEV_IFINDEX, dev->ifindex) ||
	    nla_put_string(skb, LRO_A_DEV_IFNAME, dev->name) ||
	    nla_put_u8(skb, LRO_A_DEV_ENABLED, cfg.enabled))
		goto cancel;
	for (i = 0; i < LRO_SETTING_NR; i++)
		if (nla_put_u32(skb, lro_setting_info[i].attr,
				*lro_config_field(&cfg, i)))
			goto cancel;
	if (cfg.policy &&
	    nla_put_string(skb, LRO_A_DEV_POLICY, cfg.policy->name))
		goto cancel;

	nest = nla_nest_start(skb, LRO_A_DEV_STATS);
	if (!nest)
		goto cancel;
	lro_dev_get_stats(ld, stats);
	for (i = 0; i < LRO_STAT_NR; i++)
		if (nla_put_uint(skb, lro_nl_stat_attr[i], stats[i]))
			goto cancel;
	nla_nest_end(skb, nest);

	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int lro_nl_lookup(struct genl_info *info, bool need_lro)
{
	struct nlattr *attr = info->attrs[LRO_A_DEV_IFINDEX];
	struct net_device *dev;
	struct lro_dev *ld;
	u32 ifindex;

	if (GENL_REQ_ATTR_CHECK(info, LRO_A_DEV_IFINDEX)) {
		NL_SET_ERR_MSG_MOD(info->extack, "the ifindex attribute is required");
		return -EINVAL;
	}
	ifindex = nla_get_u32(attr);

	rtnl_lock();
	dev = __dev_get_by_index(genl_info_net(info), ifindex);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, attr,
					"no device with ifindex %u in this network namespace",
					ifindex);
		rtnl_unlock();
		return -ENODEV;
	}
	ld = lro_dev_find(dev);
	if (!ld && need_lro) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, attr,
					"LRO is not attached to %s", dev->name);
		rtnl_unlock();
		return -ENOENT;
	}
	info->user_ptr[LRO_NL_NETDEV] = dev;
	info->user_ptr[LRO_NL_LRODEV] = ld;
	return 0;
}

/**
 * lro_nl_pre_doit() - find the device LRO is attached to, and take RTNL
 * @ops: the operation
 * @skb: the request
 * @info: the request's attributes; the device and its LRO state are left in
 *	info->user_ptr[]
 *
 * For the operations on an attached device (dev-get, dev-set, dev-del,
 * stats-reset).
 * On success RTNL is held until lro_nl_post_doit().
 *
 * Return: 0, or a negative errno with an extack message.
 */
int lro_nl_pre_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		    struct genl_info *info)
{
	return lro_nl_lookup(info, true);
}

/**
 * lro_nl_pre_doit_dev() - find the device, attached or not, and take RTNL
 * @ops: the operation
 * @skb: the request
 * @info: the request's attributes; the device and its LRO state (NULL if
 *	not attached) are left in info->user_ptr[]
 *
 * For dev-add, which attaches LRO. On success RTNL is held until
 * lro_nl_post_doit().
 *
 * Return: 0, or a negative errno with an extack message.
 */
int lro_nl_pre_doit_dev(const struct genl_split_ops *ops, struct sk_buff *skb,
			struct genl_info *info)
{
	return lro_nl_lookup(info, false);
}

/**
 * lro_nl_post_doit() - release RTNL taken by the pre_doit hooks
 * @ops: the operation
 * @skb: the request
 * @info: the request's attributes
 */
void lro_nl_post_doit(const struct genl_split_ops *ops, struct sk_buff *skb,
		      struct genl_info *info)
{
	rtnl_unlock();
}

/**
 * lro_nl_dev_get_doit() - LRO_CMD_DEV_GET: LRO on one device
 * @skb: the request
 * @info: the request's attributes, with the device found by pre_doit
 *
 * Return: 0 or a negative errno.
 */
int lro_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct lro_dev *ld = info->user_ptr[LRO_NL_LRODEV];
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(lro_nl_dev_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = lro_nl_fill_dev(msg, ld, info->snd_portid, info->snd_seq, 0,
			      LRO_CMD_DEV_GET);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/**
 * lro_nl_dev_get_dumpit() - LRO_CMD_DEV_GET dump: every attached device
 * @skb: the reply being filled
 * @cb: the dump state; its context holds the next ifindex to look at
 *
 * Walks the devices of the caller's network namespace in ifindex order
 * under RTNL, so a dump that takes several replies resumes where the last
 * one stopped.
 *
 * Return: the dump status, as netlink dumps return it.
 */
int lro_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lro_nl_dump_ctx *ctx = (struct lro_nl_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct net_device *dev;
	struct lro_dev *ld;
	int err = 0;

	NL_ASSERT_DUMP_CTX_FITS(struct lro_nl_dump_ctx);

	rtnl_lock();
	for_each_netdev_dump(net, dev, ctx->ifindex) {
		ld = lro_dev_find(dev);
		if (!ld)
			continue;
		err = lro_nl_fill_dev(skb, ld, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI,
				      LRO_CMD_DEV_GET);
		if (err)
			break;
	}
	rtnl_unlock();
	return err;
}

/*
 * The settings a request gives: @tb holds the attributes of the dev set (a
 * dev-set or dev-add request, or an auto rule's config nest), validated by
 * their policy.
 */
void lro_nl_parse_part(struct nlattr **tb, struct lro_config_part *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	if (tb[LRO_A_DEV_ENABLED]) {
		p->cfg.enabled = nla_get_u8(tb[LRO_A_DEV_ENABLED]);
		p->given |= LRO_GIVEN_ENABLED;
	}
	for (i = 0; i < LRO_SETTING_NR; i++) {
		if (!tb[lro_setting_info[i].attr])
			continue;
		*lro_config_field(&p->cfg, i) =
			nla_get_u32(tb[lro_setting_info[i].attr]);
		p->given |= BIT(i);
	}
}

/* What a part takes in a message, and putting it as a nest of @type. */
size_t lro_nl_part_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u8)) +
	       LRO_SETTING_NR * nla_total_size(sizeof(u32));
}

int lro_nl_put_part(struct sk_buff *skb, int type,
		    const struct lro_config_part *p)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	if ((p->given & LRO_GIVEN_ENABLED) &&
	    nla_put_u8(skb, LRO_A_DEV_ENABLED, p->cfg.enabled))
		goto cancel;
	for (i = 0; i < LRO_SETTING_NR; i++)
		if ((p->given & BIT(i)) &&
		    nla_put_u32(skb, lro_setting_info[i].attr,
				lro_config_get(&p->cfg, i)))
			goto cancel;
	nla_nest_end(skb, nest);
	return 0;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/* The policy attribute: a registered policy's name, or empty for none. */
static int lro_nl_parse_policy(struct nlattr *attr, struct lro_config *cfg,
			       struct netlink_ext_ack *extack)
{
	char name[LRO_POLICY_NAME_MAX];
	const struct lro_policy_ops *ops;

	nla_strscpy(name, attr, sizeof(name));
	if (!name[0]) {
		cfg->policy = NULL;
		return 0;
	}
	ops = lro_policy_find(name, extack);
	if (IS_ERR(ops)) {
		NL_SET_BAD_ATTR(extack, attr);
		return PTR_ERR(ops);
	}
	cfg->policy = ops;
	return 0;
}

/**
 * lro_nl_dev_set_doit() - LRO_CMD_DEV_SET: reconfigure LRO (and attach it,
 *	for lro_nl_dev_add_doit())
 * @skb: the request
 * @info: the request's attributes, with the device found by pre_doit
 *
 * The configuration is the current one (or, when attaching, the module's
 * defaults) with the attributes of the request applied. lro_dev_attach()
 * and lro_dev_configure() check it and report errors through extack; a
 * rejected request changes nothing.
 *
 * Return: 0 or a negative errno.
 */
int lro_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev = info->user_ptr[LRO_NL_NETDEV];
	struct lro_dev *ld = info->user_ptr[LRO_NL_LRODEV];
	struct nlattr **tb = info->attrs;
	struct lro_config_part part;
	struct lro_config cfg;

	if (ld)
		lro_dev_get_config(ld, &cfg);
	else
		lro_default_config(&cfg);

	lro_nl_parse_part(tb, &part);
	lro_config_apply(&cfg, &part);
	if (tb[LRO_A_DEV_POLICY]) {
		int err = lro_nl_parse_policy(tb[LRO_A_DEV_POLICY], &cfg,
					      info->extack);

		if (err)
			return err;
	}
	if (ld)
		return lro_dev_configure(ld, &cfg, info->extack);
	return lro_dev_attach(dev, &cfg, false, info->extack);
}

/**
 * lro_nl_dev_add_doit() - LRO_CMD_DEV_ADD: attach LRO to a device
 * @skb: the request
 * @info: the request's attributes, with the device found by pre_doit
 *
 * Attaching is a command of its own, not something dev-set does where LRO
 * is missing: then a dev-set (lroadm disable) that meets a device detached
 * meanwhile fails instead of attaching again. (rtnetlink says it with
 * NLM_F_CREATE, which genetlink refuses for a family like this one, whose
 * every command has strict header checks: genl_header_check().)
 *
 * Return: 0, -EEXIST if LRO is attached already, or lro_dev_attach()'s
 * error.
 */
int lro_nl_dev_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev = info->user_ptr[LRO_NL_NETDEV];

	if (info->user_ptr[LRO_NL_LRODEV]) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack,
					info->attrs[LRO_A_DEV_IFINDEX],
					"LRO is already attached to %s",
					dev->name);
		return -EEXIST;
	}
	return lro_nl_dev_set_doit(skb, info);
}

/**
 * lro_nl_dev_del_doit() - LRO_CMD_DEV_DEL: detach LRO from a device
 * @skb: the request
 * @info: the request's attributes, with the device found by pre_doit
 *
 * Return: 0.
 */
int lro_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	lro_dev_detach(info->user_ptr[LRO_NL_LRODEV]);
	return 0;
}

/**
 * lro_nl_stats_reset_doit() - LRO_CMD_STATS_RESET: zero a device's counters
 * @skb: the request
 * @info: the request's attributes, with the device found by pre_doit
 *
 * Return: 0.
 */
int lro_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	lro_dev_reset_stats(info->user_ptr[LRO_NL_LRODEV]);
	return 0;
}

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
	const struct lro_policy_ops *ops;
	int err = 0;
	void *hdr;

	NL_ASSERT_DUMP_CTX_FITS(struct lro_policy_dump_ctx);

	rtnl_lock();
	while ((ops = lro_policy_nth(ctx->done))) {
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

/**
 * lro_nl_notify() - announce a change of LRO on a device
 * @ld: the device, still attached (for LRO_NOTIFY_DEL: not freed yet)
 * @what: attached, reconfigured or detached
 *
 * Sends the device's message (as dev-get would return it) to the "monitor"
 * group of the device's network namespace. Called by device.c under RTNL;
 * may sleep. Without listeners it costs a bit test.
 */
void lro_nl_notify(struct lro_dev *ld, enum lro_notify what)
{
	static const u8 cmd[] = {
		[LRO_NOTIFY_NEW]	= LRO_CMD_DEV_ADD_NTF,
		[LRO_NOTIFY_CHANGE]	= LRO_CMD_DEV_CHANGE_NTF,
		[LRO_NOTIFY_DEL]	= LRO_CMD_DEV_DEL_NTF,
	};
	struct net *net = dev_net(lro_dev_netdev(ld));
	struct sk_buff *msg;

	ASSERT_RTNL();
	if (WARN_ON_ONCE(what >= ARRAY_SIZE(cmd)))
		return;
	if (!lro_nl_listened(net))
		return;

	msg = genlmsg_new(lro_nl_dev_size(), GFP_KERNEL);
	if (!msg)
		return;
	if (lro_nl_fill_dev(msg, ld, 0, 0, 0, cmd[what])) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast_netns(&lro_nl_family, net, msg, 0, LRO_NLGRP_MONITOR,
				GFP_KERNEL);
}

/**
 * lro_nl_init() - register the "lro" generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int lro_nl_init(void)
{
	int err;

	err = genl_register_family(&lro_nl_family);
	if (err)
		return err;
	rtnl_lock();
	lro_nl_registered = true;
	rtnl_unlock();
	return 0;
}

/**
 * lro_nl_exit() - unregister the family; no notification is sent after this
 */
void lro_nl_exit(void)
{
	rtnl_lock();
	lro_nl_registered = false;
	rtnl_unlock();
	genl_unregister_family(&lro_nl_family);
}
