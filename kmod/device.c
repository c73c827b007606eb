// SPDX-License-Identifier: GPL-2.0
/*
 * LRO for any device, with no driver change: an rx_handler feeds the
 * device's received segments to a per-CPU engine, and a per-CPU NAPI
 * instance sends held packets up at the end of the receive batch (or, with
 * a hold timer, once they are flush_timeout_us old).
 *
 *   driver -> netif_receive_skb/netif_rx -> lro_handle_frame (rx_handler)
 *          -> engine (held) -> lro_poll (this CPU's NAPI, after the
 *          device's poll) -> flush -> netif_receive_skb_core -> stack
 *
 * Everything per device is per CPU and only touched by its own CPU in
 * softirq context, or by process context on that CPU with bottom halves
 * disabled (lro_on_each_cpu()): the fast path takes no lock. Attach,
 * configure and detach run under RTNL.
 */

#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "engine.h"

/* One device's LRO state on one CPU. */
struct lro_pcpu {
	struct net_lro_mgr mgr;
	struct lro_dev *ld;
	struct list_head pending;	/* on lro_cpu.pending while holding */
	bool queued;
	struct net_lro_desc *spare;	/* next lro_arr, see lro_cpu_swap_arr() */
};

struct lro_dev {
	struct net_device *dev;
	netdevice_tracker tracker;
	struct list_head node;		/* lro_devs, under RTNL */
	struct lro_config cfg;		/* written under RTNL, read lockless */
	struct lro_pcpu __percpu *pcpu;
	struct kobject *kobj;
	u64 stats_base[LRO_STAT_NR];	/* subtracted on read: stats reset */
};

/* Per-CPU flush context shared by all devices. */
struct lro_cpu {
	struct napi_struct napi;
	struct list_head pending;	/* struct lro_pcpu holding segments */
	struct hrtimer timer;
};

static DEFINE_PER_CPU(struct lro_cpu, lro_cpus);
static struct net_device *lro_napi_dev;
static LIST_HEAD(lro_devs);

static unsigned int default_max_desc = 256;
module_param(default_max_desc, uint, 0644);
MODULE_PARM_DESC(default_max_desc, "max_desc of a new attachment (flows per CPU)");
static unsigned int default_max_aggr = 64;
module_param(default_max_aggr, uint, 0644);
MODULE_PARM_DESC(default_max_aggr, "max_aggr of a new attachment (segments per packet)");
static unsigned int default_flush_timeout_us;
module_param(default_flush_timeout_us, uint, 0644);
MODULE_PARM_DESC(default_flush_timeout_us,
		 "hold timer of a new attachment in us (0: flush at the end of each receive batch)");
static unsigned int default_features = LRO_F_NAPI;
module_param(default_features, uint, 0644);
MODULE_PARM_DESC(default_features, "features of a new attachment (1 napi, 2 extract_vlan_id, 4 evict)");

/*
 * Packets LRO sends up go through the device's receive path again, and so
 * through lro_handle_frame(): a cookie in skb->cb tells them apart. The
 * cb is ours between the rx_handler and the protocol handlers; a random
 * 64-bit value cannot be left there by chance.
 */
static u64 lro_cookie __read_mostly;
#define LRO_CB_COOKIE(skb) (*(u64 *)&(skb)->cb[sizeof((skb)->cb) - sizeof(u64)])

static void lro_reinject(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	LRO_CB_COOKIE(skb) = lro_cookie;
	if (mgr->features & LRO_F_NAPI)
		netif_receive_skb_core(skb);
	else
		netif_rx(skb);
}

static void lro_queue(struct lro_pcpu *pc)
{
	struct lro_cpu *lc = this_cpu_ptr(&lro_cpus);

	if (pc->queued)
		return;
	pc->queued = true;
	list_add_tail(&pc->pending, &lc->pending);
	napi_schedule(&lc->napi);
}

