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
 * (lro_on_each_cpu()): the fast path takes no lock.
 */

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
};



static DEFINE_PER_CPU(struct lro_cpu, lro_cpus);
static struct net_device *lro_napi_dev;

/*
 * Packets LRO sends up go through the device's receive path again, and so
 * through lro_handle_frame(): a cookie in skb->cb tells them apart. The
 * cb is ours between the rx_handler and the protocol handlers; a random
 * 64-bit value cannot be left there by chance.
 */
static u64 lro_cookie __read_mostly;
#define LRO_CB_COOKIE(skb) (*(u64 *)&(skb)->cb[sizeof((skb)->cb) - sizeof(u64)])

void lro_reinject(struct net_lro_mgr *mgr, struct sk_buff *skb)
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

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb)
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

void lro_on_each_cpu(struct lro_dev *ld,
		     void (*fn)(struct lro_pcpu *pc, void *arg), void *arg)
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

/**
 * lro_rx_init - set up the per-CPU flush contexts
 *
 * Return: 0 or -ENOMEM.
 */
int lro_rx_init(void)
{
	int cpu;

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
	return 0;
}

/**
 * lro_rx_exit - tear down the per-CPU flush contexts
 *
 * Call once no device is attached: nothing is pending then.
 */
void lro_rx_exit(void)
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
