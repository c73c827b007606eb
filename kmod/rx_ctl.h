/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control side of the receive path (rx_ctl.c): device.c attaches,
 * configures and detaches a device's struct lro_rx through these, under
 * RTNL; each but the first two runs on every CPU.
 */
#ifndef _LRO_RX_CTL_H
#define _LRO_RX_CTL_H

#include "rx.h"

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

int lro_rx_alloc(struct lro_rx *rx, struct net_device *dev);
void lro_rx_free(struct lro_rx *rx);
int lro_rx_size_tables(u32 size, bool shrink);
void lro_rx_take_hold(struct lro_rx *rx);
void lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v);
void lro_rx_release(struct lro_rx *rx, bool drop);
int lro_rx_try_visit(struct lro_rx *rx, struct lro_pcpu_visit *v);

int lro_rx_init(void);
void lro_rx_exit(void);

#endif /* _LRO_RX_CTL_H */
