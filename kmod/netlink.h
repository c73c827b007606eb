/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "lro" (netlink.c; its policies and operation
 * table are generated from the spec into netlink-gen.c).
 */
#ifndef _LRO_NETLINK_H
#define _LRO_NETLINK_H

#include <net/netlink.h>

#include "config.h"

struct lro_auto_rule;
struct lro_dev;
struct net;

enum lro_notify { LRO_NOTIFY_NEW, LRO_NOTIFY_CHANGE, LRO_NOTIFY_DEL };
void lro_nl_notify(struct lro_dev *ld, enum lro_notify what);
void lro_nl_auto_notify(struct net *net, const struct lro_auto_rule *r,
			bool add);
int lro_nl_init(void);
void lro_nl_exit(void);

#endif /* _LRO_NETLINK_H */
