/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/lro.yaml */
/* YNL-GEN uapi header */

#ifndef _UAPI_LINUX_LRO_H
#define _UAPI_LINUX_LRO_H

#define LRO_FAMILY_NAME		"lro"
#define LRO_FAMILY_VERSION	1

/**
 * enum lro_feature - LRO features of a device, bits of the features attribute.
 * @LRO_FEATURE_NAPI: Send packets up with netif_receive_skb() at once, in the
 *   receive softirq; without it they go through netif_rx()'s backlog queue.
 * @LRO_FEATURE_EXTRACT_VLAN_ID: A frame whose protocol is 802.1Q had its tag
 *   taken out by the driver: LRO reads the IP version from the packet itself.
 *   Without it an in-band 802.1Q tag is skipped and its VLAN ID is part of the
 *   flow's key.
 * @LRO_FEATURE_EVICT: When every descriptor is busy, send up the oldest packet
 *   held and give its descriptor to the new flow (flush-evict), instead of
 *   passing the segment up untouched.
 * @LRO_FEATURE_ADAPTIVE: With flush-timeout-us 0 and no policy, LRO decides by
 *   itself what holding pays on each CPU: where the device's packets have all
 *   gone up alone (nothing merged) at 16 batch ends in a row, its frames pass
 *   untaken (lone-passed) until LRO looks again, 64 frames later, doubling up
 *   to 4096 while nothing merges. An explicit flush-timeout-us, or a policy,
 *   is used as set.
 */
enum lro_feature {
	LRO_FEATURE_NAPI = 1,
	LRO_FEATURE_EXTRACT_VLAN_ID = 2,
	LRO_FEATURE_EVICT = 4,
	LRO_FEATURE_ADAPTIVE = 8,
};

#define LRO_MAX_DESC_DEFAULT		256
#define LRO_MAX_AGGR_DEFAULT		64
#define LRO_FEATURES_DEFAULT		9
#define LRO_FLUSH_TIMEOUT_US_DEFAULT	0
#define LRO_MAX_HELD_BYTES_DEFAULT	8388608

enum {
	LRO_A_DEV_IFINDEX = 1,
	LRO_A_DEV_IFNAME,
	LRO_A_DEV_ENABLED,
	LRO_A_DEV_MAX_DESC,
	LRO_A_DEV_MAX_AGGR,
	LRO_A_DEV_FEATURES,
	LRO_A_DEV_FLUSH_TIMEOUT_US,
	LRO_A_DEV_STATS,
	LRO_A_DEV_MAX_HELD_BYTES,
	LRO_A_DEV_POLICY,

	__LRO_A_DEV_MAX,
	LRO_A_DEV_MAX = (__LRO_A_DEV_MAX - 1)
};

enum {
	LRO_A_STATS_AGGREGATED = 1,
	LRO_A_STATS_FLUSHED,
	LRO_A_STATS_NO_DESC,
	LRO_A_STATS_FLUSH_MAX_AGGR,
	LRO_A_STATS_FLUSH_SIZE,
	LRO_A_STATS_FLUSH_SEQ,
	LRO_A_STATS_FLUSH_FLAGS,
	LRO_A_STATS_FLUSH_PUSH,
	LRO_A_STATS_FLUSH_BATCH,
	LRO_A_STATS_FLUSH_TIMER,
	LRO_A_STATS_FLUSH_DETACH,
	LRO_A_STATS_FLUSH_PKT,
	LRO_A_STATS_FLUSH_EVICT,
	LRO_A_STATS_PKTS_IN,
	LRO_A_STATS_BYTES_IN,
	LRO_A_STATS_PKTS_OUT,
	LRO_A_STATS_BYTES_OUT,
	LRO_A_STATS_HELD_SEGS,
	LRO_A_STATS_FLUSH_MEM,
	LRO_A_STATS_HELD_BYTES,
	LRO_A_STATS_POLICY_PASS,
	LRO_A_STATS_POLICY_CLAMPED,
	LRO_A_STATS_LONE_PASSED,

	__LRO_A_STATS_MAX,
	LRO_A_STATS_MAX = (__LRO_A_STATS_MAX - 1)
};

enum {
	LRO_A_AUTO_KIND = 1,
	LRO_A_AUTO_IFNAME,
	LRO_A_AUTO_ALL_NETNS,
	LRO_A_AUTO_CONFIG,
	LRO_A_AUTO_ATTACHED,
	LRO_A_AUTO_FAILED,

	__LRO_A_AUTO_MAX,
	LRO_A_AUTO_MAX = (__LRO_A_AUTO_MAX - 1)
};

enum {
	LRO_A_POLICY_NAME = 1,
	LRO_A_POLICY_DEVICES,

	__LRO_A_POLICY_MAX,
	LRO_A_POLICY_MAX = (__LRO_A_POLICY_MAX - 1)
};

enum {
	LRO_CMD_DEV_GET = 1,
	LRO_CMD_DEV_SET,
	LRO_CMD_DEV_DEL,
	LRO_CMD_STATS_RESET,
	LRO_CMD_DEV_ADD_NTF,
	LRO_CMD_DEV_CHANGE_NTF,
	LRO_CMD_DEV_DEL_NTF,
	LRO_CMD_DEV_ADD,
	LRO_CMD_AUTO_GET,
	LRO_CMD_AUTO_ADD,
	LRO_CMD_AUTO_DEL,
	LRO_CMD_AUTO_ADD_NTF,
	LRO_CMD_AUTO_DEL_NTF,
	LRO_CMD_POLICY_GET,

	__LRO_CMD_MAX,
	LRO_CMD_MAX = (__LRO_CMD_MAX - 1)
};

#define LRO_MCGRP_MONITOR	"monitor"

#endif /* _UAPI_LINUX_LRO_H */
