// SPDX-License-Identifier: GPL-2.0
/*
 * The descriptor table as text, for cat. bpf_iter_reg_target() is not
 * exported to modules, so lro.ko cannot have a seq_file iterator target of
 * its own; this program rides on the kernel's "task" target instead,
 * ignores the tasks, and on the first one prints every descriptor of every
 * device LRO is attached to in the reader's network namespace:
 *
 *	bpftool iter pin build/bpf/lro_descs_iter.bpf.o /sys/fs/bpf/lro_descs
 *	cat /sys/fs/bpf/lro_descs
 *
 * It must be sleepable (iter.s): bpf_iter_lro_desc_new() takes RTNL.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "lro_kfuncs.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* bpf_seq_read() fills at most 32 KB per object: at ~130 bytes an IPv4
 * row and at most ~185 an IPv6 one (two 39-character addresses), this
 * many rows, then a count of the others. A variable, not a constant:
 * compared with a known bound, the row count would be tracked exactly by
 * the verifier and the loop would never converge.
 */
__u32 max_rows = 160;

SEC("iter.s/task")
int lro_descs_iter(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;
	__u32 n = 0;
	int err;

	if (ctx->meta->seq_num || !ctx->task)
		return 0;
	BPF_SEQ_PRINTF(seq, "%7s %3s %-15s %5s %-15s %5s %4s ",
		       "ifindex", "cpu", "saddr", "sport", "daddr", "dport",
		       "vlan");
	BPF_SEQ_PRINTF(seq, "%4s %6s %10s %10s %5s %10s %10s %10s\n",
		       "segs", "bytes", "next_seq", "ack", "win", "tsval",
		       "tsecr", "age_us");
	err = bpf_iter_lro_desc_new(&it, 0, -1);
	while ((d = bpf_iter_lro_desc_next(&it))) {
		if (n++ >= max_rows)
			continue;
		/* The kernel's own notation (vsprintf): dotted quad, or
		 * RFC 5952 compressed IPv6, which may widen its columns.
		 */
		if (d->family == AF_INET6)
			BPF_SEQ_PRINTF(seq, "%7u %3d %-15pI6c %5u %-15pI6c %5u %4u ",
				       d->ifindex, d->cpu, d->saddr6, d->sport,
				       d->daddr6, d->dport, d->vlan);
		else
			BPF_SEQ_PRINTF(seq, "%7u %3d %-15pI4 %5u %-15pI4 %5u %4u ",
				       d->ifindex, d->cpu, &d->saddr, d->sport,
				       &d->daddr, d->dport, d->vlan);
		BPF_SEQ_PRINTF(seq, "%4u %6u %10u %10u %5u ",
			       d->segs, d->bytes, d->next_seq, d->ack,
			       d->window);
		if (d->has_ts)
			BPF_SEQ_PRINTF(seq, "%10u %10u", d->tsval, d->tsecr);
		else
			BPF_SEQ_PRINTF(seq, "%10s %10s", "-", "-");
		BPF_SEQ_PRINTF(seq, " %10llu\n", d->age_ns / 1000);
	}
	bpf_iter_lro_desc_destroy(&it);
	if (n > max_rows)
		BPF_SEQ_PRINTF(seq, "... and %u more (lroadm descs shows all)\n",
			       n - max_rows);
	if (err)
		BPF_SEQ_PRINTF(seq, "error %d\n", err);
	return 0;
}
