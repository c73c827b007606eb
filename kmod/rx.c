// SPDX-License-Identifier: GPL-2.0
/*
 * The receive fast path of LRO on any device: an rx_handler feeds each
 * received segment to this CPU's engine for the device, and a per-CPU NAPI
 * instance sends held packets up at the end of the receive batch (or, with
 * a hold timer, once they are flush_timeout_us old).
 *
 *   driver -> netif_receive_skb/netif_rx -> lro_handle_frame (rx_handler)
 *          -> engine (held) -> lro_poll (this CPU's NAPI, after the
 *          device's poll) -> flush -> netif_receive_skb_core -> stack
 *
 * Per-device state is per CPU and only touched by its own CPU, in softirq
 * context or in process context on that CPU with bottom halves disabled
 * (lro_on_each_cpu()): the fast path takes no lock. A CPU going offline
 * sends up what it holds, on itself, and quiesces its NAPI and timer
 * first (lro_cpu_offline()), so nothing of its state runs elsewhere.
 */

#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/workqueue.h>

#include "device.h"
#include "engine.h"

/* Per-CPU flush context shared by all devices. */
struct lro_cpu {
	struct napi_struct napi;
	struct list_head pending;	/* struct lro_pcpu holding segments */
	struct hrtimer timer;
	bool offline;			/* going down or down: hold nothing */
};

static DEFINE_PER_CPU(struct lro_cpu, lro_cpus);
static struct net_device *lro_napi_dev;
static enum cpuhp_state lro_cpuhp_state;

/*
 * Packets LRO sends up go through the device's receive path again, and so
 * through lro_handle_frame(): a cookie in skb->cb tells them apart. The
 * cb is ours between the rx_handler and the protocol handlers; a random
 * 64-bit value cannot be left there by chance.
 */
static u64 lro_cookie __read_mostly;
#define LRO_CB_COOKIE(skb) (*(u64 *)&(skb)->cb[sizeof((skb)->cb) - sizeof(u64)])

/*
 * What runs before the rx_handler in __netif_receive_skb_core() saw these
 * bytes already, as the segments that brought them: packet taps, tc and
 * netfilter ingress, which tc_skip_classify skips (once: the core takes it
 * down, so a VLAN device above still sees the packet); and generic XDP,
 * which passes a redirected skb (netif_receive_generic_xdp()). The
 * redirect mark must come down again in lro_handle_frame()'s cookie
 * branch before the packet goes on: so only when it is delivered at once
 * (LRO_F_NAPI); from netif_rx()'s backlog the rx_handler may be gone by
 * then, and generic XDP sees such a packet twice.
 */
static void lro_skip_seen(struct sk_buff *skb, bool at_once)
{
#if IS_ENABLED(CONFIG_NET_CLS_ACT)
	skb->tc_skip_classify = 1;
#endif
	if (at_once)
		skb_set_redirected_noclear(skb, true);
}

void lro_reinject(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	bool at_once = mgr->features & LRO_F_NAPI;

	/* Detaching sends held packets up after the rx_handler is gone:
	 * then nothing would take the marks down.
	 */
	if (rcu_access_pointer(skb->dev->rx_handler) == lro_handle_frame) {
		LRO_CB_COOKIE(skb) = lro_cookie;
		lro_skip_seen(skb, at_once);
	}
	if (at_once)
		netif_receive_skb_core(skb);
	else
		netif_rx(skb);
}

/*
 * lro.ko's say in the engine (struct lro_engine_ops), once per packet: the
 * device's hold, or what its BPF policy decides (policy.c). A device with
 * neither holds its packets until the end of the batch, which the engine
 * does without ops: at the defaults the engine makes no call.
 */
static struct lro_pcpu *lro_pcpu_of(struct net_lro_mgr *mgr)
{
	return container_of(mgr, struct lro_pcpu, mgr);
}

static bool lro_hold_start(struct net_lro_mgr *mgr, struct lro_seg *seg)
{
	seg->hold_us = lro_pcpu_of(mgr)->hold_us;
	return true;
}

static bool lro_policy_ops_start(struct net_lro_mgr *mgr, struct lro_seg *seg)
{
	struct lro_pcpu *pc = lro_pcpu_of(mgr);

	return lro_policy_start(&pc->policy, seg, pc->hold_us);
}

static void lro_policy_ops_flushed(struct net_lro_mgr *mgr,
				   const struct net_lro_desc *d,
				   enum lro_flush_reason why)
{
	lro_policy_flushed(&lro_pcpu_of(mgr)->policy, d, why);
}

static const struct lro_engine_ops lro_hold_ops = {
	.start = lro_hold_start,
};

static const struct lro_engine_ops lro_policy_engine_ops = {
	.start = lro_policy_ops_start,
	.flushed = lro_policy_ops_flushed,
};

