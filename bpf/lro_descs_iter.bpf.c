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

/* Addresses as inet_ntop() writes them, into a buffer that "%-15s" pads.
 * bpf_seq_printf() formats "%pI4" and "%pI6" itself, before vsprintf sees
 * the width or the "c" of "%pI6c": it would print IPv6 uncompressed and
 * neither family padded.
 */
struct addr_text {
	char s[64];
};

struct addr6 {
	__u8 b[16];
};

static void ip4(struct addr_text *t, const __be32 *addr)
{
	const __u8 *a = (const __u8 *)addr;
	__u64 args[4] = { a[0], a[1], a[2], a[3] };

	bpf_snprintf(t->s, sizeof(t->s), "%u.%u.%u.%u", args, sizeof(args));
}

/* The groups of @addr that "::" stands for, as bits (group 0 the lowest):
 * the longest run of two or more zero groups, the first of equal ones; 0
 * if there is none.
 */
__noinline int zero_run(const struct addr6 *addr)
{
	int i, run = 0, len = 0, cur = 0, curlen = 0;

	if (!addr)
		return 0;
	for (i = 0; i < 8; i++) {
		if (addr->b[2 * i] || addr->b[2 * i + 1]) {
			curlen = 0;
			continue;
		}
		if (!curlen)
			cur = i;
		if (++curlen > len) {
			run = cur;
			len = curlen;
		}
	}
	return len < 2 ? 0 : ((1 << len) - 1) << run;
}

/* Group @v in lowercase hex without leading zeros at @n of @t's text:
 * returns where the text goes on.
 */
__noinline __u32 hex16(struct addr_text *t, __u32 n, __u32 v)
{
	bool digits = false;
	int s;

	if (!t)
		return n;
	for (s = 12; s >= 0; s -= 4) {
		__u8 d = v >> s & 0xf;

		if (!d && !digits && s)
			continue;
		digits = true;
		t->s[n++ & 63] = "0123456789abcdef"[d];
	}
	return n;
}

/* RFC 5952: lowercase hex without leading zeros, the longest run of two or
 * more zero groups (the first of equal ones) as "::". Its steps are global
 * functions, each verified once on its own, and the run a mask that no
 * branch here narrows: with the run's bounds and the text's length known
 * exactly on every path, the paths did not merge, and the verifier walked
 * 443,106 instructions for this program (43 s in a guest) instead of 4,257.
 */
__noinline int ip6_text(struct addr_text *t, const struct addr6 *addr)
{
	__u32 n = 0, run;
	int i;

	if (!t || !addr)
		return 0;
	run = zero_run(addr);
	for (i = 0; i < 8; i++) {
		if (run >> i & 1) {
			/* the run's first group */
			if (!i || !(run >> (i - 1) & 1))
				t->s[n++ & 63] = ':';
			continue;
		}
		if (i)
			t->s[n++ & 63] = ':';
		n = hex16(t, n, addr->b[2 * i] << 8 | addr->b[2 * i + 1]);
	}
	if (run >> 7 & 1)	/* it ends the address */
		t->s[n++ & 63] = ':';
	t->s[n & 63] = '\0';
	return n;
}

static void ip6(struct addr_text *t, const __be32 *addr)
{
	struct addr6 a;

	__builtin_memcpy(&a, addr, sizeof(a));
	ip6_text(t, &a);
}

SEC("iter.s/task")
int lro_descs_iter(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;
	struct addr_text sa, da;
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
		/* An IPv6 address may widen its columns. */
		if (d->family == AF_INET6) {
			ip6(&sa, d->saddr6);
			ip6(&da, d->daddr6);
		} else {
			ip4(&sa, &d->saddr);
			ip4(&da, &d->daddr);
		}
		BPF_SEQ_PRINTF(seq, "%7u %3d %-15s %5u %-15s %5u %4u ",
			       d->ifindex, d->cpu, sa.s, d->sport, da.s, d->dport,
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
