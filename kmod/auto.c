// SPDX-License-Identifier: GPL-2.0
/*
 * Auto rules: attach LRO to the devices that appear, so that on a host
 * where containers come and go, each new veth gets LRO as it is created.
 *
 *   lroadm auto add kind veth max_aggr 32     (auto-add, this netns)
 *        |
 *        v
 *   lro_auto_net(net)->rules  ----+       lro_auto_all (all-netns rules,
 *        |                        |        set from init_net by its admin)
 *        |   NETDEV_REGISTER      |             |
 *        |   (created, or moved   v             v
 *        +-- into the netns) --> lro_auto_attach(dev): the first rule of
 *                                  the device's netns that matches, else
 *                                  the first all-netns rule; attach LRO
 *                                  with its settings over the defaults
 *
 * A rule matches a device by link kind (rtnl_link_ops->kind) and/or name
 * pattern (glob_match()), once, as the device appears: never a device
 * already there, and not again when one is renamed (which would attach
 * again what an admin detached by hand). So a pattern sees the name a
 * device is registered with, before udev renames it. Deleting a rule
 * leaves the devices it attached alone. A device a rule attached gives
 * LRO up when it becomes a bridge, openvswitch or VRF port (device.c),
 * where one attached by hand refuses: a rule is no decision about that
 * device. Bond, team, macvlan and ipvlan take the rx_handler before any
 * event tells LRO: they fail (-EBUSY) on a device a rule attached, as on
 * one attached by hand.
 *
 * Locking: the rules are read and written under RTNL only. The netlink
 * handlers here take it, device.c's notifier runs under it, and a dying
 * namespace's rules are freed by exit_batch_rtnl, under it.
 *
 * A rule keeps its settings as the config nest it came with (validated by
 * lro_config_nl_policy when added), parsed again at each attach over the
 * module parameters of that time, and sent back as it is by auto-get.
 * What an attach allocates is charged to the memory cgroup of the task
 * that added the rule, not to whoever happened to create the device (a
 * rule may be a user namespace root's; the device a host's runtime's).
 * An all-netns rule's counters are shown in the initial namespace only:
 * elsewhere they would tell of other containers' devices.
 */

#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/memcontrol.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/rtnetlink.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "auto.h"
#include "config.h"
#include "device.h"
#include "netlink.h"
#include "netlink-gen.h"

/* glob_match() is lib/glob.c, built only where something selects it
 * (Debian's kernels do).
 */
#if !IS_BUILTIN(CONFIG_GLOB)
#error "auto rules need CONFIG_GLOB=y"
#endif

/* Per list: a namespace's own rules, and the all-netns rules. */
#define LRO_AUTO_MAX_RULES	64

struct lro_auto_rule {
	struct list_head node;		/* in a struct lro_auto_list */
	char kind[16];			/* "": any */
	char ifname[32];		/* "": any */
	bool all_netns;
	struct nlattr *config;		/* LRO_A_AUTO_CONFIG, or NULL */
	struct mem_cgroup *memcg;	/* of the task that added it */
	u64 attached, failed;
};

struct lro_auto_list {
	struct list_head rules;
	unsigned int count;
};

static unsigned int lro_auto_net_id __read_mostly;
static struct lro_auto_list lro_auto_all = {
	.rules = LIST_HEAD_INIT(lro_auto_all.rules),
};

static struct lro_auto_list *lro_auto_net(const struct net *net)
{
	return net_generic(net, lro_auto_net_id);
}

static struct lro_auto_list *lro_auto_list_of(const struct net *net,
					      bool all_netns)
{
	return all_netns ? &lro_auto_all : lro_auto_net(net);
}

static void lro_auto_free(struct lro_auto_list *l, struct lro_auto_rule *r)
{
	list_del(&r->node);
	l->count--;
	mem_cgroup_put(r->memcg);
	kfree(r->config);
	kfree(r);
}

static const char *lro_auto_dev_kind(const struct net_device *dev)
{
	return dev->rtnl_link_ops ? dev->rtnl_link_ops->kind : "";
}

/* Whether @r matches @dev: its kind, if it names one, and its pattern. */
static bool lro_auto_match(const struct lro_auto_rule *r,
			   const struct net_device *dev)
{
	if (r->kind[0] && strcmp(r->kind, lro_auto_dev_kind(dev)))
		return false;
	return !r->ifname[0] || glob_match(r->ifname, dev->name);
}