static rx_handler_result_t lro_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct lro_dev *ld;
	struct lro_pcpu *pc;

	if (LRO_CB_COOKIE(skb) == lro_cookie) {
		LRO_CB_COOKIE(skb) = 0;
		return RX_HANDLER_PASS;
	}
	ld = rcu_dereference(skb->dev->rx_handler_data);
	if (!READ_ONCE(ld->cfg.enabled))
		return RX_HANDLER_PASS;

	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;

	pc = this_cpu_ptr(ld->pcpu);
	pc->mgr.max_aggr = READ_ONCE(ld->cfg.max_aggr);
	pc->mgr.features = READ_ONCE(ld->cfg.features);
	if (lro_rx_skb(&pc->mgr, skb, NULL) == LRO_PASS) {
		if (pc->mgr.nr_active)
			lro_queue(pc);
		return RX_HANDLER_PASS;
	}
	if (pc->mgr.nr_active)
		lro_queue(pc);
	return RX_HANDLER_CONSUMED;
}

/* End of a receive batch, or the hold timer fired: flush what is due. */
static int lro_poll(struct napi_struct *napi, int budget)
{
	struct lro_cpu *lc = container_of(napi, struct lro_cpu, napi);
	struct lro_pcpu *pc, *tmp;
	u64 now = ktime_get_ns(), next = 0;

	list_for_each_entry_safe(pc, tmp, &lc->pending, pending) {
		u64 timeout = READ_ONCE(pc->ld->cfg.flush_timeout_us) *
			      (u64)NSEC_PER_USEC;
		u64 oldest;

		if (!timeout) {
			lro_flush_all_reason(&pc->mgr, LRO_FLUSH_BATCH);
		} else {
			oldest = lro_flush_older(&pc->mgr, now - timeout);
			if (oldest && (!next || oldest + timeout < next))
				next = oldest + timeout;
		}
		if (!pc->mgr.nr_active) {
			list_del(&pc->pending);
			pc->queued = false;
		}
	}
	napi_complete_done(napi, 0);
	if (next)
		hrtimer_start(&lc->timer, ns_to_ktime(next),
			      HRTIMER_MODE_ABS_PINNED);
	return 0;
}

static enum hrtimer_restart lro_timer_fn(struct hrtimer *timer)
{
	struct lro_cpu *lc = container_of(timer, struct lro_cpu, timer);

	/* The timer is pinned: this is lc's CPU, where its NAPI must run. */
	napi_schedule(&lc->napi);
	return HRTIMER_NORESTART;
}

/*
 * Run @fn on every CPU's state of @ld, on that CPU with bottom halves
 * disabled, so it cannot race with the rx_handler or lro_poll() there.
 */
struct lro_cpu_work {
	struct lro_dev *ld;
	void (*fn)(struct lro_pcpu *pc, void *arg);
	void *arg;
	int cpu;
};

static long lro_cpu_work_fn(void *data)
{
	struct lro_cpu_work *w = data;

	local_bh_disable();
	w->fn(per_cpu_ptr(w->ld->pcpu, w->cpu), w->arg);
	local_bh_enable();
	return 0;
}

static void lro_on_each_cpu(struct lro_dev *ld,
			    void (*fn)(struct lro_pcpu *pc, void *arg),
			    void *arg)
{
	struct lro_cpu_work w = { .ld = ld, .fn = fn, .arg = arg };

	cpus_read_lock();
	for_each_possible_cpu(w.cpu) {
		if (cpu_online(w.cpu))
			work_on_cpu(w.cpu, lro_cpu_work_fn, &w);
		else
			lro_cpu_work_fn(&w);	/* nothing runs there */
	}
	cpus_read_unlock();
}

static void lro_unqueue(struct lro_pcpu *pc)
{
	if (pc->queued) {
		list_del(&pc->pending);
		pc->queued = false;
	}
}

