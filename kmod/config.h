/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings of an attachment (config.c): their defaults, their limits,
 * and the table of them that settings-gen.h (the spec's list) makes.
 */
#ifndef _LRO_CONFIG_H
#define _LRO_CONFIG_H

#include <linux/inet_lro.h>
#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

struct lro_policy_ops;

/*
 * lro.ko's feature beside the engine's LRO_F_* bits: the receive path (rx.c)
 * decides by itself what holding pays. The engine ignores the bit.
 */
#define LRO_F_ADAPTIVE	8

/* The manager features a device's features setting takes (config.c) */
#define LRO_F_ALL	(LRO_F_NAPI | LRO_F_EXTRACT_VLAN_ID | LRO_F_EVICT | \
			 LRO_F_ADAPTIVE)

/* One device's settings: built whole, published whole (device.c). */
#define LRO_SETTING(NAME, name, ...) u32 name;
struct lro_config {
	/* max_desc, max_aggr, features (LRO_F_*), flush_timeout_us, ... */
#include "settings-gen.h"
	bool enabled;		/* false: attached but passing everything */
	const struct lro_policy_ops *policy;	/* BPF merge policy, or NULL */
	struct rcu_head rcu;	/* freeing a copy device.c published */
};

#undef LRO_SETTING

#define LRO_SETTING(NAME, ...) LRO_SETTING_##NAME,
enum lro_setting {
#include "settings-gen.h"
	LRO_SETTING_NR,
};

#undef LRO_SETTING

/* What config.c knows of each setting, indexed by enum lro_setting. */
struct lro_setting_info {
	const char *name;
	unsigned int offset;	/* of the u32 member of struct lro_config */
	u16 attr;		/* LRO_A_DEV_* */
	u32 min, max;
};

extern const struct lro_setting_info lro_setting_info[LRO_SETTING_NR];

/* config.c: the defaults (module parameters) and the limits */
static inline u32 *lro_config_field(struct lro_config *cfg,
				    enum lro_setting i)
{
	return (u32 *)((u8 *)cfg + lro_setting_info[i].offset);
}

static inline u32 lro_config_get(const struct lro_config *cfg,
				 enum lro_setting i)
{
	return *(const u32 *)((const u8 *)cfg + lro_setting_info[i].offset);
}

/*
 * Some settings, without the rest (an auto rule's): applied later over a
 * whole configuration (lro_config_apply()), each where @given has its
 * bit, BIT(enum lro_setting) or LRO_GIVEN_ENABLED.
 */
#define LRO_GIVEN_ENABLED	BIT(LRO_SETTING_NR)

struct lro_config_part {
	struct lro_config cfg;
	u32 given;
};

void lro_config_apply(struct lro_config *cfg, const struct lro_config_part *p);

int lro_config_check(const struct lro_config *cfg,
		     struct netlink_ext_ack *extack);
void lro_default_config(struct lro_config *cfg);

#endif /* _LRO_CONFIG_H */
