/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One frame, as lro_fuzz describes it (struct spec: what each layer's
 * fields say) and builds it: the Ethernet header with its VLAN tags here,
 * the IP and TCP headers in ipv4.c, ipv6.c and tcp.c. The kinds of
 * malformed frames that are the Ethernet layer's, or the whole frame's,
 * are here too.
 */
#ifndef _LRO_FUZZ_FRAME_H
#define _LRO_FUZZ_FRAME_H

#include <stdbool.h>
#include <stdint.h>

struct flow;

#define MAX_FRAME	9200	/* a 9000-byte MTU, two tags, a trailer */

enum csum_mode {
	CS_GOOD,	/* right for the bytes that are there */
	CS_SHORT,	/* right for as many bytes as the IP header claims */
	CS_PAYLOAD,	/* then one payload byte changed */
	CS_HDR,		/* then one TCP header byte changed */
	CS_FIELD,	/* a wrong checksum */
};

struct spec {
	struct flow *f;
	int kind;
	bool v6;
	/* Ethernet */
	int dmac;		/* 0 the receiver, 1 broadcast, 2 multicast, 3 other */
	int ntag;
	uint16_t tpid[2], tci[2];
	uint16_t ethertype;	/* 0: the family's */
	/* IPv4 */
	int version;		/* -1: the family's */
	int ihl;		/* -1: from ipoptlen */
	uint8_t ipopt[40];
	int ipoptlen;
	uint8_t tos, ttl, proto;
	uint16_t ip_id, frag_off;
	int tot_len;		/* -1: right; IPv6: payload_len */
	bool ip_csum_bad;
	/* IPv6 */
	uint8_t tclass, hlim, nh;	/* nh: the first next header */
	uint32_t flowlbl;
	uint8_t ext[600];
	int extlen;
	/* TCP */
	uint32_t seq, ack;
	uint16_t flags;		/* F_*, and AE/reserved in bits 8-11 */
	uint16_t win, urg;
	uint8_t topt[60];
	int toptlen;
	int doff;		/* -1: from toptlen */
	int plen;
	int64_t off;		/* stream offset of the payload (connections) */
	bool junk;		/* payload random, not the stream's */
	int csum;
	/* after */
	int trailer;
	int cut;		/* > 0: the frame cut to this many bytes */
};

enum kind {
	K_VALID, K_DUP, K_JUMP, K_SIZE, K_FLAGS, K_ACKWIN, K_TCPOPT, K_TSOPT,
	K_DOFF, K_IHL, K_IPOPT, K_IPFIELD, K_LEN, K_TRUNC, K_FRAG, K_EXTHDR,
	K_CSUM, K_VLAN, K_PROTO, K_MAC, K_MUTATE, K_NR
};

extern const char *const kind_names[K_NR];

void spec_init(struct spec *s, struct flow *f, int kind);
void next_id(struct spec *s);
void sanitize(struct spec *s);
int l2_len(const struct spec *s);
int l3_len(const struct spec *s);
int hdr_len(const struct spec *s);
int build(struct spec *s, uint8_t *b);
void emit(struct spec *s);

void k_trunc(struct spec *s);
void k_vlan(struct spec *s);
void k_proto(struct spec *s);
void k_mac(struct spec *s);
void k_mutate(struct spec *s);

#endif
