/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated from Documentation/netlink/specs/lro.yaml by
 * scripts/settings-gen.py: edit the spec, then run make generate.
 *
 * The counters of the spec's stats attribute set, in its order, for
 * lroadm: define LRO_STAT(NAME, name) first (NAME: LRO_A_STATS_<NAME>).
 */
LRO_STAT(AGGREGATED, aggregated)
LRO_STAT(FLUSHED, flushed)
LRO_STAT(NO_DESC, no_desc)
LRO_STAT(FLUSH_MAX_AGGR, flush_max_aggr)
LRO_STAT(FLUSH_SIZE, flush_size)
LRO_STAT(FLUSH_SEQ, flush_seq)
LRO_STAT(FLUSH_FLAGS, flush_flags)
LRO_STAT(FLUSH_PUSH, flush_push)
LRO_STAT(FLUSH_BATCH, flush_batch)
LRO_STAT(FLUSH_TIMER, flush_timer)
LRO_STAT(FLUSH_DETACH, flush_detach)
LRO_STAT(FLUSH_PKT, flush_pkt)
LRO_STAT(FLUSH_EVICT, flush_evict)
LRO_STAT(PKTS_IN, pkts_in)
LRO_STAT(BYTES_IN, bytes_in)
LRO_STAT(PKTS_OUT, pkts_out)
LRO_STAT(BYTES_OUT, bytes_out)
LRO_STAT(HELD_SEGS, held_segs)
LRO_STAT(FLUSH_MEM, flush_mem)
LRO_STAT(HELD_BYTES, held_bytes)
LRO_STAT(POLICY_PASS, policy_pass)
LRO_STAT(POLICY_CLAMPED, policy_clamped)
LRO_STAT(LONE_PASSED, lone_passed)
