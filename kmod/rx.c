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
 */

#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/memcontrol.h>
#include <linux/netdevice.h>
#include <linux/sched/mm.h>
#include <linux/workqueue.h>

#include "engine.h"
#include "flush.h"
#include "rx.h"

/* Per-CPU flush context and descriptor table, shared by all devices. */
struct lro_cpu {
	struct napi_struct napi;
	struct list_head pending;	/* struct lro_pcpu holding segments */
	struct hrtimer timer;
	struct net_lro_mgr table;	/* lends its lro_arr to every device */
	struct net_lro_desc *spare;	/* see lro_rx_size_tables() */
	bool offline;			/* going down or down: hold nothing */
};

static DEFINE_PER_CPU(struct lro_cpu, lro_cpus);
static struct net_device *lro_napi_dev;
static enum cpuhp_state lro_cpuhp_state;
static u32 lro_table_size;		/* of every CPU's table, under RTNL */
static struct kmem_cache *lro_pcpu_cache;	/* 336 bytes, not kmalloc's 512 */

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
static void lro_pcpu_take_hold(struct lro_pcpu *pc, const struct lro_config *cfg)
{
	pc->mgr.max_desc = cfg->max_desc;
	pc->hold_us = cfg->flush_timeout_us;
	pc->policy.ops = cfg->policy;
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
 * Run @w->fn on every CPU, on that CPU with bottom halves disabled, so it
 * cannot race with the rx_handler or lro_poll() there.
 */
struct lro_cpu_work {
	void (*fn)(struct lro_cpu_work *w, int cpu);
	int cpu;
};

static long lro_cpu_work_fn(void *data)
{
	struct lro_cpu_work *w = data;

	local_bh_disable();
	w->fn(w, w->cpu);
	local_bh_enable();
	return 0;
}

/* Under cpus_read_lock() */
static void lro_on_each_cpu(struct lro_cpu_work *w)
{
	for_each_possible_cpu(w->cpu) {
		if (cpu_online(w->cpu))
			work_on_cpu(w->cpu, lro_cpu_work_fn, w);
		else
			lro_cpu_work_fn(w);	/* it holds nothing, runs nothing */
	}
}

/* A struct lro_pcpu_visit of one device, on every CPU */
struct lro_rx_work {
	struct lro_cpu_work w;
	struct lro_rx *rx;
	struct lro_pcpu_visit *v;
};

static void lro_rx_work_fn(struct lro_cpu_work *w, int cpu)
{
	struct lro_rx_work *rw = container_of(w, struct lro_rx_work, w);
	/* On @cpu with bottom halves off: none is made meanwhile. */
	struct lro_pcpu *pc = *per_cpu_ptr(rw->rx->pcpu, cpu);

	if (pc)
		rw->v->fn(rw->v, pc, cpu);
}

static void __lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	struct lro_rx_work rw = { { lro_rx_work_fn }, rx, v };

	lro_on_each_cpu(&rw.w);
}

/**
 * lro_rx_visit - run @v on each CPU's state of a device
 * @rx: the device
 * @v: the work
 *
 * Context: RTNL held, and no lock CPU hotplug takes.
 */
void lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	cpus_read_lock();
	__lro_rx_visit(rx, v);
	cpus_read_unlock();
}

/**
 * lro_rx_try_visit - run @v on each CPU's state of a device, if it can
 * @rx: the device
 * @v: the work
 *
 * For a caller that may not wait for CPU hotplug: one pinned to its CPU
 * (migrate_disable(), as BPF programs run), which a CPU going offline
 * waits to see leave while holding the hotplug lock.
 *
 * Context: RTNL held.
 * Return: 0, or -EAGAIN while a CPU comes or goes.
 */
int lro_rx_try_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	if (!cpus_read_trylock())
		return -EAGAIN;
	__lro_rx_visit(rx, v);
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

struct lro_release_visit {
	struct lro_pcpu_visit v;
	bool drop;
};

/*
 * Deliver, or drop (the device is going away), what one CPU holds. A
 * packet sent up may come back to the device (a tc redirect from a device
 * above) and be held again: then it stays queued, for lro_poll().
 */
static void lro_pcpu_release(struct lro_pcpu *pc, bool drop)
{
	if (drop)
		lro_drop_all(&pc->mgr);
	else
		lro_flush_all_reason(&pc->mgr, LRO_FLUSH_DETACH);
	if (!pc->mgr.nr_active)
		lro_unqueue(pc);
}

static void lro_cpu_release(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			    int cpu)
{
	lro_pcpu_release(pc, container_of(v, struct lro_release_visit, v)->drop);
}

/**
 * lro_rx_release - send up, or free, what each CPU holds for a device
 * @rx: the device, its rx_handler unregistered (or LRO disabled)
 * @drop: free the held packets: the device is going away
 *
 * Context: RTNL held.
 */
void lro_rx_release(struct lro_rx *rx, bool drop)
{
	struct lro_release_visit r = { { lro_cpu_release }, drop };

	lro_rx_visit(rx, &r.v);
}

struct lro_hold_visit {
	struct lro_pcpu_visit v;
	const struct lro_config *cfg;
};

/*
 * Send up what was held under the old hold, policy or max_desc, then take
 * the device's new ones: a packet is told to the policy that started it,
 * the packets held without a policy keep one hold, oldest first, and no
 * CPU holds more than max_desc.
 */
static void lro_cpu_take_hold(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			      int cpu)
{
	lro_pcpu_release(pc, false);
	lro_pcpu_take_hold(pc, container_of(v, struct lro_hold_visit, v)->cfg);
}

