// SPDX-License-Identifier: GPL-2.0
/*
 * BPF open-coded iterators over the live LRO descriptors of a device:
 *
 *	struct bpf_iter_lro_desc it;
 *	struct lro_desc_snap *d;
 *
 *	err = bpf_iter_lro_desc_new(&it, ifindex, cpu);
 *	while ((d = bpf_iter_lro_desc_next(&it)))
 *		...;
 *	bpf_iter_lro_desc_destroy(&it);
 *
 * The program never sees a live descriptor. bpf_iter_lro_desc_new() takes
 * RTNL if it is free (so the device can neither be detached, reconfigured nor deleted),
 * then copies each CPU's active descriptors on that CPU with bottom halves
 * disabled (lro_rx_try_visit()), where the engine cannot run, into an array
 * the iterator owns; RTNL is dropped before it returns. _next() walks the
 * copy, _destroy() frees it. So each CPU's part is an atomic snapshot of
 * that CPU's engine; different CPUs are copied one after the other.
 *
 * Both run pinned to their CPU, and a CPU going offline waits for pinned
 * tasks to leave while it holds the hotplug lock: _new() never waits for
 * that lock nor for RTNL (whose holder may wait for it), it fails with
 * -EAGAIN instead, and lroadm tries again.
 *
 * _new() sleeps (work_on_cpu()): the kfuncs are KF_SLEEPABLE and
 * offered to SEC("syscall") programs, run by bpf_prog_test_run_opts() in
 * the caller's process context, and to sleepable iterator programs on the
 * "task" target (SEC("iter.s/task")), run by read() of their seq_file.
 * Other tracing programs may run where RTNL is already held or sleeping is
 * not allowed, so the verifier does not let them see these kfuncs.
 */

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/netdevice.h>
#include <linux/nsproxy.h>
#include <linux/rtnetlink.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include "bpf_lro.h"
#include "device.h"

/* What struct bpf_iter_lro_desc holds. */
struct bpf_iter_lro_desc_kern {
	struct lro_desc_snap *snap;
	u32 nr;
	u32 pos;
} __aligned(8);

/* A snapshot being taken. */
struct lro_snap {
	struct lro_desc_snap *buf;
	u32 size;		/* entries allocated */
	u32 nr;			/* entries filled */
	int cpu;		/* the one CPU to copy, or -1 for all */
};

/* One device's copy pass: room for @cap entries at @buf. */
struct lro_snap_pass {
	struct lro_pcpu_visit v;
	int ifindex;
	struct lro_desc_snap *buf;
	u32 cap;
	u32 nr;
	u32 need;		/* descriptors of CPUs that did not fit */
	int cpu;
};

static void lro_snap_fill(struct lro_desc_snap *s, const struct net_lro_desc *d,
			  int ifindex, int cpu, u64 now)
{
	const struct tcphdr *th = d->tcph;
	unsigned int hdrs = (u8 *)th - (u8 *)d->iph + th->doff * 4;

	memset(s, 0, sizeof(*s));
	s->age_ns = now - d->start_ns;
	s->ifindex = ifindex;
	s->cpu = cpu;
	if (d->ipv6) {
		s->family = AF_INET6;
		memcpy(s->saddr6, &d->ip6h->saddr, sizeof(s->saddr6));
		memcpy(s->daddr6, &d->ip6h->daddr, sizeof(s->daddr6));
	} else {
		s->family = AF_INET;
		s->saddr = d->iph->saddr;
		s->daddr = d->iph->daddr;
	}
	s->sport = ntohs(th->source);
	s->dport = ntohs(th->dest);
	s->vlan = d->vlan_tag;
	s->mss = d->mss;
	s->segs = d->pkt_aggr_cnt;
	s->bytes = d->ip_tot_len - hdrs;
	s->next_seq = d->tcp_next_seq;
	s->ack = d->tcp_ack;
	if (d->tcp_saw_tstamp) {
		s->has_ts = 1;
		s->tsval = ntohl(d->tcp_rcv_tsval);
		s->tsecr = ntohl(d->tcp_rcv_tsecr);
	}
	s->window = ntohs(d->tcp_window);
	s->max_aggr = d->max_aggr;
	s->hold_us = d->hold_us;
}

/*
 * Copy one CPU's active descriptors. Runs on that CPU with bottom halves
 * disabled (or for an offline CPU, where nothing runs), so the engine does
 * not change them meanwhile, and the held packets, whose headers are read
 * here, stay. All of a CPU's descriptors or none: when they do not fit,
 * count them in @need and let the caller retry with more room.
 */
