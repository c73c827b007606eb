// SPDX-License-Identifier: GPL-2.0
/*
 * The "ports" merge policy: what LRO does with a flow is looked up by TCP
 * port in the hash map lro_ports, the flow's destination port first, then
 * its source port. A flow on no listed port gets the device's settings.
 *
 *   bpftool struct_ops register lro_policy_ports.bpf.o
 *   bpftool map update name lro_ports key K0 K1 value V0 ... V11
 *   lroadm set DEV policy ports
 *   ...
 *   bpftool struct_ops unregister name policy_ports
 *
 * Byte layout, little-endian as on x86 (bpftool takes the bytes in memory
 * order, hex with "hex" first or decimal by default):
 *   key   (2 bytes): __u16 port, host order. Port 5001 = 0x1389: 0x89 0x13
 *   value (12 bytes): struct lro_port_rule
 *     bytes 0-3   __u32 pass      1: send the flow's segments up alone
 *     bytes 4-7   __u32 max_aggr  segments per packet; 0: the device's
 *     bytes 8-11  __u32 hold_us   hold in us; 0: the device's
 *   Port 5002 held 200 ms, 8 segments per packet:
 *     key hex 8a 13 value hex 00 00 00 00 08 00 00 00 40 0d 03 00
 *
 * A hold of 0 ("until the end of the receive batch") cannot be asked for
 * here: 0 keeps the device's flush_timeout_us. Values out of range are
 * clamped by lro.ko (counted in policy_clamped).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* What to do with the flows of one port (value of lro_ports). */
struct lro_port_rule {
	__u32 pass;
	__u32 max_aggr;
	__u32 hold_us;
};

/* Ports an admin lists; 256 is plenty for a configuration typed by hand. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u16);
	__type(value, struct lro_port_rule);
} lro_ports SEC(".maps");

/* The rule for @flow: its destination port's, else its source port's. */
static const struct lro_port_rule *
ports_rule(const struct lro_policy_flow *flow)
{
	const struct lro_port_rule *r;
	__u16 port = flow->dport;

	r = bpf_map_lookup_elem(&lro_ports, &port);
	if (r)
		return r;
	port = flow->sport;
	return bpf_map_lookup_elem(&lro_ports, &port);
}

/* Ask the map once per packet; 0 in a field keeps the device's value. */
SEC("struct_ops/flow_start")
int BPF_PROG(ports_flow_start, const struct lro_policy_flow *flow,
	     struct lro_policy_hold *hold)
{
	const struct lro_port_rule *r = ports_rule(flow);

	if (!r)
		return LRO_POLICY_COALESCE;
	if (r->pass)
		return LRO_POLICY_PASS;
	if (r->max_aggr)
		hold->max_aggr = r->max_aggr;
	if (r->hold_us)
		hold->hold_us = r->hold_us;
	return LRO_POLICY_COALESCE;
}

/* The map's name is what bpftool struct_ops unregister takes. */
SEC(".struct_ops")
struct lro_policy_ops policy_ports = {
	.flow_start = (void *)ports_flow_start,
	.name = "ports",
};
