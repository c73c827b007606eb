// SPDX-License-Identifier: GPL-2.0
/*
 * truesize: what TCP is handed, in memory per byte. Sums skb->truesize and
 * skb->len of every packet tcp_v4_rcv() receives with data (longer than a
 * bare ACK), whatever built it: one segment, a GRO packet or an LRO
 * aggregate. bench/guest.sh loads it with 'bpftool prog load ... autoattach'
 * around one stream per setting and reads the sums with 'bpftool map dump'.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* TCP header (up to 60 bytes) and a few bytes of payload: not a bare ACK */
#define TS_MIN_LEN	128

struct ts_sum {
	__u64 pkts;
	__u64 bytes;
	__u64 truesize;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ts_sum);
} ts_sum SEC(".maps");

SEC("fentry/tcp_v4_rcv")
int BPF_PROG(ts_tcp_v4_rcv, struct sk_buff *skb)
{
	__u32 key = 0;
	struct ts_sum *s = bpf_map_lookup_elem(&ts_sum, &key);

	if (!s || skb->len < TS_MIN_LEN)
		return 0;
	__sync_fetch_and_add(&s->pkts, 1);
	__sync_fetch_and_add(&s->bytes, skb->len);
	__sync_fetch_and_add(&s->truesize, skb->truesize);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