static struct lro_auto_rule *lro_auto_find_match(struct lro_auto_list *l,
						 const struct net_device *dev)
{
	struct lro_auto_rule *r;

	list_for_each_entry(r, &l->rules, node)
		if (lro_auto_match(r, dev))
			return r;
	return NULL;
}

/* The configuration @r attaches with: the module's defaults, then its own. */
static int lro_auto_config(const struct lro_auto_rule *r,
			   struct lro_config *cfg)
{
	struct nlattr *tb[LRO_A_DEV_MAX + 1];
	int err;

	lro_default_config(cfg);
	if (!r->config)
		return 0;
	/* Validated when the rule was added: this cannot fail. */
	err = nla_parse_nested(tb, ARRAY_SIZE(lro_config_nl_policy) - 1,
			       r->config, lro_config_nl_policy, NULL);
	if (WARN_ON_ONCE(err))
		return err;
	lro_nl_parse_config(tb, cfg);
	return 0;
}

/* Its own budget: a namespace whose rule keeps failing does not use up
 * net_ratelimit()'s, which the whole stack shares.
 */
static DEFINE_RATELIMIT_STATE(lro_auto_rs, 5 * HZ, 10);

/*
 * lro_auto_attach - attach LRO to a new device if a rule matches it
 * @dev: a device LRO is not attached to, just registered in its netns
 *	(created or moved there)
 *
 * A failure (another rx_handler, no memory, ...) is counted in the rule
 * and said in the log, with the reason attaching by hand would give.
 *
 * Context: RTNL held (the netdev notifier).
 */
static void lro_auto_attach(struct net_device *dev)
{
	struct netlink_ext_ack extack = {};
	struct mem_cgroup *old_memcg;
	struct lro_auto_rule *r;
	struct lro_config cfg;
	const char *msg;
	int err;

	ASSERT_RTNL();
	r = lro_auto_find_match(lro_auto_net(dev_net(dev)), dev);
	if (!r)
		r = lro_auto_find_match(&lro_auto_all, dev);
	if (!r)
		return;
	err = lro_auto_config(r, &cfg);
	if (!err) {
		old_memcg = set_active_memcg(r->memcg);
		err = lro_dev_attach(dev, &cfg, true, &extack);
		set_active_memcg(old_memcg);
	}
	if (!err) {
		r->attached++;
		return;
	}
	r->failed++;
	if (!__ratelimit(&lro_auto_rs))
		return;
	msg = extack._msg ?: "";
	if (!strncmp(msg, KBUILD_MODNAME ": ", strlen(KBUILD_MODNAME ": ")))
		msg += strlen(KBUILD_MODNAME ": ");
	/* kind and ifname are printable, without spaces: auto-add checks. */
	pr_info("%s: auto rule%s%s%s%s: not attached: %s (%d)\n",
		dev->name, r->kind[0] ? " kind " : "", r->kind,
		r->ifname[0] ? " ifname " : "", r->ifname, msg, err);
}

/* --- netlink: auto-get, auto-add, auto-del ------------------------------ */

struct lro_auto_dump_ctx {
	unsigned int done;	/* rules already sent */
};

static size_t lro_auto_msg_size(const struct lro_auto_rule *r)
{
	return nla_total_size(sizeof(r->kind)) +
	       nla_total_size(sizeof(r->ifname)) +
	       nla_total_size(0) +				/* ALL_NETNS */
	       (r->config ? nla_total_size(nla_len(r->config)) : 0) +
	       2 * nla_total_size(sizeof(u64));			/* counters */
}