/* Take the device's hold and policy. Nothing may be held (or, at init,
 * the CPU's state not yet be in use).
 */
static void lro_pcpu_take_hold(struct lro_pcpu *pc)
{
	const struct lro_config *cfg = &pc->ld->cfg;

	pc->hold_us = cfg->flush_timeout_us;
	pc->policy.ops = cfg->policy;
	if (cfg->policy)
		pc->mgr.ops = &lro_policy_engine_ops;
	else
		pc->mgr.ops = cfg->flush_timeout_us ? &lro_hold_ops : NULL;
}

/**
 * lro_pcpu_init - set up one CPU's state of a device being attached
 * @pc: the state, zeroed, @pc->mgr.lro_arr allocated
 * @ld: the device, its configuration set
 */
void lro_pcpu_init(struct lro_pcpu *pc, struct lro_dev *ld)
{
	pc->ld = ld;
	pc->mgr.dev = ld->dev;
	pc->mgr.features = ld->cfg.features;
	pc->mgr.max_aggr = ld->cfg.max_aggr;
	pc->mgr.max_desc = ld->cfg.max_desc;
	pc->mgr.max_held_bytes = ld->cfg.max_held_bytes;
	pc->mgr.deliver = lro_reinject;
	INIT_LIST_HEAD(&pc->mgr.active);
	INIT_LIST_HEAD(&pc->pending);
	lro_pcpu_take_hold(pc);
}

/*
 * Have lro_poll() run at the end of this batch. Once queued, a manager
 * without a policy needs nothing more: its packets all have the device's
 * hold, and the timer is set for the oldest. With a policy, a packet just
 * started may be due at the end of this batch (hold 0), or before the
 * timer: the poll runs at every batch end then.
 */
static void lro_queue(struct lro_pcpu *pc)
{
	struct lro_cpu *lc = this_cpu_ptr(&lro_cpus);

	if (!pc->queued) {
		pc->queued = true;
		list_add_tail(&pc->pending, &lc->pending);
	} else if (!pc->policy.ops) {
		return;
	}
	napi_schedule(&lc->napi);
}

/*
 * A segment LRO does not take. Without LRO_F_NAPI, what LRO sends up goes
 * through netif_rx()'s backlog, where a packet of this segment's flow may
 * still wait: the segment goes behind it, not past it.
 */
