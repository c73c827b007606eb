// SPDX-License-Identifier: GPL-2.0
/*
 * Programs the verifier must refuse: each misuses the descriptor iterator
 * kfuncs of lro.ko in one way. bpf/Makefile builds one object per case,
 * lro_descs_bad_<case>.bpf.o with -DBAD_<case>, and selftests/bpf_descs.sh
 * checks that loading each fails with the verifier's reason for it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "lro_kfuncs.bpf.h"

char LICENSE[] SEC("license") = "GPL";

__u32 out;

#if defined(BAD_uninit_next)
/* _next on an iterator _new never initialised */
SEC("syscall")
int bad(void *ctx)
{
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;

	d = bpf_iter_lro_desc_next(&it);
	if (d)
		out = d->segs;
	return 0;
}
#elif defined(BAD_scalar_iter)
/* NULL where the iterator state goes */
SEC("syscall")
int bad(void *ctx)
{
	return bpf_iter_lro_desc_new(NULL, 0, -1);
}
#elif defined(BAD_no_destroy)
/* the snapshot is never freed */
SEC("syscall")
int bad(void *ctx)
{
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;

	bpf_iter_lro_desc_new(&it, 0, -1);
	d = bpf_iter_lro_desc_next(&it);
	if (d)
		out = d->segs;
	return 0;
}
#elif defined(BAD_write_snap)
/* the snapshot is read-only */
SEC("syscall")
int bad(void *ctx)
{
	struct bpf_iter_lro_desc it;
	struct lro_desc_snap *d;

	bpf_iter_lro_desc_new(&it, 0, -1);
	d = bpf_iter_lro_desc_next(&it);
	if (d)
		d->segs = 0;
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#elif defined(BAD_double_new)
/* _new on an iterator already initialised (leaks the first snapshot) */
SEC("syscall")
int bad(void *ctx)
{
	struct bpf_iter_lro_desc it;

	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#elif defined(BAD_not_sleepable)
/* an iterator program that may not sleep: _new takes RTNL */
SEC("iter/task")
int bad(struct bpf_iter__task *ctx)
{
	struct bpf_iter_lro_desc it;

	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#elif defined(BAD_wrong_type)
/* a program type the kfuncs are not offered to (runs in softirq) */
SEC("tc")
int bad(struct __sk_buff *skb)
{
	struct bpf_iter_lro_desc it;

	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#elif defined(BAD_fentry)
/* a tracing program that is not a task iterator, even a sleepable one (the
 * kernel lets bpf_fentry_test1 have those): it could run with RTNL held
 */
SEC("fentry.s/bpf_fentry_test1")
int BPF_PROG(bad, int a)
{
	struct bpf_iter_lro_desc it;

	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#elif defined(BAD_iter_cgroup)
/* a sleepable iterator on a target other than "task": the cgroup one runs
 * its programs under cgroup_mutex
 */
SEC("iter.s/cgroup")
int bad(struct bpf_iter__cgroup *ctx)
{
	struct bpf_iter_lro_desc it;

	bpf_iter_lro_desc_new(&it, 0, -1);
	bpf_iter_lro_desc_destroy(&it);
	return 0;
}
#else
#error "build with -DBAD_<case>"
#endif
