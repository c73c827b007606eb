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

/* bpf_seq_read() fills at most 32 KB per object: at ~130 bytes a row,
 * this many rows, then a count of the others. A variable, not a constant:
 * compared with a known bound, the row count would be tracked exactly by
 * the verifier and the loop would never converge.
 */
__u32 max_rows = 200;

static void ip4(char *buf, __u32 size, const __be32 *addr)
{
	const __u8 *a = (const __u8 *)addr;
	__u64 args[4] = { a[0], a[1], a[2], a[3] };

	bpf_snprintf(buf, size, "%u.%u.%u.%u", args, sizeof(args));
}

SEC("iter.s/task")
int lro_descs_iter(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;
	char sa[16], da[16];
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
		ip4(sa, sizeof(sa), &d->saddr);
		ip4(da, sizeof(da), &d->daddr);
		BPF_SEQ_PRINTF(seq, "%7u %3d %-15s %5u %-15s %5u %4u ",
			       d->ifindex, d->cpu, sa, d->sport, da, d->dport,
			       d->vlan);
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
