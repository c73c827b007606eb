// SPDX-License-Identifier: GPL-2.0
/*
 * LRO for any device, with no driver change: attaching registers an
 * rx_handler (rx.c) with a per-CPU engine for the device; configuring,
 * detaching and reading counters happen here, under RTNL. A device that
 * goes away takes its held segments with it (freed); every other path
 * (detach, reconfigure, unload) sends them up first.
 */

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "device.h"
#include "netlink.h"
#include "sysfs.h"

static LIST_HEAD(lro_devs);

/**
 * lro_dev_find - LRO state of a device
 * @dev: network device
 *
 * Context: RTNL held.
 * Return: the state, or NULL if LRO is not attached to @dev.
 */
struct lro_dev *lro_dev_find(const struct net_device *dev)
{
	ASSERT_RTNL();
	if (rtnl_dereference(dev->rx_handler) != lro_handle_frame)
		return NULL;
	return container_of(rtnl_dereference(dev->rx_handler_data),
			    struct lro_dev, rx);
}

static void lro_set_nomem(struct netlink_ext_ack *extack, u32 max_desc)
{
	NL_SET_ERR_MSG_FMT_MOD(extack,
			       "no memory for max_desc %u on %u CPUs (memory cgroup limit?)",
			       max_desc, num_possible_cpus());
}

/* The configuration of @ld, which only changes under RTNL. */
static struct lro_config *lro_dev_cfg(const struct lro_dev *ld)
{
	return rtnl_dereference(ld->rx.cfg);
}

/* A copy of @cfg to publish, charged as the rest of a device's state. */
static struct lro_config *lro_config_dup(const struct lro_config *cfg,
					 gfp_t gfp)
{
	return kmemdup(cfg, sizeof(*cfg), GFP_KERNEL_ACCOUNT | gfp);
}

static void lro_dev_free(struct lro_dev *ld)
{
	lro_rx_free(&ld->rx);
	kfree(rcu_dereference_protected(ld->rx.cfg, true));
	kfree(ld);
}

/*
 * Size every CPU's descriptor table for the largest max_desc attached,
 * with @max_desc for @self (a device being attached or changed; 0: gone):
 * grow them (which may fail), or let them shrink (best effort).
 */
static int lro_dev_size_tables(const struct lro_dev *self, u32 max_desc,
			       bool shrink)
{
	const struct lro_dev *ld;

	list_for_each_entry(ld, &lro_devs, node)
		if (ld != self)
			max_desc = max(max_desc, lro_dev_cfg(ld)->max_desc);
	return lro_rx_size_tables(max_desc, shrink);
}

static struct lro_dev *lro_dev_alloc(struct net_device *dev,
				     const struct lro_config *cfg)
{
	struct lro_config *c = lro_config_dup(cfg, 0);
	struct lro_dev *ld;

	ld = kzalloc(sizeof(*ld), GFP_KERNEL_ACCOUNT);
	if (!ld || !c) {
		kfree(c);
		kfree(ld);
		return NULL;
	}
	RCU_INIT_POINTER(ld->rx.cfg, c);
	if (lro_rx_alloc(&ld->rx, dev)) {
		lro_dev_free(ld);
		return NULL;
	}
	return ld;
}

static const char *lro_dev_kind(const struct net_device *dev)
{
	return dev->rtnl_link_ops ? dev->rtnl_link_ops->kind : "no kind";
}

/*
 * The upper device of a macvlan or ipvlan link (their lower device), whose
 * rx_handler is theirs: the first macvlan, macvtap, ipvlan or ipvtap above
 * @dev, or NULL.
 */
static struct net_device *lro_link_upper(struct net_device *dev)
{
	static const char * const kinds[] = { "macvlan", "macvtap", "ipvlan", "ipvtap" };
	struct net_device *upper;
	struct list_head *iter;
	int i;

	netdev_for_each_upper_dev_rcu(dev, upper, iter)
		for (i = 0; i < ARRAY_SIZE(kinds); i++)
			if (!strcmp(lro_dev_kind(upper), kinds[i]))
				return upper;
	return NULL;
}

/*
 * Say what holds the rx_handler of @dev, and where LRO can go instead: a
 * bridge or bond passes what it receives up through its own device, and
 * a macvlan device takes an rx_handler. (An ipvlan device takes none,
 * macvtap and ipvtap hold their own.) Each message fits the extack's 80
 * bytes with names of 15.
 */
static void lro_set_busy_msg(struct net_device *dev,
			     struct netlink_ext_ack *extack)
{
	struct net_device *master = netdev_master_upper_dev_get(dev);
	struct net_device *upper = lro_link_upper(dev);