/* Deliver (arg NULL) or drop (device going away) what one CPU holds. */
static void lro_cpu_release(struct lro_pcpu *pc, void *drop)
{
	if (drop)
		lro_drop_all(&pc->mgr);
	else
		lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	lro_unqueue(pc);
}

/* Switch to the spare descriptor array (max_desc changed), after flushing:
 * the engine's hash depends on max_desc.
 */
static void lro_cpu_swap_arr(struct lro_pcpu *pc, void *unused)
{
	struct net_lro_desc *old = pc->mgr.lro_arr;

	lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	lro_unqueue(pc);
	pc->mgr.lro_arr = pc->spare;
	pc->mgr.max_desc = pc->ld->cfg.max_desc;
	pc->spare = old;	/* freed by the caller */
}

/**
 * lro_config_check - validate a configuration
 * @cfg: configuration
 * @extack: where to say what is wrong
 *
 * Return: 0 or -EINVAL.
 */
int lro_config_check(const struct lro_config *cfg,
		     struct netlink_ext_ack *extack)
{
	if (cfg->max_desc < 1 || cfg->max_desc > LRO_MAX_DESC_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "max_desc must be 1..%u",
				       LRO_MAX_DESC_LIMIT);
		return -EINVAL;
	}
	if (cfg->max_aggr < 1 || cfg->max_aggr > LRO_MAX_AGGR_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "max_aggr must be 1..%u",
				       LRO_MAX_AGGR_LIMIT);
		return -EINVAL;
	}
	if (cfg->features & ~LRO_F_ALL) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "unknown features 0x%x",
				       cfg->features & ~LRO_F_ALL);
		return -EINVAL;
	}
	if (cfg->flush_timeout_us > LRO_FLUSH_TIMEOUT_LIMIT) {
		NL_SET_ERR_MSG_FMT_MOD(extack, "flush_timeout_us must be 0..%u",
				       LRO_FLUSH_TIMEOUT_LIMIT);
		return -EINVAL;
	}
	return 0;
}

/**
 * lro_default_config - the configuration of a new attachment
 * @cfg: filled from the module parameters
 */
void lro_default_config(struct lro_config *cfg)
{
	cfg->max_desc = READ_ONCE(default_max_desc);
	cfg->max_aggr = READ_ONCE(default_max_aggr);
	cfg->features = READ_ONCE(default_features);
	cfg->flush_timeout_us = READ_ONCE(default_flush_timeout_us);
	cfg->enabled = true;
}

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
	return rtnl_dereference(dev->rx_handler_data);
}

static void lro_free_spares(struct lro_dev *ld)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lro_pcpu *pc = per_cpu_ptr(ld->pcpu, cpu);

		kvfree(pc->spare);
		pc->spare = NULL;
	}
}

/* A zeroed descriptor array of @max_desc per CPU, in lro_pcpu.spare. */
static int lro_alloc_spares(struct lro_dev *ld, u32 max_desc)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lro_pcpu *pc = per_cpu_ptr(ld->pcpu, cpu);

		pc->spare = kvcalloc(max_desc, sizeof(*pc->spare), GFP_KERNEL);
		if (!pc->spare) {
			lro_free_spares(ld);
			return -ENOMEM;
		}
	}
	return 0;
}

static void lro_dev_free(struct lro_dev *ld)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kvfree(per_cpu_ptr(ld->pcpu, cpu)->mgr.lro_arr);
	free_percpu(ld->pcpu);
	kfree(ld);
}

