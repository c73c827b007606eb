/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Auto rules (auto.c): attach LRO to the devices that appear. netlink.c
 * parses the requests and builds the messages; these are the rules'.
 */
#ifndef _LRO_AUTO_H
#define _LRO_AUTO_H

#include <linux/list.h>
#include <linux/types.h>
#include <net/netlink.h>

#include "config.h"

struct mem_cgroup;
struct net;

/* Per list: a namespace's own rules, and the all-netns rules. */
#define LRO_AUTO_MAX_RULES	64

/* What a rule matches (kind, ifname pattern), and where: its key. */
struct lro_auto_key {
	char kind[16];			/* "": any */
	char ifname[32];		/* "": any */
	bool all_netns;
};

struct lro_auto_rule {
	struct list_head node;		/* in its list (auto.c) */
	struct lro_auto_key key;
	struct lro_config_part config;	/* over the defaults of each attach */
	struct mem_cgroup *memcg;	/* of the task that added it */
	u64 attached, failed;
};

struct lro_auto_rule *lro_auto_rule_new(const struct lro_auto_key *key,
					const struct lro_config_part *config);
void lro_auto_rule_free(struct lro_auto_rule *r);
/* Under RTNL */
int lro_auto_add(struct net *net, struct lro_auto_rule *r,
		 struct netlink_ext_ack *extack);
int lro_auto_del(struct net *net, const struct lro_auto_key *key,
		 struct netlink_ext_ack *extack);
const struct lro_auto_rule *lro_auto_nth(struct net *net, unsigned int n);

int lro_auto_init(void);
void lro_auto_exit(void);

#endif /* _LRO_AUTO_H */
