/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numeric settings of LRO on a device: the one list that struct
 * lro_config's checks and its defaults (config.c, module parameters
 * default_<name>), the netlink dev attributes (netlink.c), the sysfs
 * files (sysfs.c) and lroadm's names derive from. (enabled, a flag, is
 * apart.) The limits must be the spec's checks: the kernel's policy is
 * generated from those, and control.sh tries both edges of each.
 *
 * No include guard: define LRO_SETTING(NAME, name, min, max, def, desc)
 * first.
 *   NAME      the uapi's LRO_A_DEV_<NAME>, enum lro_setting's
 *             LRO_SETTING_<NAME>
 *   name      the member of struct lro_config (a u32), the sysfs file,
 *             lroadm's (and its JSON member's) name
 *   min, max  the limits, as numbers: lroadm's usage prints them
 *             (features: LRO_F_ALL, checked in config.c)
 *   def       the module parameter's default
 *   desc      what the module parameter says of it
 */
LRO_SETTING(MAX_DESC,	      max_desc,		1,	65536,		256,
	    "flows per CPU")
LRO_SETTING(MAX_AGGR,	      max_aggr,		1,	64,		64,
	    "segments per packet")
/* The bits of enum lro_feature: 1 napi, 2 extract_vlan_id, 4 evict. */
LRO_SETTING(FEATURES,	      features,		0,	7,		1,
	    "1 napi, 2 extract_vlan_id, 4 evict")
LRO_SETTING(FLUSH_TIMEOUT_US, flush_timeout_us,	0,	1000000,	0,
	    "hold timer in us; 0: flush at the end of each receive batch")
/* 64 KiB..1 GiB, 8 MiB by default: what GRO holds at most per NAPI
 * instance is of this order, 8 hash buckets of 8 packets
 * (GRO_HASH_BUCKETS, MAX_GRO_SKBS) of up to 64 KB.
 */
LRO_SETTING(MAX_HELD_BYTES,   max_held_bytes,	65536,	1073741824,	8388608,
	    "truesize held per CPU")
