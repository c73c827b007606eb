/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "lro" (netlink.c; its policies and operation
 * table are generated from the spec into netlink-gen.c; the auto-rule
 * operations are in netlink_auto.c).
 */
#ifndef _LRO_NETLINK_H
#define _LRO_NETLINK_H

#include <net/netlink.h>

#include "config.h"

struct lro_dev;
struct net;

enum lro_notify { LRO_NOTIFY_NEW, LRO_NOTIFY_CHANGE, LRO_NOTIFY_DEL };
void lro_nl_notify(struct lro_dev *ld, enum lro_notify what);
int lro_nl_init(void);
void lro_nl_exit(void);

/* For netlink_auto.c: a rule's settings are a config part, as dev-set's. */
bool lro_nl_listened(struct net *net);
void lro_nl_parse_part(struct nlattr **tb, struct lro_config_part *p);
size_t lro_nl_part_size(void);
int lro_nl_put_part(struct sk_buff *skb, int type,
		    const struct lro_config_part *p);

#endif /* _LRO_NETLINK_H */
