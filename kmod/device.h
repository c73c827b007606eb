/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-device state of the rx_handler data path, shared by device.c
 * (attach, configure, detach, stats) and rx.c (the receive fast path and
 * the per-CPU flush contexts).
 */
#ifndef _LRO_DEVICE_H
#define _LRO_DEVICE_H

#include <linux/netdevice.h>

#include "lro.h"
#include "policy.h"

/*
 * One device's LRO state on one CPU: the engine's manager, and what lro.ko
 * adds to it (its struct lro_engine_ops, rx.c): the hold and the policy.
 */
struct lro_pcpu {
	struct net_lro_mgr mgr;
	struct lro_dev *ld;
	struct list_head pending;	/* on lro_cpu.pending while holding */
	bool queued;
	u32 hold_us;			/* the device's flush_timeout_us */
	struct lro_policy_state policy;
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
	bool by_rule;			/* attached by an auto rule (auto.c) */
};

rx_handler_result_t lro_handle_frame(struct sk_buff **pskb);
void lro_reinject(struct net_lro_mgr *mgr, struct sk_buff *skb);
void lro_pcpu_init(struct lro_pcpu *pc, struct lro_dev *ld);
void lro_on_each_cpu(struct lro_dev *ld,
		     void (*fn)(struct lro_pcpu *pc, void *arg), void *arg);
int lro_try_on_each_cpu(struct lro_dev *ld,
			void (*fn)(struct lro_pcpu *pc, void *arg), void *arg);
void lro_cpu_release(struct lro_pcpu *pc, void *drop);
void lro_cpu_swap_arr(struct lro_pcpu *pc, void *unused);
void lro_cpu_set_hold(struct lro_pcpu *pc, void *unused);
int lro_rx_init(void);
void lro_rx_exit(void);

#endif /* _LRO_DEVICE_H */
