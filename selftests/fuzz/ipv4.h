/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IPv4 header of lro_fuzz's frames, and the kinds of malformed frames
 * that are IP's (IHL, options, fields, lengths, fragments), with their
 * IPv6 counterparts where they are the same kind.
 */
#ifndef _LRO_FUZZ_IPV4_H
#define _LRO_FUZZ_IPV4_H

#include <stdint.h>

struct spec;

/* the next fragment ID, unique to the run (IPv4 and IPv6) */
extern unsigned long frag_id;

int frag_queue(const uint8_t *b, int len, const struct spec *s);
void ip4_header(const struct spec *s, uint8_t *l3, int tot_len, int ipl);

void k_ihl(struct spec *s);
void k_ipopt(struct spec *s);
void k_ipfield(struct spec *s);
void k_len(struct spec *s);
void k_frag(struct spec *s);

#endif
