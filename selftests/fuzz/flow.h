/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lro_fuzz's ten flows: five real TCP connections and five to a closed
 * port, what their streams carry, and where each stands.
 */
#ifndef _LRO_FUZZ_FLOW_H
#define _LRO_FUZZ_FLOW_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

struct flow {
	int id;
	const char *name;
	bool v6, conn, ts;
	uint16_t sport, dport, mss;
	int mtu;		/* frames of this flow fit in it */
	uint8_t ext[16];	/* IPv6 extension headers in every segment */
	int extlen;
	uint8_t ttl, tos, tclass, hlim;
	uint16_t ip_id;
	bool df;
	uint32_t flowlbl;
	uint32_t iss;		/* sequence number of the SYN (byte 0 is iss + 1) */
	uint32_t ack, tsval, tsecr;
	uint16_t win;
	/* stream offsets: next new byte, acknowledged, highest offered */
	uint64_t nxt, una, hi, total;
	uint32_t swnd;		/* the receiver's window */
	double progress;	/* when una moved, or we went back to it */
	int state;		/* 0 closed, 1 SYN sent, 2 established */
	int fd;			/* the accepted socket */
	uint64_t rcvd;		/* bytes read and checked */
	int train;		/* segments left in the current valid train */
	bool train_psh;
	unsigned long retrans, valid;
};

#define NFLOWS 10
extern struct flow flows[NFLOWS];

extern uint8_t srv_mac[6], cli_mac[6];
extern struct in_addr cli4, srv4;
extern struct in6_addr cli6, srv6;
extern uint16_t port4;		/* listening; +1 for IPv6; +2 closed */
/* the retransmission timeout */
extern int rto_ms;

void pat_fill(int flow, uint64_t off, uint8_t *p, int n);
void flow_setup(void);
struct flow *flow_by_ports(bool v6, uint16_t sport, uint16_t dport);
uint64_t flow_top(const struct flow *f);
uint32_t seq_of(const struct flow *f, int64_t off);
int64_t room(const struct flow *f);
void retransmit(struct flow *f, double t);

#endif
