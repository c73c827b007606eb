/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of LRO on a device: the one list that enum lro_stat, the
 * per-CPU sums (device.c), sysfs's stats/ files, the netlink stats nest
 * and lroadm's names derive from. Append only: the uapi's
 * LRO_A_STATS_<NAME> must exist for each, and keeps its number.
 *
 * No include guard: define LRO_STAT(NAME, name, member, gauge) first.
 *   NAME    the uapi's LRO_A_STATS_<NAME> and enum lro_stat's LRO_STAT_<NAME>
 *   name    the sysfs file, and lroadm's (and its JSON member's) name
 *   member  what is summed over the CPUs, in struct net_lro_stats
 *   gauge   a level (what is held now), not a count: a reset leaves it
 */
LRO_STAT(AGGREGATED,	 aggregated,	 aggregated,			false)
LRO_STAT(FLUSHED,	 flushed,	 flushed,			false)
LRO_STAT(NO_DESC,	 no_desc,	 no_desc,			false)
LRO_STAT(FLUSH_MAX_AGGR, flush_max_aggr, flush[LRO_FLUSH_MAX_AGGR],	false)
LRO_STAT(FLUSH_SIZE,	 flush_size,	 flush[LRO_FLUSH_SIZE],		false)
LRO_STAT(FLUSH_SEQ,	 flush_seq,	 flush[LRO_FLUSH_SEQ],		false)
LRO_STAT(FLUSH_FLAGS,	 flush_flags,	 flush[LRO_FLUSH_FLAGS],	false)
LRO_STAT(FLUSH_PUSH,	 flush_push,	 flush[LRO_FLUSH_PUSH],		false)
LRO_STAT(FLUSH_BATCH,	 flush_batch,	 flush[LRO_FLUSH_BATCH],	false)
LRO_STAT(FLUSH_TIMER,	 flush_timer,	 flush[LRO_FLUSH_TIMER],	false)
LRO_STAT(FLUSH_DETACH,	 flush_detach,	 flush[LRO_FLUSH_DETACH],	false)
LRO_STAT(FLUSH_PKT,	 flush_pkt,	 flush[LRO_FLUSH_PKT],		false)
LRO_STAT(FLUSH_EVICT,	 flush_evict,	 flush[LRO_FLUSH_EVICT],	false)
LRO_STAT(PKTS_IN,	 pkts_in,	 pkts_in,			false)
LRO_STAT(BYTES_IN,	 bytes_in,	 bytes_in,			false)
LRO_STAT(PKTS_OUT,	 pkts_out,	 pkts_out,			false)
LRO_STAT(BYTES_OUT,	 bytes_out,	 bytes_out,			false)
LRO_STAT(HELD_SEGS,	 held_segs,	 held,				true)
LRO_STAT(FLUSH_MEM,	 flush_mem,	 flush[LRO_FLUSH_MEM],		false)
LRO_STAT(HELD_BYTES,	 held_bytes,	 held_bytes,			true)
LRO_STAT(POLICY_PASS,	 policy_pass,	 policy_pass,			false)
LRO_STAT(POLICY_CLAMPED, policy_clamped, policy_clamped,		false)
