// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot the active LRO descriptors into the "descs" map: one row per
 * descriptor, keys 0 .. result.nr - 1, oldest first within each CPU.
 * A syscall program, run by bpf_prog_test_run_opts() (lroadm descs) or
 * "bpftool prog run ... repeat 0"; it sees the caller's network namespace.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "lro_descs.h"
#include "lro_kfuncs.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct lro_descs_args args = { .ifindex = 0, .cpu = -1 };
struct lro_descs_result result;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LRO_DESCS_ROWS);
	__type(key, __u32);
	__type(value, struct lro_descs_row);
} descs SEC(".maps");

static void fill(struct lro_descs_row *r, const struct lro_desc_snap *d)
{
	r->age_ns = d->age_ns;
	r->ifindex = d->ifindex;
	r->cpu = d->cpu;
	r->family = d->family;
	if (d->family == AF_INET6) {
		__builtin_memcpy(r->saddr, d->saddr6, 16);
		__builtin_memcpy(r->daddr, d->daddr6, 16);
	} else {
		__builtin_memcpy(r->saddr, &d->saddr, 4);
		__builtin_memcpy(r->daddr, &d->daddr, 4);
	}
	r->sport = d->sport;
	r->dport = d->dport;
	r->vlan = d->vlan;
	r->mss = d->mss;
	r->segs = d->segs;
	r->bytes = d->bytes;
	r->next_seq = d->next_seq;
	r->ack = d->ack;
	r->tsval = d->tsval;
	r->tsecr = d->tsecr;
	r->window = d->window;
	r->has_ts = d->has_ts;
	r->by_policy = d->by_policy;
	r->max_aggr = d->max_aggr;
	r->hold_us = d->hold_us;
}

SEC("syscall")
int lro_descs(void *ctx)
{
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;
	__u32 n = 0, total = 0;
	int i, err;

	/* Forget the previous run's rows. */
	bpf_for(i, 0, result.nr) {
		__u32 key = i;

		bpf_map_delete_elem(&descs, &key);
	}
	err = bpf_iter_lro_desc_new(&it, args.ifindex, args.cpu);
	while ((d = bpf_iter_lro_desc_next(&it))) {
		struct lro_descs_row row = {};

		total++;
		fill(&row, d);
		if (!bpf_map_update_elem(&descs, &n, &row, BPF_NOEXIST))
			n++;
	}
	bpf_iter_lro_desc_destroy(&it);
	result.err = err;
	result.nr = n;
	result.total = total;
	result.runs++;
	return err ? err : total;
}
