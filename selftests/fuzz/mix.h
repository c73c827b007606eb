/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mix lro_fuzz sends: valid trains of the flows, interleaved with
 * malformed frames of every kind, in proportions.
 */
#ifndef _LRO_FUZZ_MIX_H
#define _LRO_FUZZ_MIX_H

#include <stdint.h>

struct flow;

void send_valid(struct flow *f, uint64_t limit);
void mix_run(unsigned long frames, int verbose);

#endif
