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
 * (lro_on_each_cpu()): the fast path takes no lock. What holds flows is
 * per CPU and shared by every device, as GRO's lists are per NAPI: each
 * device's manager takes descriptors from its CPU's table
 * (net_lro_mgr.table) up to its max_desc, so attaching a device allocates
 * no flow table. The tables are as large as the largest max_desc
 * attached (lro_rx_size_tables()), none when nothing is. A device's settings are
 * one object device.c replaces whole (struct lro_rx.cfg), read under the
 * RCU the receive path runs in; the hold and the policy, which decide how
 * packets already held go up, each CPU takes with the rest of its state
 * (lro_rx_take_hold()). A CPU going offline sends up what it holds, on
 * itself, and quiesces its NAPI and timer first (lro_cpu_offline()), so
 * nothing of its state runs elsewhere.
 *
 * This file is the path a segment takes; what runs under RTNL on every
 * CPU (attaching, configuring, sizing the tables, CPU hotplug) is
 * rx_ctl.c, which calls in here and nothing here calls out to it.
 */

#include <linux/hrtimer.h>
#include <linux/memcontrol.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/sched/mm.h>

#include "engine.h"
#include "flush.h"
#include "rx.h"

DEFINE_PER_CPU(struct lro_cpu, lro_cpus);
static struct kmem_cache *lro_pcpu_cache;	/* 368 bytes, not kmalloc's 512 */

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

/* Each manager's deliver(): what LRO sends up, and what it passes
 * without LRO_F_NAPI, enters the device's receive path again.
 */
static void lro_rx_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	bool at_once = mgr->features & LRO_F_NAPI;

	/* A device being unregistered takes what it held with it: sent up
	 * now (by the timer, or another device's detach resizing the
	 * tables), it would reach a backlog already flushed for it.
	 */
	if (unlikely(READ_ONCE(skb->dev->reg_state) != NETREG_REGISTERED)) {
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return;
	}
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

/* Take the device's hold, policy and max_desc. Nothing may be held (or,
 * at init, the CPU's state not yet be in use).
 */
void lro_pcpu_take_hold(struct lro_pcpu *pc, const struct lro_config *cfg)
{
	pc->mgr.max_desc = cfg->max_desc;
	pc->hold_us = cfg->flush_timeout_us;
	pc->policy.ops = cfg->policy;
	/* A new hold, policy or max_desc is learnt afresh (adaptive). */
	pc->lone.polls = 0;
	pc->lone.window = 0;
	pc->lone.skip = 0;
	if (cfg->policy)
		pc->mgr.ops = &lro_policy_engine_ops;
	else
		pc->mgr.ops = cfg->flush_timeout_us ? &lro_hold_ops : NULL;
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
	lro_rx_deliver(&pc->mgr, skb);
	return RX_HANDLER_CONSUMED;
}

/*
 * The adaptive feature at hold 0 without a policy (the defaults): what
 * end-of-batch holding costs where nothing merges. A tap written one
 * segment per write(), or a NIC interrupting per packet, brings a flow one
 * segment per receive batch; each packet then goes up alone, after the
 * engine's work, a NAPI poll and a second trip through
 * __netif_receive_skb_core(): about 1,000 instructions a segment in
 * lro.ko on a tap (bench.md), and slower than without LRO. So after
 * LRO_LONE_POLLS batch ends in a row that merged nothing (batch ends at
 * which the device held something here: the others do not count), the
 * device's next frames on this CPU pass untaken, as they would without
 * LRO, for as long as it holds nothing there, and after lone.window of
 * them LRO takes segments again to look. A look that again merges nothing
 * doubles the window, up to LRO_LONE_WINDOW_MAX; a merge ends it. A frame
 * passes only while nothing is held: its flow stays in order. The window
 * does not age: a bulk flow that starts after a long lone spell passes up
 * to LRO_LONE_WINDOW_MAX segments before it is looked at.
 */