	if (master && (netif_is_bridge_port(dev) || netif_is_bond_slave(dev))) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s is a port of %s %s: attach LRO to it",
				       dev->name, lro_dev_kind(master), master->name);
	} else if (upper && netif_is_macvlan(upper) &&
		   (!netdev_is_rx_handler_busy(upper) || lro_dev_find(upper))) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s is the link of %s %s: attach LRO to it",
				       dev->name, lro_dev_kind(upper), upper->name);
	} else if (upper) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s is the link of %s %s",
				       dev->name, lro_dev_kind(upper), upper->name);
	} else if (master) {	/* team, openvswitch, ... */
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s is a port of %s %s",
				       dev->name, lro_dev_kind(master), master->name);
	} else {
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s already has another rx_handler",
				       dev->name);
	}
}

/**
 * lro_dev_attach - start LRO on a device
 * @dev: network device
 * @cfg: configuration
 * @by_rule: attached by an auto rule, not by hand: gives LRO up when the
 *	device becomes a bridge port (or openvswitch, VRF) until configured
 *	by hand
 * @extack: where to say why not
 *
 * Context: RTNL held.
 * Return: 0, or -EBUSY if the device already has an rx_handler (bridge
 * or bond port, macvlan or ipvlan link, ...), -EINVAL for a bad
 * configuration or a device that takes no rx_handler (ipvlan, VRF),
 * -ENOMEM.
 */
int lro_dev_attach(struct net_device *dev, const struct lro_config *cfg,
		   bool by_rule, struct netlink_ext_ack *extack)
{
	struct lro_dev *ld;
	int err;

	ASSERT_RTNL();
	err = lro_config_check(cfg, extack);
	if (err)
		return err;
	if (dev->flags & IFF_LOOPBACK) {
		NL_SET_ERR_MSG_MOD(extack, "LRO does not attach to loopback devices");
		return -EINVAL;
	}
	if (dev->priv_flags & IFF_NO_RX_HANDLER) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "%s (%s) takes no rx_handler",
				       dev->name, lro_dev_kind(dev));
		return -EINVAL;
	}
	if (netdev_is_rx_handler_busy(dev)) {
		lro_set_busy_msg(dev, extack);
		return -EBUSY;
	}
	ld = lro_dev_alloc(dev, cfg);
	if (!ld || lro_dev_size_tables(NULL, cfg->max_desc, false)) {
		err = -ENOMEM;
		lro_set_nomem(extack, cfg->max_desc);
		goto err_free;
	}
	ld->by_rule = by_rule;
	ld->kobj = lro_sysfs_add(dev);
	if (IS_ERR(ld->kobj)) {
		err = PTR_ERR(ld->kobj);
		goto err_free;
	}
	err = netdev_rx_handler_register(dev, lro_handle_frame, &ld->rx);
	if (err) {
		lro_sysfs_del(ld->kobj);
		goto err_free;
	}
	netdev_hold(dev, &ld->tracker, GFP_KERNEL);
	list_add_tail(&ld->node, &lro_devs);
	lro_nl_notify(ld, LRO_NOTIFY_NEW);
	/*
	 * A warning, not an error: where the driver calls napi_gro_receive(),
	 * GRO merges first and LRO leaves what GRO built alone (a GSO skb:
	 * lro_skb_plain()), so the user gets GRO's packets. veth turns GRO off
	 * when it is created; most NIC drivers have it on.
	 */
	if (dev->features & NETIF_F_GRO)
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "%s has GRO on: if its driver uses GRO, GRO runs first",
				       dev->name);
	return 0;

err_free:
	if (ld)
		lro_dev_free(ld);
	lro_dev_size_tables(NULL, 0, true);	/* back to the others' size */
	return err;
}

/*
 * Publish @cfg as @ld's configuration: the receive path reads it whole,
 * under RCU. A larger max_desc may need larger descriptor tables first;
 * the hold, the policy and max_desc each CPU takes after, its held packets
 * sent up (lro_rx_take_hold()), so none calls the old policy or holds past
 * the new max_desc once this returns; a smaller max_desc may let the
 * tables shrink. Return: 0, or -ENOMEM with nothing changed (never with
 * __GFP_NOFAIL and the same max_desc).
 */
