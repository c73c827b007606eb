/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive path of LRO on any device (rx.c): the rx_handler, each
 * device's state on each CPU, and the per-CPU flush contexts. What rx.c
 * knows of a device is its struct lro_rx; device.c attaches, configures
 * and detaches through rx_ctl.h, whose functions alone call the ones
 * below the types.
 */
#ifndef _LRO_RX_H
#define _LRO_RX_H

#include <linux/hrtimer.h>
#include <linux/inet_lro.h>
#include <linux/netdevice.h>

#include "config.h"
#include "policy.h"

struct lro_rx;

/*
 * What the adaptive feature learns of one device on one CPU (rx.c's
 * lro_lone_*()): whether its packets there all go up alone.
 * @polls: batch ends in a row that merged nothing
 * @skip: segments still to pass untaken, before looking again
 * @window: @skip's next value, doubled at each look that merges nothing
 * @aggregated: the engine's aggregated count at the last batch end
 * @flushed: the engine's flushed count at the last batch end
 * @passed: segments passed untaken (the lone_passed counter)
 */
struct lro_lone {
	u16 polls;
	u16 window;
	u32 skip;
	unsigned long aggregated;
	unsigned long flushed;
	unsigned long passed;
};

/*
 * One device's LRO state on one CPU: the engine's manager, which takes its
 * descriptors from the CPU's table, and what lro.ko adds to it through its
 * struct lro_engine_ops: the hold and the policy.
 */
struct lro_pcpu {
	struct net_lro_mgr mgr;
	struct lro_rx *rx;
	struct list_head pending;	/* on lro_cpu.pending while holding */
	bool queued;
	u32 hold_us;			/* the device's flush_timeout_us */
	struct lro_policy_state policy;
	struct lro_lone lone;
};

/* On its CPU, once @pc's counters were zeroed: the learning's follow. */
static inline void lro_pcpu_counters_zeroed(struct lro_pcpu *pc)
{
	pc->lone.aggregated = 0;
	pc->lone.flushed = 0;
}

/**
 * struct lro_rx - what the receive path knows of a device
 * @dev: the device
 * @cfg: its configuration, replaced whole under RTNL (device.c), read
 *	under RCU
 * @pcpu: its state on each CPU, made by its first segment there (NULL
 *	before): a device that never receives on a CPU costs a pointer there
 * @memcg: charged for that state, the attaching task's
 */
struct lro_rx {
	struct net_device *dev;
	struct lro_config __rcu *cfg;
	struct lro_pcpu * __percpu *pcpu;
	struct mem_cgroup *memcg;
};

/* @rx's state on @cpu, or NULL: from any context, while @rx is attached */
static inline struct lro_pcpu *lro_rx_pcpu(const struct lro_rx *rx, int cpu)
{
	/* Pairs with the release in lro_pcpu_new(): @cpu initialised it. */
	return smp_load_acquire(per_cpu_ptr(rx->pcpu, cpu));
}

/* Per-CPU flush context and descriptor table, shared by all devices. */
struct lro_cpu {
	struct napi_struct napi;
	struct list_head pending;	/* struct lro_pcpu holding segments */
	struct hrtimer timer;
	struct net_lro_mgr table;	/* lends its lro_arr to every device */
	struct net_lro_desc *spare;	/* see lro_rx_size_tables() */
	bool offline;			/* going down or down: hold nothing */
};

DECLARE_PER_CPU(struct lro_cpu, lro_cpus);

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb);

/* For rx_ctl.c: each CPU's NAPI poll and timer, ... */
int lro_poll(struct napi_struct *napi, int budget);
enum hrtimer_restart lro_timer_fn(struct hrtimer *timer);
/* ... on a CPU's state, on that CPU with bottom halves off, ... */
void lro_pcpu_take_hold(struct lro_pcpu *pc, const struct lro_config *cfg);
void lro_pcpu_release(struct lro_pcpu *pc, bool drop);
void lro_pcpu_free(struct lro_pcpu *pc);
/* ... and what the receive path allocates from. */
int lro_rx_path_init(void);
void lro_rx_path_exit(void);

#endif /* _LRO_RX_H */