#define LRO_LONE_POLLS		16
#define LRO_LONE_WINDOW_MIN	64
#define LRO_LONE_WINDOW_MAX	4096

static bool lro_lone_adapts(const struct lro_pcpu *pc)
{
	return (pc->mgr.features & LRO_F_ADAPTIVE) && !pc->mgr.ops;
}

/* In the rx_handler: does @skb pass untaken? Counted as the engine would. */
static bool lro_lone_pass(struct lro_pcpu *pc, const struct sk_buff *skb)
{
	if (likely(!pc->lone.skip) || pc->mgr.nr_active)
		return false;
	if (!lro_lone_adapts(pc)) {	/* off since: start afresh when on */
		pc->lone.skip = 0;
		return false;
	}
	pc->lone.skip--;
	pc->lone.passed++;
	pc->mgr.stats.pkts_in++;
	pc->mgr.stats.bytes_in += skb->len;
	pc->mgr.stats.pkts_out++;
	pc->mgr.stats.bytes_out += skb->len;
	return true;
}

/*
 * At a batch end, once what was due went up: did anything merge since the
 * last one? Segments taken (started or joined a packet) and packets sent
 * up are equal when each went up alone.
 */
static void lro_lone_learn(struct lro_pcpu *pc)
{
	const struct net_lro_stats *st = &pc->mgr.stats;
	struct lro_lone *l = &pc->lone;
	bool merged = st->aggregated - l->aggregated !=
		      st->flushed - l->flushed;

	l->aggregated = st->aggregated;
	l->flushed = st->flushed;
	if (merged || pc->mgr.nr_active || !lro_lone_adapts(pc)) {
		l->polls = 0;
		l->window = 0;
		return;
	}
	if (++l->polls < LRO_LONE_POLLS)
		return;
	l->polls = 0;
	l->window = l->window ? min(2 * l->window, LRO_LONE_WINDOW_MAX) :
				LRO_LONE_WINDOW_MIN;
	l->skip = l->window;
}

static void lro_pcpu_init(struct lro_pcpu *pc, struct lro_rx *rx,
			  const struct lro_config *cfg, int cpu)
{
	pc->rx = rx;
	pc->mgr.dev = rx->dev;
	pc->mgr.table = &per_cpu_ptr(&lro_cpus, cpu)->table;
	pc->mgr.features = cfg->features;
	pc->mgr.max_aggr = cfg->max_aggr;
	pc->mgr.max_held_bytes = cfg->max_held_bytes;
	pc->mgr.deliver = lro_rx_deliver;
	INIT_LIST_HEAD(&pc->mgr.active);
	INIT_LIST_HEAD(&pc->pending);
	lro_pcpu_take_hold(pc, cfg);
}

/*
 * A device's state on this CPU, made by its first segment here: attaching
 * allocates none, so a device costs a pointer on each CPU it never
 * receives on (as GRO's state is per NAPI, not per device and CPU). It
 * is charged to the memory cgroup that attached the device; at its limit
 * the device takes no LRO on this CPU until an allocation succeeds. Once
 * made, it stays until the device is detached: lro_rx_pcpu() readers on
 * other CPUs (counters) see it whole.
 */
static struct lro_pcpu *lro_pcpu_new(struct lro_rx *rx,
				     const struct lro_config *cfg)
{
	struct mem_cgroup *old = set_active_memcg(rx->memcg);
	struct lro_pcpu *pc;

	/* Not GFP_ATOMIC: its __GFP_HIGH lets memcg charge past the limit. */
	pc = kmem_cache_zalloc(lro_pcpu_cache, GFP_NOWAIT | __GFP_NOWARN);
	set_active_memcg(old);
	if (!pc)
		return NULL;
	lro_pcpu_init(pc, rx, cfg, smp_processor_id());
	/* Pairs with lro_rx_pcpu()'s acquire: its readers see it whole. */
	smp_store_release(this_cpu_ptr(rx->pcpu), pc);
	return pc;
}