static struct lro_dev *lro_dev_alloc(struct net_device *dev,
				     const struct lro_config *cfg)
{
	struct lro_dev *ld;
	int cpu;

	ld = kzalloc(sizeof(*ld), GFP_KERNEL);
	if (!ld)
		return NULL;
	ld->pcpu = alloc_percpu(struct lro_pcpu);
	if (!ld->pcpu) {
		kfree(ld);
		return NULL;
	}
	ld->dev = dev;
	ld->cfg = *cfg;
	for_each_possible_cpu(cpu) {
		struct lro_pcpu *pc = per_cpu_ptr(ld->pcpu, cpu);

		pc->ld = ld;
		pc->mgr.dev = dev;
		pc->mgr.features = cfg->features;
		pc->mgr.max_aggr = cfg->max_aggr;
		pc->mgr.max_desc = cfg->max_desc;
		pc->mgr.deliver = lro_reinject;
		INIT_LIST_HEAD(&pc->mgr.active);
		INIT_LIST_HEAD(&pc->pending);
		pc->mgr.lro_arr = kvcalloc(cfg->max_desc,
					   sizeof(struct net_lro_desc),
					   GFP_KERNEL);
		if (!pc->mgr.lro_arr) {
			lro_dev_free(ld);
			return NULL;
		}
	}
	return ld;
}

/**
 * lro_dev_attach - start LRO on a device
 * @dev: network device
 * @cfg: configuration
 * @extack: where to say why not
 *
 * Context: RTNL held.
 * Return: 0, or -EBUSY if the device already has an rx_handler (bridge
 * port, bond slave, macvlan lower, or LRO itself), -EINVAL for a bad
 * configuration or device, -ENOMEM.
 */
int lro_dev_attach(struct net_device *dev, const struct lro_config *cfg,
		   struct netlink_ext_ack *extack)
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
	if (netdev_is_rx_handler_busy(dev)) {
		NL_SET_ERR_MSG_FMT_MOD(extack,
				       "%s already has an rx_handler (bridge port, bond slave, macvlan lower, ...)",
				       dev->name);
		return -EBUSY;
	}
	ld = lro_dev_alloc(dev, cfg);
	if (!ld)
		return -ENOMEM;
	ld->kobj = lro_sysfs_add(dev);
	if (IS_ERR(ld->kobj)) {
		err = PTR_ERR(ld->kobj);
		lro_dev_free(ld);
		return err;
	}
	err = netdev_rx_handler_register(dev, lro_handle_frame, ld);
	if (err) {
		lro_sysfs_del(ld->kobj);
		lro_dev_free(ld);
		return err;
	}
	netdev_hold(dev, &ld->tracker, GFP_KERNEL);
	list_add_tail(&ld->node, &lro_devs);
	lro_nl_notify(ld, LRO_NOTIFY_NEW);
	return 0;
}

/**
 * lro_dev_configure - change the configuration of an attached device
 * @ld: LRO state
 * @cfg: new configuration
 * @extack: where to say why not
 *
 * Held packets are sent up first where the change needs it (max_desc), so
 * nothing held is lost.
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
	if (cfg->max_desc != ld->cfg.max_desc) {
		err = lro_alloc_spares(ld, cfg->max_desc);
		if (err)
			return err;
		WRITE_ONCE(ld->cfg.max_desc, cfg->max_desc);
		lro_on_each_cpu(ld, lro_cpu_swap_arr, NULL);
		lro_free_spares(ld);	/* now the old arrays */
	}
	WRITE_ONCE(ld->cfg.max_aggr, cfg->max_aggr);
	WRITE_ONCE(ld->cfg.features, cfg->features);
	WRITE_ONCE(ld->cfg.flush_timeout_us, cfg->flush_timeout_us);
	WRITE_ONCE(ld->cfg.enabled, cfg->enabled);
	lro_nl_notify(ld, LRO_NOTIFY_CHANGE);
	return 0;
}

static void __lro_dev_detach(struct lro_dev *ld, bool drop)
{
	struct net_device *dev = ld->dev;

	/* Waits for every CPU to leave lro_handle_frame() (synchronize_net). */
	netdev_rx_handler_unregister(dev);
	lro_on_each_cpu(ld, lro_cpu_release, drop ? ld : NULL);
	lro_nl_notify(ld, LRO_NOTIFY_DEL);
	lro_sysfs_del(ld->kobj);
	list_del(&ld->node);
	netdev_put(dev, &ld->tracker);
	lro_dev_free(ld);
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
	return ld->dev;
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
	*cfg = ld->cfg;
}

