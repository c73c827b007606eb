/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The receive path of LRO on any device (rx.c): the rx_handler, each
 * device's state on each CPU, and the per-CPU flush contexts. What rx.c
 * knows of a device is its struct lro_rx; device.c attaches, configures
 * and detaches through the functions below.
 */
#ifndef _LRO_RX_H
#define _LRO_RX_H

#include <linux/inet_lro.h>
#include <linux/netdevice.h>

#include "config.h"
#include "policy.h"

struct lro_rx;

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
};

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

/**
 * struct lro_pcpu_visit - work on each CPU's state of a device
 * @fn: called on that CPU with bottom halves disabled (for an offline
 *	CPU, anywhere: nothing runs there), with its number, where the
 *	device has state; embed the struct in what @fn needs and find it
 *	with container_of()
 */
struct lro_pcpu_visit {
	void (*fn)(struct lro_pcpu_visit *v, struct lro_pcpu *pc, int cpu);
};

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb);

/* Under RTNL, each but the first two on every CPU (see rx.c). */
int lro_rx_alloc(struct lro_rx *rx, struct net_device *dev);
void lro_rx_free(struct lro_rx *rx);
int lro_rx_size_tables(u32 size, bool shrink);
void lro_rx_take_hold(struct lro_rx *rx);
void lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v);
void lro_rx_release(struct lro_rx *rx, bool drop);
int lro_rx_try_visit(struct lro_rx *rx, struct lro_pcpu_visit *v);

int lro_rx_init(void);
void lro_rx_exit(void);

#endif /* _LRO_RX_H */
