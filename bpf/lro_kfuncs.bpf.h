/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The descriptor iterator kfuncs of lro.ko (kmod/bpf.c), for BPF programs.
 * Their types (struct bpf_iter_lro_desc, struct lro_desc_snap) come from
 * vmlinux.h, generated from lro.ko's BTF on top of the kernel's.
 */
#ifndef _LRO_KFUNCS_BPF_H
#define _LRO_KFUNCS_BPF_H

/* struct lro_desc_snap's family; macros are not in BTF, so not in vmlinux.h. */
#ifndef AF_INET
#define AF_INET		2
#endif
#ifndef AF_INET6
#define AF_INET6	10
#endif

extern int bpf_iter_lro_desc_new(struct bpf_iter_lro_desc *it, int ifindex,
				 int cpu) __ksym;
extern struct lro_desc_snap *
bpf_iter_lro_desc_next(struct bpf_iter_lro_desc *it) __ksym;
extern void bpf_iter_lro_desc_destroy(struct bpf_iter_lro_desc *it) __ksym;

#endif /* _LRO_KFUNCS_BPF_H */