/* @r as @net sees it: the counters of an all-netns rule in init_net only. */
static int lro_auto_fill(struct sk_buff *skb, const struct lro_auto_rule *r,
			 const struct net *net, u32 portid, u32 seq, int flags,
			 u8 cmd)
{
	bool counters = !r->all_netns || net_eq(net, &init_net);
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &lro_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if ((r->kind[0] && nla_put_string(skb, LRO_A_AUTO_KIND, r->kind)) ||
	    (r->ifname[0] && nla_put_string(skb, LRO_A_AUTO_IFNAME, r->ifname)) ||
	    (r->all_netns && nla_put_flag(skb, LRO_A_AUTO_ALL_NETNS)) ||
	    (r->config && nla_put(skb, LRO_A_AUTO_CONFIG | NLA_F_NESTED,
				  nla_len(r->config), nla_data(r->config))) ||
	    (counters && nla_put_uint(skb, LRO_A_AUTO_ATTACHED, r->attached)) ||
	    (counters && nla_put_uint(skb, LRO_A_AUTO_FAILED, r->failed))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* auto-add-ntf or auto-del-ntf to the monitor group of @net (the initial
 * namespace for an all-netns rule: those are its admin's).
 */
static void lro_auto_notify(struct net *net, const struct lro_auto_rule *r,
			    u8 cmd)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&lro_nl_family, net, LRO_NLGRP_MONITOR))
		return;
	msg = genlmsg_new(lro_auto_msg_size(r), GFP_KERNEL);
	if (!msg)
		return;
	if (lro_auto_fill(msg, r, net, 0, 0, 0, cmd)) {
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
 * which lro_auto_attach() tries them.
 *
 * Return: the dump status, as netlink dumps return it.
 */
int lro_nl_auto_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lro_auto_dump_ctx *ctx = (struct lro_auto_dump_ctx *)cb->ctx;
	struct net *net = sock_net(skb->sk);
	struct lro_auto_list *lists[] = { lro_auto_net(net), &lro_auto_all };
	struct lro_auto_rule *r;
	unsigned int i, n = 0;
	int err = 0;

	NL_ASSERT_DUMP_CTX_FITS(struct lro_auto_dump_ctx);

	rtnl_lock();
	for (i = 0; i < ARRAY_SIZE(lists) && !err; i++) {
		list_for_each_entry(r, &lists[i]->rules, node) {
			if (n++ < ctx->done)
				continue;
			err = lro_auto_fill(skb, r, net, NETLINK_CB(cb->skb).portid,
					    cb->nlh->nlmsg_seq, NLM_F_MULTI,
					    LRO_CMD_AUTO_GET);
			if (err)
				break;
			ctx->done++;
		}
	}
	rtnl_unlock();
	return err;
}

/*
 * Printable, no spaces: a kind or pattern goes into the kernel log as it
 * is, and that must not let a user namespace's root forge lines there.
 */
static int lro_auto_check_word(struct nlattr *attr, const char *s,
			       struct netlink_ext_ack *extack)
{
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
static int lro_auto_parse_key(struct sk_buff *skb, struct genl_info *info,
			      struct lro_auto_rule *key)
{
	struct nlattr **tb = info->attrs;

	int err;

	if (tb[LRO_A_AUTO_KIND]) {
		nla_strscpy(key->kind, tb[LRO_A_AUTO_KIND], sizeof(key->kind));
		err = lro_auto_check_word(tb[LRO_A_AUTO_KIND], key->kind,
					  info->extack);
		if (err)
			return err;
	}
	if (tb[LRO_A_AUTO_IFNAME]) {
		nla_strscpy(key->ifname, tb[LRO_A_AUTO_IFNAME],
			    sizeof(key->ifname));
		err = lro_auto_check_word(tb[LRO_A_AUTO_IFNAME], key->ifname,
					  info->extack);
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

static struct lro_auto_rule *lro_auto_find_key(struct lro_auto_list *l,
					       const struct lro_auto_rule *key)
{
	struct lro_auto_rule *r;

	list_for_each_entry(r, &l->rules, node)
		if (!strcmp(r->kind, key->kind) &&
		    !strcmp(r->ifname, key->ifname))
			return r;
	return NULL;
}

/* Attaching with @config over the defaults of now must be possible. */
static int lro_auto_check_config(struct nlattr *config,
				 struct netlink_ext_ack *extack)
{
	struct nlattr *tb[LRO_A_DEV_MAX + 1];
	struct lro_config cfg;
	int err;

	err = nla_parse_nested(tb, ARRAY_SIZE(lro_config_nl_policy) - 1,
			       config, lro_config_nl_policy, extack);
	if (err)
		return err;
	lro_default_config(&cfg);
	lro_nl_parse_config(tb, &cfg);
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
	struct nlattr *config = info->attrs[LRO_A_AUTO_CONFIG];
	struct net *net = genl_info_net(info);
	struct lro_auto_rule *r;
	struct lro_auto_list *l;
	int err;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	err = lro_auto_parse_key(skb, info, r);
	if (!err && config)
		err = lro_auto_check_config(config, info->extack);
	if (err)
		goto free;
	if (config) {
		r->config = kmemdup(config, config->nla_len, GFP_KERNEL_ACCOUNT);
		if (!r->config) {
			err = -ENOMEM;
			goto free;
		}
	}
	r->memcg = get_mem_cgroup_from_mm(current->mm);

	rtnl_lock();
	l = lro_auto_list_of(net, r->all_netns);
	if (lro_auto_find_key(l, r)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a rule with this kind, ifname and all-netns exists");
		err = -EEXIST;
	} else if (l->count >= LRO_AUTO_MAX_RULES) {
		NL_SET_ERR_MSG_FMT_MOD(info->extack, "at most %u rules per list",
				       LRO_AUTO_MAX_RULES);
		err = -ENOSPC;
	} else {
		list_add_tail(&r->node, &l->rules);
		l->count++;
		lro_auto_notify(net, r, LRO_CMD_AUTO_ADD_NTF);
	}
	rtnl_unlock();
	if (!err)
		return 0;
	mem_cgroup_put(r->memcg);
free:
	kfree(r->config);
	kfree(r);
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
	struct net *net = genl_info_net(info);
	struct lro_auto_rule key = {}, *r;
	struct lro_auto_list *l;
	int err;

	err = lro_auto_parse_key(skb, info, &key);
	if (err)
		return err;
	rtnl_lock();
	l = lro_auto_list_of(net, key.all_netns);
	r = lro_auto_find_key(l, &key);
	if (r) {
		lro_auto_notify(net, r, LRO_CMD_AUTO_DEL_NTF);
		lro_auto_free(l, r);
	} else {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "no rule with this kind, ifname and all-netns");
		err = -ENOENT;
	}
	rtnl_unlock();
	return err;
}

/* --- the lists' life ------------------------------------------------------ */

static void lro_auto_flush(struct lro_auto_list *l)
{
	struct lro_auto_rule *r, *tmp;

	list_for_each_entry_safe(r, tmp, &l->rules, node)
		lro_auto_free(l, r);
}

static __net_init int lro_auto_net_init(struct net *net)
{
	INIT_LIST_HEAD(&lro_auto_net(net)->rules);
	return 0;
}

static void __net_exit lro_auto_net_exit_rtnl(struct list_head *net_exit_list,
					      struct list_head *dev_kill_list)
{
	struct net *net;

	list_for_each_entry(net, net_exit_list, exit_list)
		lro_auto_flush(lro_auto_net(net));
}

static struct pernet_operations lro_auto_net_ops = {
	.init = lro_auto_net_init,
	.exit_batch_rtnl = lro_auto_net_exit_rtnl,
	.id = &lro_auto_net_id,
	.size = sizeof(struct lro_auto_list),
};

/* A device created, or moved into a netns (after NETDEV_UNREGISTER in the
 * old one, where device.c detached LRO: it does not follow).
 */
static int lro_auto_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_REGISTER && !lro_dev_find(dev))
		lro_auto_attach(dev);
	return NOTIFY_DONE;
}

static struct notifier_block lro_auto_notifier = {
	.notifier_call = lro_auto_netdev_event,
};

/**
 * lro_auto_init - hold rules per network namespace, and follow new devices
 *
 * After the devices' setup (lro_device_init()), before the family's.
 *
 * Return: 0 or a negative errno.
 */
int lro_auto_init(void)
{
	int err;

	err = register_pernet_subsys(&lro_auto_net_ops);
	if (err)
		return err;
	err = register_netdevice_notifier(&lro_auto_notifier);
	if (err)
		unregister_pernet_subsys(&lro_auto_net_ops);
	return err;
}

/**
 * lro_auto_exit - stop following new devices, free every rule
 *
 * After the family is gone, before lro_device_exit(): from then on no
 * rule attaches LRO again.
 */
void lro_auto_exit(void)
{
	unregister_netdevice_notifier(&lro_auto_notifier);
	unregister_pernet_subsys(&lro_auto_net_ops);
	rtnl_lock();
	lro_auto_flush(&lro_auto_all);
	rtnl_unlock();
}
