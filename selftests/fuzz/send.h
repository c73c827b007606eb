/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_fuzz's frames out: the packet sockets, batches of frames sent with
 * sendmmsg(), the counts, the pcap recording and its replay, and the last
 * frames sent, kept for a failure's report.
 */
#ifndef _LRO_FUZZ_SEND_H
#define _LRO_FUZZ_SEND_H

#include <stdint.h>

struct spec;

#define RING		512	/* frames kept for a failure's report */

struct ring_ent {
	unsigned long n;
	int flow, kind, len;
	int64_t off;
	int plen;
	uint8_t b[256];		/* the headers and the start of the payload */
};
extern struct ring_ent ring[RING];

/* sending, and receiving what comes back (conn.c) */
extern int txfd, rxfd;
/* frames queued and not sent yet */
extern int nbatch;
extern unsigned long n_fuzz, n_valid, n_sent, n_err, n_bytes;
extern unsigned long n_kind[32];

void send_init(void);
int packet_socket(const char *dev, int proto);
void pcap_open(const char *file);
void pcap_close(void);
void flush_batch(void);
void queue(const uint8_t *b, int len, const struct spec *s);
void account(const struct spec *s, int n);
void replay(const char *file);

#endif
