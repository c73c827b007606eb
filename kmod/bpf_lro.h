/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF iterators over the live LRO descriptors (bpf.c). A BPF program gets
 * these types from lro.ko's BTF (bpftool btf dump ... format c), so they
 * are the kernel side of the interface; Documentation/bpf.md describes it.
 */
#ifndef _LRO_BPF_H
#define _LRO_BPF_H

#include <linux/types.h>

/**
 * struct lro_desc_snap - a copy of one active descriptor
 * @age_ns: time since its first segment was taken
 * @ifindex: device LRO is attached to
 * @cpu: CPU whose engine holds the descriptor
 * @saddr: IPv4 source address (network order), if @family is AF_INET
 * @saddr6: IPv6 source address (network order), if @family is AF_INET6
 * @daddr: IPv4 destination address (network order)
 * @daddr6: IPv6 destination address (network order)
 * @sport: TCP source port
 * @dport: TCP destination port
 * @vlan: VLAN ID of the flow, 0 for none
 * @mss: payload length of the first segment
 * @segs: segments held
 * @bytes: TCP payload bytes held
 * @next_seq: sequence number the next segment must carry
 * @ack: ACK number of the flow
 * @tsval: TSval of the flow, if @has_ts
 * @tsecr: TSecr of the flow, if @has_ts
 * @window: TCP window field of the flow, as sent (not scaled)
 * @has_ts: the flow carries the timestamp option
 * @family: AF_INET or AF_INET6
 * @by_policy: a BPF policy set @max_aggr and @hold_us (kmod/policy.h)
 * @max_aggr: segments the packet may take
 * @hold_us: how long it may be held (0: until the end of the batch)
 *
 * Everything but the addresses is in host order.
 */
struct lro_desc_snap {
	__u64 age_ns;
	__u32 ifindex;
	__s32 cpu;
	union {
		__be32 saddr;
		__be32 saddr6[4];
	};
	union {
		__be32 daddr;
		__be32 daddr6[4];
	};
	__u16 sport;
	__u16 dport;
	__u16 vlan;
	__u16 mss;
	__u32 segs;
	__u32 bytes;
	__u32 next_seq;
	__u32 ack;
	__u32 tsval;
	__u32 tsecr;
	__u16 window;
	__u8 has_ts;
	__u8 family;
	__u8 by_policy;
	__u32 max_aggr;
	__u32 hold_us;
};

/**
 * struct bpf_iter_lro_desc - state of an open-coded descriptor iterator
 * @__opaque: owned by bpf_iter_lro_desc_new/_next/_destroy()
 *
 * Lives on the BPF program's stack: its size is a multiple of 8, as the
 * verifier requires of iterator state.
 */
struct bpf_iter_lro_desc {
	__u64 __opaque[2];
} __aligned(8);

/* The kfuncs (bpf.c), declared for sparse; BPF programs see them in BTF. */
int bpf_iter_lro_desc_new(struct bpf_iter_lro_desc *it, int ifindex, int cpu);
struct lro_desc_snap *bpf_iter_lro_desc_next(struct bpf_iter_lro_desc *it);
void bpf_iter_lro_desc_destroy(struct bpf_iter_lro_desc *it);

int lro_bpf_init(void);

#endif /* _LRO_BPF_H */
