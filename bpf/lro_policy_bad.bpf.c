// SPDX-License-Identifier: GPL-2.0
/*
 * Merge policies the verifier must refuse: each misuses struct
 * lro_policy_ops in one way. bpf/Makefile builds one object per case,
 * lro_policy_bad_<case>.bpf.o with -DBAD_<case>, and selftests/policy.sh
 * checks that "bpftool struct_ops register" fails on each with the
 * verifier's reason for it. Every case registers as "bad".
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

#if defined(BAD_write_flow)
/* the flow is read-only: a policy may not rewrite what LRO matches on */
SEC("struct_ops/flow_start")
int BPF_PROG(bad_flow_start, struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	flow->dport = 0;
	return LRO_POLICY_COALESCE;
}
#elif defined(BAD_write_past_hold)
/* a write past the end of struct lro_policy_hold (into lro.ko's stack) */
SEC("struct_ops/flow_start")
int BPF_PROG(bad_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	*(__u32 *)((char *)hold + sizeof(*hold)) = 0;
	return LRO_POLICY_COALESCE;
}
#elif defined(BAD_write_flush)
/* what flow_flush is told is read-only too */
SEC("struct_ops/flow_start")
int BPF_PROG(bad_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	return LRO_POLICY_COALESCE;
}

SEC("struct_ops/flow_flush")
void BPF_PROG(bad_flow_flush, const struct lro_policy_flow *flow,
	      struct lro_policy_flush *flush)
{
	flush->segs = 0;
}
#elif defined(BAD_sleepable)
/* a sleepable program: the callbacks run in softirq and must not sleep */
SEC("struct_ops.s/flow_start")
int BPF_PROG(bad_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	return LRO_POLICY_COALESCE;
}
#else
#error "build with -DBAD_<case>"
#endif

SEC(".struct_ops")
struct lro_policy_ops policy_bad = {
	.flow_start = (void *)bad_flow_start,
#if defined(BAD_write_flush)
	.flow_flush = (void *)bad_flow_flush,
#endif
	.name = "bad",
};