static rx_handler_result_t lro_pass(struct lro_pcpu *pc, struct sk_buff *skb)
{
	if (pc->mgr.features & LRO_F_NAPI)
		return RX_HANDLER_PASS;
	lro_reinject(&pc->mgr, skb);
	return RX_HANDLER_CONSUMED;
}

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct lro_dev *ld;
	struct lro_pcpu *pc;

	if (LRO_CB_COOKIE(skb) == lro_cookie) {
		LRO_CB_COOKIE(skb) = 0;
		skb_reset_redirect(skb);
		return RX_HANDLER_PASS;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;

	ld = rcu_dereference(skb->dev->rx_handler_data);
	pc = this_cpu_ptr(ld->pcpu);
	pc->mgr.max_aggr = READ_ONCE(ld->cfg.max_aggr);
	pc->mgr.features = READ_ONCE(ld->cfg.features);
	pc->mgr.max_held_bytes = READ_ONCE(ld->cfg.max_held_bytes);
	if (unlikely(!READ_ONCE(ld->cfg.enabled) ||
		     this_cpu_read(lro_cpus.offline))) {
		/* Hold nothing; what was held (LRO just disabled) goes first. */
		if (pc->mgr.nr_active)
			lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
		return lro_pass(pc, skb);
	}
	if (lro_rx_skb(&pc->mgr, skb, NULL) == LRO_PASS) {
		if (pc->mgr.nr_active)
			lro_queue(pc);
		return lro_pass(pc, skb);
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

	/* Another CPU's engines are that CPU's alone (see the top). */
	if (WARN_ON_ONCE(lc != this_cpu_ptr(&lro_cpus))) {
		napi_complete_done(napi, 0);
		return 0;
	}
	list_for_each_entry_safe(pc, tmp, &lc->pending, pending) {
		/* Without a policy, every packet has the device's hold. */
		u64 due = lro_flush_due(&pc->mgr, now, !pc->policy.ops);

		if (due && (!next || due < next))
			next = due;
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
	if (!WARN_ON_ONCE(lc != this_cpu_ptr(&lro_cpus)))
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

static void __lro_on_each_cpu(struct lro_dev *ld,
			      void (*fn)(struct lro_pcpu *pc, void *arg),
			      void *arg)
{
	struct lro_cpu_work w = { .ld = ld, .fn = fn, .arg = arg };

	for_each_possible_cpu(w.cpu) {
		if (cpu_online(w.cpu))
			work_on_cpu(w.cpu, lro_cpu_work_fn, &w);
		else
			lro_cpu_work_fn(&w);	/* it holds nothing, runs nothing */
	}
}

void lro_on_each_cpu(struct lro_dev *ld,
		     void (*fn)(struct lro_pcpu *pc, void *arg), void *arg)
{
	cpus_read_lock();
	__lro_on_each_cpu(ld, fn, arg);
	cpus_read_unlock();
}

/*
 * lro_on_each_cpu() for a caller that may not wait for CPU hotplug: one
 * pinned to its CPU (migrate_disable(), as BPF programs run), which a CPU
 * going offline waits to see leave while holding the hotplug lock.
 * Return: 0, or -EAGAIN while a CPU comes or goes.
 */
int lro_try_on_each_cpu(struct lro_dev *ld,
			void (*fn)(struct lro_pcpu *pc, void *arg), void *arg)
{
	if (!cpus_read_trylock())
		return -EAGAIN;
	__lro_on_each_cpu(ld, fn, arg);
	cpus_read_unlock();
	return 0;
}

static void lro_unqueue(struct lro_pcpu *pc)
{
	if (pc->queued) {
		list_del(&pc->pending);
		pc->queued = false;
	}
}

/* Deliver (arg NULL) or drop (device going away) what one CPU holds. */
void lro_cpu_release(struct lro_pcpu *pc, void *drop)
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
void lro_cpu_swap_arr(struct lro_pcpu *pc, void *unused)
{
	struct net_lro_desc *old = pc->mgr.lro_arr;

	lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	lro_unqueue(pc);
	pc->mgr.lro_arr = pc->spare;
	pc->mgr.max_desc = pc->ld->cfg.max_desc;
	pc->spare = old;	/* freed by the caller */
}

/*
 * Send up what was held under the old hold or policy, then take the
 * device's new ones: a packet is told to the policy that started it, and
 * the packets held without a policy keep one hold, oldest first.
 */
void lro_cpu_set_hold(struct lro_pcpu *pc, void *unused)
{
	lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	lro_unqueue(pc);
	lro_pcpu_take_hold(pc);
}

static void lro_napi_del_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		netif_napi_del(&per_cpu_ptr(&lro_cpus, cpu)->napi);
	free_netdev(lro_napi_dev);
}

/*
 * CPU hotplug. Until its teardown ends, a CPU going down still receives;
 * after it, the kernel moves a scheduled NAPI (dev_cpu_dead()) and pending
 * timers (hrtimers_cpu_dying()) to a live CPU, where ours would run against
 * this CPU's engines, and still would when it comes back. So, on the CPU
 * itself (an AP state's callbacks run there): hold nothing from now on,
 * send up what is held, and stop the NAPI and the timer.
 */
static int lro_cpu_offline(unsigned int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);
	struct lro_pcpu *pc, *tmp;

	local_bh_disable();
	lc->offline = true;
	list_for_each_entry_safe(pc, tmp, &lc->pending, pending)
		lro_cpu_release(pc, NULL);
	local_bh_enable();
	napi_disable(&lc->napi);	/* a poll under way ends first */
	hrtimer_cancel(&lc->timer);	/* napi_schedule() is a no-op now */
	return 0;
}

static int lro_cpu_online(unsigned int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

	napi_enable(&lc->napi);
	local_bh_disable();
	lc->offline = false;
	local_bh_enable();
	return 0;
}

/**
 * lro_rx_init - set up the per-CPU flush contexts
 *
 * Return: 0, -ENOMEM, or the error of the CPU hotplug state's setup.
 */
int lro_rx_init(void)
{
	int cpu, ret;

	lro_cookie = get_random_u64() | 1;
	lro_napi_dev = alloc_netdev_dummy(0);
	if (!lro_napi_dev)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		INIT_LIST_HEAD(&lc->pending);
		hrtimer_init(&lc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED);
		lc->timer.function = lro_timer_fn;
		lc->offline = true;
		netif_napi_add(lro_napi_dev, &lc->napi, lro_poll); /* disabled */
	}
	/* lro_cpu_online() on each online CPU, and from now on */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "net/lro:online",
				lro_cpu_online, lro_cpu_offline);
	if (ret < 0) {
		lro_napi_del_all();
		return ret;
	}
	lro_cpuhp_state = ret;
	return 0;
}

/**
 * lro_rx_exit - tear down the per-CPU flush contexts
 *
 * Call once no device is attached: nothing is pending then.
 */
void lro_rx_exit(void)
{
	cpuhp_remove_state(lro_cpuhp_state);	/* lro_cpu_offline() on each */
	lro_napi_del_all();
}