static int lro_dev_set_config(struct lro_dev *ld, const struct lro_config *cfg,
			      gfp_t gfp)
{
	struct lro_config *old = lro_dev_cfg(ld), *c;
	int err;

	c = lro_config_dup(cfg, gfp);
	if (!c)
		return -ENOMEM;
	if (cfg->max_desc > old->max_desc) {
		err = lro_dev_size_tables(ld, cfg->max_desc, false);
		if (err) {
			kfree(c);
			return err;
		}
	}
	rcu_assign_pointer(ld->rx.cfg, c);
	if (cfg->flush_timeout_us != old->flush_timeout_us ||
	    cfg->policy != old->policy || cfg->max_desc != old->max_desc)
		lro_rx_take_hold(&ld->rx);
	if (cfg->max_desc < old->max_desc)
		lro_dev_size_tables(ld, cfg->max_desc, true);	/* or stay larger */
	kfree_rcu(old, rcu);
	return 0;
}

/**
 * lro_dev_drop_policy - detach a policy being unregistered from every device
 * @ops: the policy
 *
 * Its devices go back to their own settings, which is announced.
 *
 * Context: RTNL held.
 */
void lro_dev_drop_policy(const struct lro_policy_ops *ops)
{
	struct lro_dev *ld;

	ASSERT_RTNL();
	list_for_each_entry(ld, &lro_devs, node) {
		struct lro_config cfg = *lro_dev_cfg(ld);

		if (cfg.policy != ops)
			continue;
		cfg.policy = NULL;
		/* The policy is going away: this must not fail (a small
		 * object, the same max_desc).
		 */
		lro_dev_set_config(ld, &cfg, __GFP_NOFAIL);
		lro_nl_notify(ld, LRO_NOTIFY_CHANGE);
	}
}

/**
 * lro_dev_configure - change the configuration of an attached device
 * @ld: LRO state
 * @cfg: new configuration
 * @extack: where to say why not
 *
 * Held packets are sent up first where the change needs it (max_desc,
 * the hold, the policy), so nothing held is lost.
 *
 * Context: RTNL held.
 * Return: 0, -EINVAL for a bad configuration, -ENOMEM.
 */
int lro_dev_configure(struct lro_dev *ld, const struct lro_config *cfg,
		      struct netlink_ext_ack *extack)
{
	int err;

	ASSERT_RTNL();
	err = lro_config_check(cfg, extack);
	if (err)
		return err;
	err = lro_dev_set_config(ld, cfg, 0);
	if (err) {
		lro_set_nomem(extack, cfg->max_desc);
		return err;
	}
	/* Configured by hand: the admin's decision now, not a rule's. */
	ld->by_rule = false;
	lro_nl_notify(ld, LRO_NOTIFY_CHANGE);
	return 0;
}

static void __lro_dev_detach(struct lro_dev *ld, bool drop)
{
	struct net_device *dev = ld->rx.dev;

	/* Waits for every CPU to leave lro_handle_frame() (synchronize_net). */
	netdev_rx_handler_unregister(dev);
	lro_rx_release(&ld->rx, drop);
	lro_nl_notify(ld, LRO_NOTIFY_DEL);
	lro_sysfs_del(ld->kobj);
	list_del(&ld->node);
	netdev_put(dev, &ld->tracker);
	lro_dev_free(ld);
	lro_dev_size_tables(NULL, 0, true);	/* the others' size, or none */
}

/**
 * lro_dev_detach - stop LRO on a device
 * @ld: LRO state; freed on return
 *
 * Held packets are sent up before LRO lets go of the device.
 *
 * Context: RTNL held.
 */
void lro_dev_detach(struct lro_dev *ld)
{
	ASSERT_RTNL();
	__lro_dev_detach(ld, false);
}

/**
 * lro_dev_netdev - the device of an LRO state
 * @ld: LRO state
 *
 * Return: the network device.
 */
struct net_device *lro_dev_netdev(const struct lro_dev *ld)
{
	return ld->rx.dev;
}

/**
 * lro_dev_get_config - read the configuration
 * @ld: LRO state
 * @cfg: filled in
 *
 * Context: RTNL held.
 */
void lro_dev_get_config(const struct lro_dev *ld, struct lro_config *cfg)
{
	*cfg = *lro_dev_cfg(ld);
}

