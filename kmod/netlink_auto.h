/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The auto-rule operations of the "lro" family (netlink_auto.c): what
 * auto.c calls when a rule comes or goes.
 */
#ifndef _LRO_NETLINK_AUTO_H
#define _LRO_NETLINK_AUTO_H

#include <linux/types.h>

struct lro_auto_rule;
struct net;

void lro_nl_auto_notify(struct net *net, const struct lro_auto_rule *r,
			bool add);

#endif /* _LRO_NETLINK_AUTO_H */