static void lro_snap_cpu(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			 int cpu)
{
	struct lro_snap_pass *p = container_of(v, struct lro_snap_pass, v);
	const struct net_lro_desc *d;
	u64 now;

	if (p->cpu >= 0 && cpu != p->cpu)
		return;
	if (!pc->mgr.active.next || !pc->mgr.nr_active)
		return;
	if (pc->mgr.nr_active > p->cap - p->nr) {
		p->need += pc->mgr.nr_active;
		return;
	}
	now = ktime_get_ns();
	list_for_each_entry(d, &pc->mgr.active, node) {
		if (p->nr == p->cap)	/* cannot happen: nr_active counts them */
			break;
		struct lro_desc_snap *s = &p->buf[p->nr++];

		lro_snap_fill(s, d, p->ifindex, cpu, now);
		/* Held packets are the policy's: taking one flushes them. */
		s->by_policy = !!pc->policy.ops;
	}
}

/* Make room for @more entries after the @s->nr filled ones. */
static int lro_snap_grow(struct lro_snap *s, u32 more)
{
	struct lro_desc_snap *buf;
	u32 size;

	if (s->size - s->nr >= more)
		return 0;
	size = max(s->nr + more, s->size + s->size / 2);
	buf = kvmalloc_array(size, sizeof(*buf), GFP_KERNEL_ACCOUNT);
	if (!buf)
		return -ENOMEM;
	if (s->nr)
		memcpy(buf, s->buf, s->nr * sizeof(*buf));
	kvfree(s->buf);
	s->buf = buf;
	s->size = size;
	return 0;
}

/* Append @ld's descriptors (of one CPU, or all) to @s. Context: RTNL. */
static int lro_snap_dev(struct lro_snap *s, struct lro_dev *ld)
{
	struct lro_snap_pass p = {
		.v.fn = lro_snap_cpu,
		.ifindex = ld->rx.dev->ifindex,
		.cpu = s->cpu,
	};
	struct lro_config cfg;
	u32 max, guess = 0;
	int cpu, err;

	ASSERT_RTNL();
	/* max_desc only changes under RTNL: a bound on what a CPU holds. */
	lro_dev_get_config(ld, &cfg);
	max = cfg.max_desc * (s->cpu < 0 ? num_possible_cpus() : 1);
	for_each_possible_cpu(cpu) {
		const struct lro_pcpu *pc = lro_rx_pcpu(&ld->rx, cpu);

		if (pc && (s->cpu < 0 || cpu == s->cpu))
			guess += READ_ONCE(pc->mgr.nr_active);
	}
	for (;;) {
		/* Some room for segments arriving meanwhile. */
		p.cap = min(guess + guess / 8 + 16, max);
		err = lro_snap_grow(s, p.cap);
		if (err)
			return err;
		p.buf = s->buf + s->nr;
		p.nr = 0;
		p.need = 0;
		err = lro_rx_try_visit(&ld->rx, &p.v);
		if (err)
			return err;
		if (!p.need)
			break;
		/* A CPU holds max_desc at most: room for max always fits. */
		if (p.cap == max)
			return -EOVERFLOW;
		/* p.nr + p.need > p.cap: the next pass has more room. */
		guess = p.nr + p.need;
	}
	s->nr += p.nr;
	return 0;
}

static int lro_snap_take(struct lro_snap *s, struct net *net, int ifindex)
{
	struct net_device *dev;
	struct lro_dev *ld;
	int err = 0;

	/* Our caller is pinned to its CPU (bpf_prog_run_pin_on_cpu()): a
	 * CPU going offline waits, holding the hotplug lock, for it to leave;
	 * it must not wait for that lock itself, nor for RTNL, whose holder
	 * may be waiting for it (lro_rx_take_hold(), ...).
	 */
	if (!rtnl_trylock())
		return -EAGAIN;
	if (ifindex) {
		dev = __dev_get_by_index(net, ifindex);
		ld = dev ? lro_dev_find(dev) : NULL;
		if (!dev)
			err = -ENODEV;
		else if (!ld)
			err = -ENOENT;
		else
			err = lro_snap_dev(s, ld);
	} else {
		for (ld = lro_dev_next(net, NULL); ld && !err;
		     ld = lro_dev_next(net, ld))
			err = lro_snap_dev(s, ld);
	}
	rtnl_unlock();
	return err;
}

__bpf_kfunc_start_defs();

/**
 * bpf_iter_lro_desc_new() - snapshot the active LRO descriptors
 * @it: iterator state, on the BPF program's stack
 * @ifindex: device in the caller's network namespace, or 0 for every
 *	device LRO is attached to there
 * @cpu: the one CPU whose descriptors to copy, or -1 for all CPUs
 *
 * Copies the descriptors now; bpf_iter_lro_desc_next() returns the copies.
 * @it must be given to bpf_iter_lro_desc_destroy() whatever this returns.
 *
 * Context: process context, may sleep (takes RTNL, never waits for it).
 * Return: 0; -EINVAL for a bad @ifindex or @cpu; -EPERM without
 * CAP_NET_ADMIN in the namespace; -ENODEV if there is no such device;
 * -ENOENT if LRO is not attached to it; -EAGAIN if RTNL is taken or a CPU
 * is coming or going (try again); -ENOMEM. On error the iterator yields nothing.
 */
