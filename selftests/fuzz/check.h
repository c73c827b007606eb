/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_fuzz's checks and what it reports: every byte read from a
 * connection is the stream's, with the frames that carried a wrong one;
 * the connections that did not complete; the counts at the end.
 */
#ifndef _LRO_FUZZ_CHECK_H
#define _LRO_FUZZ_CHECK_H

#include <stdbool.h>
#include <stdint.h>

struct flow;

/* a check failed: exit status 1 */
extern bool failed;

void check_stream(struct flow *f, const uint8_t *b, int n);
void report_stalled(double secs);
void report(double t0);

#endif
