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
 * handlers (netlink.c, which parses the requests and builds the messages
 * of auto-get, auto-add and auto-del) take it, the netdev notifier runs
 * under it, and a dying namespace's rules are freed by exit_batch_rtnl,
 * under it.
 *
 * A rule keeps the settings it came with (struct lro_config_part: those
 * its config nest gave), applied at each attach over the module
 * parameters of that time, and sent back as they are by auto-get.
 * What an attach allocates is charged to the memory cgroup of the task
 * that added the rule, not to whoever happened to create the device (a
 * rule may be a user namespace root's; the device a host's runtime's).
 * An all-netns rule's counters are shown in the initial namespace only:
 * elsewhere they would tell of other containers' devices.
 */

#include <linux/glob.h>
#include <linux/memcontrol.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/rtnetlink.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "auto.h"
#include "config.h"
#include "device.h"
#include "netlink_auto.h"

/* glob_match() is lib/glob.c, built only where something selects it
 * (Debian's kernels do).
 */
#if !IS_BUILTIN(CONFIG_GLOB)
#error "auto rules need CONFIG_GLOB=y"
#endif

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
	lro_auto_rule_free(r);
}

static const char *lro_auto_dev_kind(const struct net_device *dev)
{
	return dev->rtnl_link_ops ? dev->rtnl_link_ops->kind : "";
}

/* Whether @r matches @dev: its kind, if it names one, and its pattern. */
static bool lro_auto_match(const struct lro_auto_rule *r,
			   const struct net_device *dev)
{
	if (r->key.kind[0] && strcmp(r->key.kind, lro_auto_dev_kind(dev)))
		return false;
	return !r->key.ifname[0] || glob_match(r->key.ifname, dev->name);
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
	/* The module's defaults, then the rule's own */
	lro_default_config(&cfg);
	lro_config_apply(&cfg, &r->config);
	old_memcg = set_active_memcg(r->memcg);
	err = lro_dev_attach(dev, &cfg, true, &extack);
	set_active_memcg(old_memcg);
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
		dev->name, r->key.kind[0] ? " kind " : "", r->key.kind,
		r->key.ifname[0] ? " ifname " : "", r->key.ifname, msg, err);
}

/* --- the rules, for netlink.c ------------------------------------------ */

/**
 * lro_auto_rule_new - a rule not yet added
 * @key: what it matches, and where
 * @config: its settings
 *
 * Charged, with what it attaches later, to the memory cgroup of the
 * calling task.
 *
 * Return: the rule, or NULL without memory.
 */
struct lro_auto_rule *lro_auto_rule_new(const struct lro_auto_key *key,
					const struct lro_config_part *config)
{
	struct lro_auto_rule *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return NULL;
	r->key = *key;
	r->config = *config;
	r->memcg = get_mem_cgroup_from_mm(current->mm);
	return r;
}

/**
 * lro_auto_rule_free - free a rule that is in no list
 * @r: the rule
 */
void lro_auto_rule_free(struct lro_auto_rule *r)
{
	mem_cgroup_put(r->memcg);
	kfree(r);
}

static struct lro_auto_rule *lro_auto_find_key(struct lro_auto_list *l,
					       const struct lro_auto_key *key)
{
	struct lro_auto_rule *r;

	list_for_each_entry(r, &l->rules, node)
		if (!strcmp(r->key.kind, key->kind) &&
		    !strcmp(r->key.ifname, key->ifname))
			return r;
	return NULL;
}

/**
 * lro_auto_add - add a rule to @net's list (or the all-netns list)
 * @net: the namespace of the request
 * @r: from lro_auto_rule_new(); the list's from now on, unless this fails
 * @extack: where to say why not
 *
 * Context: RTNL held.
 * Return: 0, -EEXIST (a rule of that key), -ENOSPC (64 in the list).
 */
int lro_auto_add(struct net *net, struct lro_auto_rule *r,
		 struct netlink_ext_ack *extack)
{
	struct lro_auto_list *l = lro_auto_list_of(net, r->key.all_netns);

	ASSERT_RTNL();
	if (lro_auto_find_key(l, &r->key)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "a rule with this kind, ifname and all-netns exists");
		return -EEXIST;
	}
	if (l->count >= LRO_AUTO_MAX_RULES) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "at most %u rules per list",
				       LRO_AUTO_MAX_RULES);
		return -ENOSPC;
	}
	list_add_tail(&r->node, &l->rules);
	l->count++;
	lro_nl_auto_notify(net, r, true);
	return 0;
}

/**
 * lro_auto_del - delete the rule of @key from @net's list (or all-netns)
 * @net: the namespace of the request
 * @key: the rule's key
 * @extack: where to say why not
 *
 * The devices the rule attached LRO to keep it.
 *
 * Context: RTNL held.
 * Return: 0 or -ENOENT.
 */
int lro_auto_del(struct net *net, const struct lro_auto_key *key,
		 struct netlink_ext_ack *extack)
{
	struct lro_auto_list *l = lro_auto_list_of(net, key->all_netns);
	struct lro_auto_rule *r;

	ASSERT_RTNL();
	r = lro_auto_find_key(l, key);
	if (!r) {
		NL_SET_ERR_MSG_MOD(extack,
				   "no rule with this kind, ifname and all-netns");
		return -ENOENT;
	}
	lro_nl_auto_notify(net, r, false);
	lro_auto_free(l, r);
	return 0;
}

/**
 * lro_auto_nth - the @n-th rule that applies in @net
 * @net: the namespace
 * @n: from 0: the namespace's own rules first, then the all-netns ones,
 *	the order in which lro_auto_attach() tries them
 *
 * Context: RTNL held.
 * Return: the rule, or NULL past the last.
 */
const struct lro_auto_rule *lro_auto_nth(struct net *net, unsigned int n)
{
	struct lro_auto_list *lists[] = { lro_auto_net(net), &lro_auto_all };
	const struct lro_auto_rule *r;
	unsigned int i;

	ASSERT_RTNL();
	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		if (n >= lists[i]->count) {
			n -= lists[i]->count;
			continue;
		}
		list_for_each_entry(r, &lists[i]->rules, node)
			if (!n--)
				return r;
	}
	return NULL;
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