static void lro_sum_stats(const struct lro_dev *ld, u64 stats[LRO_STAT_NR])
{
	int cpu, i;

	memset(stats, 0, sizeof(u64) * LRO_STAT_NR);
	for_each_possible_cpu(cpu) {
		const struct net_lro_stats *s = &per_cpu_ptr(ld->pcpu, cpu)->mgr.stats;

		/* Word-sized counters written by their CPU only. */
		stats[LRO_STAT_AGGREGATED] += READ_ONCE(s->aggregated);
		stats[LRO_STAT_FLUSHED] += READ_ONCE(s->flushed);
		stats[LRO_STAT_NO_DESC] += READ_ONCE(s->no_desc);
		for (i = 0; i < LRO_FLUSH_NR; i++)
			stats[LRO_STAT_FLUSH_FIRST + i] += READ_ONCE(s->flush[i]);
		stats[LRO_STAT_PKTS_IN] += READ_ONCE(s->pkts_in);
		stats[LRO_STAT_BYTES_IN] += READ_ONCE(s->bytes_in);
		stats[LRO_STAT_PKTS_OUT] += READ_ONCE(s->pkts_out);
		stats[LRO_STAT_BYTES_OUT] += READ_ONCE(s->bytes_out);
		stats[LRO_STAT_HELD_SEGS] += READ_ONCE(s->held);
	}
}

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
	int i;

	lro_sum_stats(ld, stats);
	for (i = 0; i < LRO_STAT_NR; i++)
		if (i != LRO_STAT_HELD_SEGS)
			stats[i] -= ld->stats_base[i];
}

/**
 * lro_dev_reset_stats - start the counters from zero
 * @ld: LRO state
 *
 * Context: RTNL held.
 */
void lro_dev_reset_stats(struct lro_dev *ld)
{
	lro_sum_stats(ld, ld->stats_base);
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
		if (net_eq(dev_net(ld->dev), net))
			return ld;
	return NULL;
}

static int lro_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *info = ptr;
	struct lro_dev *ld = lro_dev_find(dev);

	if (!ld)
		return NOTIFY_DONE;
	switch (event) {
	case NETDEV_UNREGISTER:
		/* Also on a move to another netns: LRO does not follow. */
		__lro_dev_detach(ld, true);
		break;
	case NETDEV_PRECHANGEUPPER:
		/* Bridge, bond, team, VRF ports: refused, with a reason (most
		 * would fail anyway, wanting the rx_handler). A VLAN or macvlan
		 * on top is fine: not a master.
		 */
		if (!info->linking || !info->master)
			break;
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

static void lro_cpus_teardown(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		hrtimer_cancel(&lc->timer);
		napi_disable(&lc->napi);
		netif_napi_del(&lc->napi);
	}
	free_netdev(lro_napi_dev);
}

/**
 * lro_device_init - set up the per-CPU flush contexts
 *
 * Return: 0 or a negative errno.
 */
int lro_device_init(void)
{
	int cpu, err;

	lro_cookie = get_random_u64() | 1;
	lro_napi_dev = alloc_netdev_dummy(0);
	if (!lro_napi_dev)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		INIT_LIST_HEAD(&lc->pending);
		hrtimer_init(&lc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED);
		lc->timer.function = lro_timer_fn;
		netif_napi_add(lro_napi_dev, &lc->napi, lro_poll);
		napi_enable(&lc->napi);
	}
	err = register_netdevice_notifier(&lro_netdev_notifier);
	if (err)
		lro_cpus_teardown();
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
		__lro_dev_detach(ld, !(ld->dev->flags & IFF_UP));
	rtnl_unlock();
	unregister_netdevice_notifier(&lro_netdev_notifier);
	lro_cpus_teardown();
}
