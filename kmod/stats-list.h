/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of LRO on a device: the one list that enum lro_stat, the
 * per-CPU sums (device.c) and the netlink stats nest derive from. The
 * spec's stats set, in its order (make generate checks it; lroadm takes
 * the names from the spec): append there first.
 *
 * No include guard: define LRO_STAT(NAME, name, member, gauge) first.
 *   NAME    the uapi's LRO_A_STATS_<NAME> and enum lro_stat's LRO_STAT_<NAME>
 *   name    lroadm's (and its JSON member's) name
 *   member  what is summed over the CPUs, in struct lro_pcpu (device.h):
 *           the engine's struct net_lro_stats, or lro.ko's own
 *   gauge   a level (what is held now), not a count: a reset leaves it
 */
LRO_STAT(AGGREGATED,	 aggregated,	 mgr.stats.aggregated,			false)
LRO_STAT(FLUSHED,	 flushed,	 mgr.stats.flushed,			false)
LRO_STAT(NO_DESC,	 no_desc,	 mgr.stats.no_desc,			false)
LRO_STAT(FLUSH_MAX_AGGR, flush_max_aggr, mgr.stats.flush[LRO_FLUSH_MAX_AGGR],	false)
LRO_STAT(FLUSH_SIZE,	 flush_size,	 mgr.stats.flush[LRO_FLUSH_SIZE],	false)
LRO_STAT(FLUSH_SEQ,	 flush_seq,	 mgr.stats.flush[LRO_FLUSH_SEQ],	false)
LRO_STAT(FLUSH_FLAGS,	 flush_flags,	 mgr.stats.flush[LRO_FLUSH_FLAGS],	false)
LRO_STAT(FLUSH_PUSH,	 flush_push,	 mgr.stats.flush[LRO_FLUSH_PUSH],	false)
LRO_STAT(FLUSH_BATCH,	 flush_batch,	 mgr.stats.flush[LRO_FLUSH_BATCH],	false)
LRO_STAT(FLUSH_TIMER,	 flush_timer,	 mgr.stats.flush[LRO_FLUSH_TIMER],	false)
LRO_STAT(FLUSH_DETACH,	 flush_detach,	 mgr.stats.flush[LRO_FLUSH_DETACH],	false)
LRO_STAT(FLUSH_PKT,	 flush_pkt,	 mgr.stats.flush[LRO_FLUSH_PKT],	false)
LRO_STAT(FLUSH_EVICT,	 flush_evict,	 mgr.stats.flush[LRO_FLUSH_EVICT],	false)
LRO_STAT(PKTS_IN,	 pkts_in,	 mgr.stats.pkts_in,			false)
LRO_STAT(BYTES_IN,	 bytes_in,	 mgr.stats.bytes_in,			false)
LRO_STAT(PKTS_OUT,	 pkts_out,	 mgr.stats.pkts_out,			false)
LRO_STAT(BYTES_OUT,	 bytes_out,	 mgr.stats.bytes_out,			false)
LRO_STAT(HELD_SEGS,	 held_segs,	 mgr.stats.held,			true)
LRO_STAT(FLUSH_MEM,	 flush_mem,	 mgr.stats.flush[LRO_FLUSH_MEM],	false)
LRO_STAT(HELD_BYTES,	 held_bytes,	 mgr.stats.held_bytes,			true)
LRO_STAT(POLICY_PASS,	 policy_pass,	 policy.pass,				false)
LRO_STAT(POLICY_CLAMPED, policy_clamped, policy.clamped,			false)
LRO_STAT(LONE_PASSED,	 lone_passed,	 lone.passed,				false)
