// SPDX-License-Identifier: GPL-2.0
/*
 * lro: the auto-rule operations of the "lro" family: auto-get, auto-add,
 * auto-del and the auto-add-ntf/auto-del-ntf notifications.
 *
 * auto.c keeps the rules and attaches LRO by them; this file turns requests
 * into rules and rules into messages. A rule's settings are a config part,
 * parsed and put by netlink.c's helpers, as a dev-set request's are.
 * Permissions, the namespace a request acts in and RTNL are as netlink.c
 * describes; the do operations here take RTNL themselves (no pre_doit: a
 * rule names no device).
 */

#include <linux/ctype.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "auto.h"
#include "netlink.h"
#include "netlink-gen.h"
#include "netlink_auto.h"

struct lro_nl_auto_dump_ctx {
	unsigned int done;	/* rules already sent */
};

static size_t lro_nl_auto_size(const struct lro_auto_rule *r)
{
	return nla_total_size(sizeof(r->key.kind)) +
	       nla_total_size(sizeof(r->key.ifname)) +
	       nla_total_size(0) +				/* ALL_NETNS */
	       lro_nl_part_size() +				/* CONFIG */
	       2 * nla_total_size(sizeof(u64));			/* counters */
}

/* @r as @net sees it: the counters of an all-netns rule in init_net only:
 * elsewhere they would tell of other containers' devices.
 */
static int lro_nl_fill_auto(struct sk_buff *skb, const struct lro_auto_rule *r,
			    const struct net *net, u32 portid, u32 seq,
			    int flags, u8 cmd)
{
	const struct lro_auto_key *k = &r->key;
	bool counters = !k->all_netns || net_eq(net, &init_net);
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &lro_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if ((k->kind[0] && nla_put_string(skb, LRO_A_AUTO_KIND, k->kind)) ||
	    (k->ifname[0] && nla_put_string(skb, LRO_A_AUTO_IFNAME, k->ifname)) ||
	    (k->all_netns && nla_put_flag(skb, LRO_A_AUTO_ALL_NETNS)) ||
	    (r->config.given &&
	     lro_nl_put_part(skb, LRO_A_AUTO_CONFIG, &r->config)) ||
	    (counters && nla_put_uint(skb, LRO_A_AUTO_ATTACHED, r->attached)) ||
	    (counters && nla_put_uint(skb, LRO_A_AUTO_FAILED, r->failed))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * lro_nl_auto_notify() - announce a rule added or deleted
 * @net: the namespace of the request (for an all-netns rule the initial
 *	one: those are its admin's)
 * @r: the rule
 * @add: auto-add-ntf, else auto-del-ntf
 *
 * Context: RTNL held.
 */
void lro_nl_auto_notify(struct net *net, const struct lro_auto_rule *r,
			bool add)
{
	struct sk_buff *msg;

	ASSERT_RTNL();
	if (!lro_nl_listened(net))
		return;
	msg = genlmsg_new(lro_nl_auto_size(r), GFP_KERNEL);
	if (!msg)
		return;
	if (lro_nl_fill_auto(msg, r, net, 0, 0, 0, add ? LRO_CMD_AUTO_ADD_NTF :
			     LRO_CMD_AUTO_DEL_NTF)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_multicast_netns(&lro_nl_family, net, msg, 0, LRO_NLGRP_MONITOR,
				GFP_KERNEL);
}

/**
 * lro_nl_auto_get_dumpit() - LRO_CMD_AUTO_GET dump: the rules that apply
 *	in the caller's network namespace
 * @skb: the reply being filled
 * @cb: the dump state; its context counts the rules already sent
 *
 * The namespace's own rules first, then the all-netns rules: the order in
 * which they are tried.
 *
 * Return: the dump status, as netlink dumps return it.
 */
int lro_nl_auto_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lro_nl_auto_dump_ctx *ctx = (struct lro_nl_auto_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	const struct lro_auto_rule *r;
	int err = 0;

	NL_ASSERT_DUMP_CTX_FITS(struct lro_nl_auto_dump_ctx);

	rtnl_lock();
	while ((r = lro_auto_nth(net, ctx->done))) {
		err = lro_nl_fill_auto(skb, r, net, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI,
				       LRO_CMD_AUTO_GET);
		if (err)
			break;
		ctx->done++;
	}
	rtnl_unlock();
	return err;
}

/*
 * Printable, no spaces: a kind or pattern goes into the kernel log as it
 * is, and that must not let a user namespace's root forge lines there.
 */
static int lro_nl_auto_word(struct nlattr *attr, char *s, size_t len,
			    struct netlink_ext_ack *extack)
{
	nla_strscpy(s, attr, len);
	if (!*s) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "empty");
		return -EINVAL;
	}
	for (; *s; s++) {
		if (!isgraph(*s)) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "only printable characters, no spaces");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The kind, pattern and scope of a request: what names a rule. An
 * all-netns rule is the initial namespace's admin's to add or delete.
 */
static int lro_nl_auto_key(struct sk_buff *skb, struct genl_info *info,
			   struct lro_auto_key *key)
{
	struct nlattr **tb = info->attrs;
	int err;

	memset(key, 0, sizeof(*key));
	if (tb[LRO_A_AUTO_KIND]) {
		err = lro_nl_auto_word(tb[LRO_A_AUTO_KIND], key->kind,
				       sizeof(key->kind), info->extack);
		if (err)
			return err;
	}
	if (tb[LRO_A_AUTO_IFNAME]) {
		err = lro_nl_auto_word(tb[LRO_A_AUTO_IFNAME], key->ifname,
				       sizeof(key->ifname), info->extack);
		if (err)
			return err;
	}
	if (!key->kind[0] && !key->ifname[0]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a rule needs a kind or an ifname pattern");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LRO_A_AUTO_KIND);
		return -EINVAL;
	}
	key->all_netns = nla_get_flag(tb[LRO_A_AUTO_ALL_NETNS]);
	if (key->all_netns &&
	    (!net_eq(genl_info_net(info), &init_net) ||
	     !netlink_capable(skb, CAP_NET_ADMIN))) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LRO_A_AUTO_ALL_NETNS],
				    "all-netns rules are for the initial network namespace's admin");
		return -EPERM;
	}
	return 0;
}

