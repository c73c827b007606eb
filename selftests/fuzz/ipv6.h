/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IPv6 header of lro_fuzz's frames, its extension headers, and the
 * kinds of malformed frames that are IPv6's own.
 */
#ifndef _LRO_FUZZ_IPV6_H
#define _LRO_FUZZ_IPV6_H

#include <stdint.h>

struct spec;

void ip6_header(const struct spec *s, uint8_t *l3, int paylen);
int ip6_frags(struct spec *s);
void k_exthdr(struct spec *s);

#endif