#define LRO_STAT(NAME, name, member, gauge) \
	[LRO_STAT_##NAME] = { #name, offsetof(struct lro_pcpu, member), gauge },
const struct lro_stat_info lro_stat_info[LRO_STAT_NR] = {
#include "stats-list.h"
};

#undef LRO_STAT

/**
 * lro_dev_get_stats - counters since attach or the last reset
 * @ld: LRO state
 * @stats: filled in, indexed by enum lro_stat
 *
 * Sums the per-CPU counters; a snapshot taken while traffic flows.
 *
 * Context: RTNL held.
 */
void lro_dev_get_stats(const struct lro_dev *ld, u64 stats[LRO_STAT_NR])
{
	int cpu, i;

	memset(stats, 0, sizeof(u64) * LRO_STAT_NR);
	for_each_possible_cpu(cpu) {
		const u8 *s = (const u8 *)lro_rx_pcpu(&ld->rx, cpu);

		if (!s)
			continue;
		/* Word-sized counters written by their CPU only. */
		for (i = 0; i < LRO_STAT_NR; i++)
			stats[i] += READ_ONCE(*(const unsigned long *)
					      (s + lro_stat_info[i].offset));
	}
}

/* Zero one CPU's counters but the gauges, on that CPU: they are its own. */
static void lro_zero_stats(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			   int cpu)
{
	int i;

	for (i = 0; i < LRO_STAT_NR; i++)
		if (!lro_stat_info[i].gauge)
			WRITE_ONCE(*(unsigned long *)((u8 *)pc +
						      lro_stat_info[i].offset), 0);
	lro_pcpu_counters_zeroed(pc);
}

/**
 * lro_dev_reset_stats - start the counters from zero
 * @ld: LRO state
 *
 * Each CPU zeroes its own, rather than the device keeping a copy of the
 * sums to subtract: 176 bytes on every attached device.
 *
 * Context: RTNL held.
 */
void lro_dev_reset_stats(struct lro_dev *ld)
{
	struct lro_pcpu_visit v = { lro_zero_stats };

	lro_rx_visit(&ld->rx, &v);
}

/**
 * lro_dev_next - walk the devices LRO is attached to in one netns
 * @net: network namespace
 * @prev: previous device, or NULL to start
 *
 * Context: RTNL held.
 * Return: the next attached device of @net, or NULL.
 */
struct lro_dev *lro_dev_next(struct net *net, struct lro_dev *prev)
{
	struct lro_dev *ld = prev;

	ASSERT_RTNL();
	ld = list_prepare_entry(ld, &lro_devs, node);
	list_for_each_entry_continue(ld, &lro_devs, node)
		if (net_eq(dev_net(ld->rx.dev), net))
			return ld;
	return NULL;
}

static int lro_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *info = ptr;
	struct lro_dev *ld = lro_dev_find(dev);

	if (!ld)	/* a rule may attach it: auto.c */
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UNREGISTER:
		/* Also on a move to another netns: LRO does not follow. */
		__lro_dev_detach(ld, true);
		break;
	case NETDEV_JOIN:
		/* A bridge about to take the device as a port, and its
		 * rx_handler (br_add_if(); a bond checks the rx_handler
		 * first). A device a rule attached gives LRO up, held packets
		 * sent up first: a rule is no decision about that device. One
		 * attached by hand keeps it, and the bridge fails (-EBUSY).
		 */
		if (ld->by_rule)
			__lro_dev_detach(ld, false);
		break;
	case NETDEV_PRECHANGEUPPER:
		/* Bridge, bond, team, VRF ports: refused, with a reason (most
		 * would fail anyway, wanting the rx_handler). A VLAN or macvlan
		 * on top is fine: not a master. A device a rule attached gives
		 * LRO up, as above (openvswitch and VRF link before they take
		 * the rx_handler, or take none).
		 */
		if (!info->linking || !info->master)
			break;
		if (ld->by_rule) {
			__lro_dev_detach(ld, false);
			break;
		}
		NL_SET_ERR_MSG_FMT_MOD(info->info.extack,
				       "LRO is attached to %s: detach it first (lroadm del %s)",
				       dev->name, dev->name);
		return notifier_from_errno(-EBUSY);
	}
	return NOTIFY_DONE;
}

static struct notifier_block lro_netdev_notifier = {
	.notifier_call = lro_netdev_event,
};

/**
 * lro_device_init - set up the data path and follow device events
 *
 * Return: 0 or a negative errno.
 */
int lro_device_init(void)
{
	int err;

	err = lro_rx_init();
	if (err)
		return err;
	err = register_netdevice_notifier(&lro_netdev_notifier);
	if (err)
		lro_rx_exit();
	return err;
}

/**
 * lro_device_exit - detach from every device, tear down the flush contexts
 *
 * Held packets are sent up first. Call after the control plane is gone, so
 * nothing attaches again.
 */
void lro_device_exit(void)
{
	struct lro_dev *ld, *tmp;

	rtnl_lock();
	list_for_each_entry_safe(ld, tmp, &lro_devs, node)
		__lro_dev_detach(ld, !(ld->rx.dev->flags & IFF_UP));
	rtnl_unlock();
	unregister_netdevice_notifier(&lro_netdev_notifier);
	lro_rx_exit();
}