/* A state lro_pcpu_new() made: its device detached, it holds nothing. */
void lro_pcpu_free(struct lro_pcpu *pc)
{
	kmem_cache_free(lro_pcpu_cache, pc);
}

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	const struct lro_config *cfg;
	struct lro_pcpu *pc;
	struct lro_rx *rx;

	if (LRO_CB_COOKIE(skb) == lro_cookie) {
		LRO_CB_COOKIE(skb) = 0;
		skb_reset_redirect(skb);
		return RX_HANDLER_PASS;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;

	rx = rcu_dereference(skb->dev->rx_handler_data);
	cfg = rcu_dereference(rx->cfg);
	pc = __this_cpu_read(*rx->pcpu);
	if (unlikely(!cfg->enabled || this_cpu_read(lro_cpus.offline))) {
		/* Hold nothing; what was held (LRO just disabled) goes first. */
		if (!pc)
			return RX_HANDLER_PASS;	/* nothing held here to pass */
		pc->mgr.features = cfg->features;
		if (pc->mgr.nr_active)
			lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
		return lro_pass(pc, skb);
	}
	if (unlikely(!pc)) {
		pc = lro_pcpu_new(rx, cfg);
		if (!pc)
			return RX_HANDLER_PASS;	/* nothing held here either */
	}
	pc->mgr.max_aggr = cfg->max_aggr;
	pc->mgr.features = cfg->features;
	pc->mgr.max_held_bytes = cfg->max_held_bytes;
	if (lro_lone_pass(pc, skb))
		return lro_pass(pc, skb);
	if (lro_rx_skb(&pc->mgr, skb, NULL) == LRO_PASS) {
		if (pc->mgr.nr_active)
			lro_queue(pc);
		return lro_pass(pc, skb);
	}
	if (pc->mgr.nr_active)
		lro_queue(pc);
	return RX_HANDLER_CONSUMED;
}

static void lro_unqueue(struct lro_pcpu *pc)
{
	if (pc->queued) {
		list_del(&pc->pending);
		pc->queued = false;
	}
}

/* End of a receive batch, or the hold timer fired: flush what is due. */
int lro_poll(struct napi_struct *napi, int budget)
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
		lro_lone_learn(pc);
		if (!pc->mgr.nr_active)
			lro_unqueue(pc);
	}
	napi_complete_done(napi, 0);
	if (next)
		hrtimer_start(&lc->timer, ns_to_ktime(next),
			      HRTIMER_MODE_ABS_PINNED);
	return 0;
}

enum hrtimer_restart lro_timer_fn(struct hrtimer *timer)
{
	struct lro_cpu *lc = container_of(timer, struct lro_cpu, timer);

	/* The timer is pinned: this is lc's CPU, where its NAPI must run. */
	if (!WARN_ON_ONCE(lc != this_cpu_ptr(&lro_cpus)))
		napi_schedule(&lc->napi);
	return HRTIMER_NORESTART;
}

/*
 * Deliver, or drop (the device is going away), what one CPU holds. A
 * packet sent up may come back to the device (a tc redirect from a device
 * above) and be held again: then it stays queued, for lro_poll().
 */
void lro_pcpu_release(struct lro_pcpu *pc, bool drop)
{
	if (drop)
		lro_drop_all(&pc->mgr);
	else
		lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	if (!pc->mgr.nr_active)
		lro_unqueue(pc);
}

/**
 * lro_rx_path_init - set up what the receive path allocates from
 *
 * Return: 0 or -ENOMEM.
 */
int lro_rx_path_init(void)
{
	lro_cookie = get_random_u64() | 1;
	/* Charged to the memory cgroup that attached the device. */
	lro_pcpu_cache = KMEM_CACHE(lro_pcpu, SLAB_ACCOUNT);
	return lro_pcpu_cache ? 0 : -ENOMEM;
}

/* Once every device's state is freed (lro_rx_free()). */
void lro_rx_path_exit(void)
{
	kmem_cache_destroy(lro_pcpu_cache);
}