/**
 * lro_rx_take_hold - have each CPU take the device's hold, policy and
 *	max_desc
 * @rx: the device, its new configuration published
 *
 * Once this returns, no CPU calls the policy it had before.
 *
 * Context: RTNL held.
 */
void lro_rx_take_hold(struct lro_rx *rx)
{
	struct lro_hold_visit h = { { lro_cpu_take_hold },
				    rtnl_dereference(rx->cfg) };

	lro_rx_visit(rx, &h.v);
}

/*
 * What LRO allocates for a device is charged to the memory cgroup of the
 * task that attaches or configures it: the family is open to user
 * namespace root. The descriptor tables a max_desc needs are charged to
 * the task that asks for it (max_desc 65536 is 8.5 MiB per CPU) and fail
 * cleanly at the cgroup's limit (no OOM kill, no warning); the caller
 * says so in the extack.
 */
#define LRO_GFP		GFP_KERNEL_ACCOUNT
#define LRO_GFP_ARR	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static void lro_free_spares(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		kvfree(lc->spare);
		lc->spare = NULL;
	}
}

struct lro_size_work {
	struct lro_cpu_work w;
	u32 size;
};

/*
 * Switch this CPU's table to its spare array. Every device's descriptors
 * on this CPU are in the table: their packets go up first (each device
 * holding is on the pending list; one sent up may start another there,
 * on a device above).
 */
static void lro_cpu_swap_table(struct lro_cpu_work *w, int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);
	struct net_lro_desc *old = lc->table.lro_arr;

	while (!list_empty(&lc->pending))
		lro_pcpu_release(list_first_entry(&lc->pending,
						  struct lro_pcpu, pending),
				 false);
	/* Every held descriptor's manager is pending: none can be left. */
	if (WARN_ON_ONCE(lc->table.nr_active))
		return;		/* keep the array they are in; spare freed */
	lc->table.lro_arr = lc->spare;
	lc->table.max_desc = container_of(w, struct lro_size_work, w)->size;
	lc->table.free_desc = 0;
	lc->table.used_desc = 0;
	lc->spare = old;	/* freed by the caller */
}

/**
 * lro_rx_size_tables - give each CPU's descriptor table @size descriptors
 * @size: the largest max_desc of the attached devices; 0 when none is
 * @shrink: also when @size is smaller (else only grow)
 *
 * A changed size sends up what every device holds on each CPU first.
 *
 * Context: RTNL held.
 * Return: 0, or -ENOMEM with nothing changed.
 */
int lro_rx_size_tables(u32 size, bool shrink)
{
	struct lro_size_work sw = { { lro_cpu_swap_table }, size };
	int cpu;

	ASSERT_RTNL();
	if (size == lro_table_size || (size < lro_table_size && !shrink))
		return 0;
	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		if (!size)
			continue;
		lc->spare = kvcalloc(size, sizeof(struct net_lro_desc),
				     LRO_GFP_ARR);
		if (!lc->spare) {
			lro_free_spares();
			return -ENOMEM;
		}
	}
	cpus_read_lock();
	lro_on_each_cpu(&sw.w);
	cpus_read_unlock();
	lro_free_spares();	/* now the old arrays */
	lro_table_size = size;
	return 0;
}

/**
 * lro_rx_free - free what lro_rx_alloc() and the receive path allocated
 * @rx: the device, which holds nothing, its rx_handler gone
 */
void lro_rx_free(struct lro_rx *rx)
{
	int cpu;

	if (rx->pcpu) {
		for_each_possible_cpu(cpu) {
			struct lro_pcpu *pc = *per_cpu_ptr(rx->pcpu, cpu);

			if (pc)
				kmem_cache_free(lro_pcpu_cache, pc);
		}
		free_percpu(rx->pcpu);
		rx->pcpu = NULL;
	}
	mem_cgroup_put(rx->memcg);
	rx->memcg = NULL;
}

/**
 * lro_rx_alloc - set up a device being attached
 * @rx: the device's, zeroed
 * @dev: the device
 *
 * Its state on each CPU is made by its first segment there.
 *
 * Context: RTNL held, in the attaching task.
 * Return: 0, or -ENOMEM (lro_rx_free() cleans up).
 */
int lro_rx_alloc(struct lro_rx *rx, struct net_device *dev)
{
	rx->dev = dev;
	rx->memcg = get_mem_cgroup_from_mm(NULL);	/* current's, or its active one */
	rx->pcpu = alloc_percpu_gfp(struct lro_pcpu *, LRO_GFP);
	return rx->pcpu ? 0 : -ENOMEM;
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
		lro_pcpu_release(pc, false);
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
	/* Charged to the memory cgroup that attached the device. */
	lro_pcpu_cache = KMEM_CACHE(lro_pcpu, SLAB_ACCOUNT);
	if (!lro_pcpu_cache)
		return -ENOMEM;
	lro_napi_dev = alloc_netdev_dummy(0);
	if (!lro_napi_dev) {
		kmem_cache_destroy(lro_pcpu_cache);
		return -ENOMEM;
	}
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
		kmem_cache_destroy(lro_pcpu_cache);
		return ret;
	}
	lro_cpuhp_state = ret;
	return 0;
}

/**
 * lro_rx_exit - tear down the per-CPU flush contexts
 *
 * Call once no device is attached: nothing is pending then, and the
 * tables are gone (lro_rx_size_tables(0)).
 */
void lro_rx_exit(void)
{
	cpuhp_remove_state(lro_cpuhp_state);	/* lro_cpu_offline() on each */
	lro_napi_del_all();
	kmem_cache_destroy(lro_pcpu_cache);
}