__bpf_kfunc int bpf_iter_lro_desc_new(struct bpf_iter_lro_desc *it,
				      int ifindex, int cpu)
{
	struct bpf_iter_lro_desc_kern *k = (void *)it;
	struct lro_snap s = { .cpu = cpu };
	struct net *net;
	int err;

	BUILD_BUG_ON(sizeof(struct bpf_iter_lro_desc_kern) !=
		     sizeof(struct bpf_iter_lro_desc));
	BUILD_BUG_ON(__alignof__(struct bpf_iter_lro_desc_kern) !=
		     __alignof__(struct bpf_iter_lro_desc));

	k->snap = NULL;
	k->nr = 0;
	k->pos = 0;
	if (ifindex < 0 || cpu < -1 || cpu >= (int)nr_cpu_ids ||
	    (cpu >= 0 && !cpu_possible(cpu)))
		return -EINVAL;
	net = current->nsproxy ? current->nsproxy->net_ns : &init_net;
	if (!ns_capable(net->user_ns, CAP_NET_ADMIN))
		return -EPERM;
	err = lro_snap_take(&s, net, ifindex);
	if (err) {
		kvfree(s.buf);
		return err;
	}
	k->snap = s.buf;
	k->nr = s.nr;
	return 0;
}

/**
 * bpf_iter_lro_desc_next() - the next descriptor of the snapshot
 * @it: iterator state
 *
 * Return: a read-only copy of one descriptor, valid until the next call,
 * or NULL at the end (or after a failed bpf_iter_lro_desc_new()).
 */
__bpf_kfunc struct lro_desc_snap *
bpf_iter_lro_desc_next(struct bpf_iter_lro_desc *it)
{
	struct bpf_iter_lro_desc_kern *k = (void *)it;

	if (k->pos >= k->nr)
		return NULL;
	return &k->snap[k->pos++];
}

/**
 * bpf_iter_lro_desc_destroy() - free the snapshot
 * @it: iterator state
 */
__bpf_kfunc void bpf_iter_lro_desc_destroy(struct bpf_iter_lro_desc *it)
{
	struct bpf_iter_lro_desc_kern *k = (void *)it;

	kvfree(k->snap);
	k->snap = NULL;
	k->nr = 0;
	k->pos = 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(lro_bpf_kfunc_ids)
BTF_ID_FLAGS(func, bpf_iter_lro_desc_new, KF_ITER_NEW | KF_SLEEPABLE)
BTF_ID_FLAGS(func, bpf_iter_lro_desc_next, KF_ITER_NEXT | KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_iter_lro_desc_destroy, KF_ITER_DESTROY)
BTF_KFUNCS_END(lro_bpf_kfunc_ids)

/* The kernel's "task" iterator target, by its BTF ID in vmlinux. */
BTF_ID_LIST_SINGLE(lro_bpf_iter_task_id, func, bpf_iter_task)

/*
 * Which programs see the kfuncs: syscall programs, and of the tracing
 * programs only iterators on the "task" target, whose show() runs from
 * read() with nothing held but the seq_file's mutex (the cgroup target
 * holds cgroup_mutex, task_vma the mmap lock). KF_SLEEPABLE makes the
 * verifier insist on sleepable ones (SEC("iter.s/task")).
 *
 * The verifier asks before it has resolved the attach target (check_cfg()
 * runs before check_attach_btf_id()) and again after: the answer may only
 * depend on what the program was loaded with. Iterator targets are all in
 * vmlinux, whose type IDs a module's split BTF shares.
 */
static int lro_bpf_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	if (!btf_id_set8_contains(&lro_bpf_kfunc_ids, kfunc_id))
		return 0;
	if (prog->type == BPF_PROG_TYPE_SYSCALL)
		return 0;
	if (prog->type == BPF_PROG_TYPE_TRACING &&
	    prog->expected_attach_type == BPF_TRACE_ITER &&
	    lro_bpf_iter_task_id[0] &&
	    prog->aux->attach_btf_id == lro_bpf_iter_task_id[0])
		return 0;
	return -EACCES;
}

static const struct btf_kfunc_id_set lro_bpf_kfunc_set = {
	.owner = THIS_MODULE,
	.set = &lro_bpf_kfunc_ids,
	.filter = lro_bpf_filter,
};

/**
 * lro_bpf_init - offer the descriptor iterators to BPF programs
 *
 * There is no way to withdraw a kfunc set: it goes with the module's BTF.
 *
 * Return: 0 or a negative errno.
 */
int lro_bpf_init(void)
{
	int err;

	err = register_btf_kfunc_id_set(BPF_PROG_TYPE_SYSCALL,
					&lro_bpf_kfunc_set);
	if (err)
		return err;
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING,
					 &lro_bpf_kfunc_set);
}
