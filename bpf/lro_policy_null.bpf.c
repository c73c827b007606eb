// SPDX-License-Identifier: GPL-2.0
/*
 * The "null" merge policy: coalesce every flow under the device's own
 * settings. It changes nothing LRO does, so a benchmark run with it
 * attached against one without measures what a policy call costs (the
 * struct_ops trampoline and the flow and hold structs lro.ko fills in).
 *
 *   bpftool struct_ops register lro_policy_null.bpf.o
 *   lroadm set DEV policy null
 *   bpftool struct_ops unregister name policy_null
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* Coalesce, under the max_aggr and hold lro.ko offered. */
SEC("struct_ops/flow_start")
int BPF_PROG(null_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	return LRO_POLICY_COALESCE;
}

/* No flow_flush: a policy without one is not told about flushes. */
SEC(".struct_ops")
struct lro_policy_ops policy_null = {
	.flow_start = (void *)null_flow_start,
	.name = "null",
};
