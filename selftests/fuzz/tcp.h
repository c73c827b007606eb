/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TCP header of lro_fuzz's frames, its options and its checksum, and
 * the kinds of malformed frames that are TCP's.
 */
#ifndef _LRO_FUZZ_TCP_H
#define _LRO_FUZZ_TCP_H

#include <stdint.h>

struct spec;

/* TCP flags; AE and the reserved bits are the low nibble of byte 12 */
#define F_FIN	0x01
#define F_SYN	0x02
#define F_RST	0x04
#define F_PSH	0x08
#define F_ACK	0x10
#define F_URG	0x20
#define F_ECE	0x40
#define F_CWR	0x80

void put_ts(uint8_t *o, uint32_t tsval, uint32_t tsecr);
uint8_t *opt_put(uint8_t *o, int *n, int max, uint8_t kind, int len);
void tcp_header(const struct spec *s, uint8_t *th, int claimed);

void k_dup(struct spec *s);
void k_jump(struct spec *s);
void k_size(struct spec *s);
void k_flags(struct spec *s);
void k_ackwin(struct spec *s);
void k_tcpopt(struct spec *s);
void k_tsopt(struct spec *s);
void k_doff(struct spec *s);
void k_csum(struct spec *s);

#endif