/* A rule's settings, which must make a configuration over the defaults of
 * now (each attach applies them over the defaults of its time).
 */
static int lro_nl_auto_config(const struct nlattr *config,
			      struct lro_config_part *part,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LRO_A_DEV_MAX + 1];
	struct lro_config cfg;
	int err;

	memset(part, 0, sizeof(*part));
	if (!config)
		return 0;
	err = nla_parse_nested(tb, ARRAY_SIZE(lro_config_nl_policy) - 1,
			       config, lro_config_nl_policy, extack);
	if (err)
		return err;
	lro_nl_parse_part(tb, part);
	lro_default_config(&cfg);
	lro_config_apply(&cfg, part);
	return lro_config_check(&cfg, extack);
}

/**
 * lro_nl_auto_add_doit() - LRO_CMD_AUTO_ADD: add a rule
 * @skb: the request
 * @info: the request's attributes
 *
 * Return: 0, -EINVAL (no kind nor pattern, bad settings), -EPERM
 * (all-netns from elsewhere), -EEXIST, -ENOSPC (64 rules), -ENOMEM.
 */
int lro_nl_auto_add_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct lro_config_part config;
	struct lro_auto_rule *r;
	struct lro_auto_key key;
	int err;

	err = lro_nl_auto_key(skb, info, &key) ?:
	      lro_nl_auto_config(info->attrs[LRO_A_AUTO_CONFIG], &config,
				 info->extack);
	if (err)
		return err;
	r = lro_auto_rule_new(&key, &config);
	if (!r)
		return -ENOMEM;
	rtnl_lock();
	err = lro_auto_add(genl_info_net(info), r, info->extack);
	rtnl_unlock();
	if (err)
		lro_auto_rule_free(r);
	return err;
}

/**
 * lro_nl_auto_del_doit() - LRO_CMD_AUTO_DEL: delete a rule
 * @skb: the request
 * @info: the request's attributes
 *
 * The devices the rule attached LRO to keep it.
 *
 * Return: 0, -EINVAL, -EPERM as for auto-add, or -ENOENT.
 */
int lro_nl_auto_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct lro_auto_key key;
	int err;

	err = lro_nl_auto_key(skb, info, &key);
	if (err)
		return err;
	rtnl_lock();
	err = lro_auto_del(genl_info_net(info), &key, info->extack);
	rtnl_unlock();
	return err;
}
