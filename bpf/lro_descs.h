/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by bpf/lro_descs.bpf.c and its users (lroadm descs, bpftool):
 * what the program is given and the rows it writes, one per active LRO
 * descriptor. The program fills these from the kernel's struct
 * lro_desc_snap (kmod/bpf_lro.h, through lro.ko's BTF); this layout is the
 * one userspace and a pinned map's BTF show, independent of the module's.
 */
#ifndef _LRO_DESCS_H
#define _LRO_DESCS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Rows the map holds unless the loader sets bpf_map__set_max_entries(). */
#define LRO_DESCS_ROWS	4096

/* Arguments, in the program's .data (lro_descs.data when pinned). */
struct lro_descs_args {
	__u32 ifindex;		/* 0: every device LRO is attached to */
	__s32 cpu;		/* -1: all CPUs */
};

/* Outcome of the last run, in .bss. */
struct lro_descs_result {
	__s32 err;		/* of bpf_iter_lro_desc_new(): 0 or -errno */
	__u32 nr;		/* rows written: keys 0 .. nr - 1 of the map */
	__u32 total;		/* descriptors seen; > nr: the map was full */
	__u32 runs;		/* completed runs */
};

/* Value of the "descs" map, key: row number (__u32). */
struct lro_descs_row {
	__u64 age_ns;		/* since the first held segment */
	__u32 ifindex;
	__u32 cpu;
	__u8 saddr[16];		/* network order: IPv4 in the first 4 bytes */
	__u8 daddr[16];
	__u16 sport;
	__u16 dport;
	__u16 vlan;		/* 0: none */
	__u16 mss;
	__u32 segs;		/* segments held */
	__u32 bytes;		/* TCP payload bytes held */
	__u32 next_seq;		/* sequence number of the next segment */
	__u32 ack;
	__u32 tsval;		/* timestamp option, when has_ts */
	__u32 tsecr;
	__u16 window;		/* TCP window field, unscaled */
	__u8 has_ts;
	__u8 family;		/* AF_INET (2) or AF_INET6 (10) */
	__u8 by_policy;		/* a BPF policy set max_aggr and hold_us */
	__u32 max_aggr;		/* segments the packet may take */
	__u32 hold_us;		/* how long it may be held; 0: the batch */
};

#endif /* _LRO_DESCS_H */
