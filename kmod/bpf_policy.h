/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BPF merge policies' struct_ops registration (bpf_policy.c).
 */
#ifndef _LRO_BPF_POLICY_H
#define _LRO_BPF_POLICY_H

int lro_bpf_policy_init(void);

#endif /* _LRO_BPF_POLICY_H */
