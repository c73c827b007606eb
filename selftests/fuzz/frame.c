// SPDX-License-Identifier: GPL-2.0
/*
 * One frame: its description (struct spec) made from a flow, the frame
 * built from it, Ethernet and VLAN tags here and the rest by ipv4.c,
 * ipv6.c and tcp.c; and the kinds of malformed frames that are the
 * Ethernet layer's (tags, MAC, EtherType) or the whole frame's (cut
 * short, bytes changed).
 */
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <string.h>

#include "flow.h"
#include "frame.h"
#include "ipv4.h"
#include "ipv6.h"
#include "send.h"
#include "tcp.h"
#include "util.h"

const char *const kind_names[K_NR] = {
	"valid", "dup", "jump", "size", "flags", "ackwin", "tcpopt", "tsopt",
	"doff", "ihl", "ipopt", "ipfield", "len", "trunc", "frag", "exthdr",
	"csum", "vlan", "proto", "mac", "mutate",
};

/* --- a flow's segment ------------------------------------------------------ */

/* A valid segment of @f at stream offset @off, as its trains send them. */
void spec_init(struct spec *s, struct flow *f, int kind)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->kind = kind;
	s->v6 = f->v6;
	s->version = -1;
	s->ihl = -1;
	s->tot_len = -1;
	s->doff = -1;
	s->tos = f->tos;
	s->ttl = f->ttl;
	s->proto = IPPROTO_TCP;
	s->ip_id = f->ip_id;
	s->frag_off = f->df ? 0x4000 : 0;
	s->tclass = f->tclass;
	s->hlim = f->hlim;
	s->flowlbl = f->flowlbl;
	memcpy(s->ext, f->ext, f->extlen);
	s->extlen = f->extlen;
	s->nh = f->extlen ? 0 : IPPROTO_TCP;	/* Hop-by-Hop first */
	s->off = f->nxt;
	s->seq = seq_of(f, s->off);
	s->ack = f->ack;
	s->flags = F_ACK;
	s->win = f->win;
	if (f->ts) {
		put_ts(s->topt, f->tsval, f->tsecr);
		s->toptlen = 12;
	}
	s->plen = f->mss;
	s->csum = CS_GOOD;
}

/* Next IPv4 ID of the flow: incrementing, or fixed under DF. */
void next_id(struct spec *s)
{
	struct flow *f = s->f;

	if (f->df && f->id % 2)
		return;
	s->ip_id = f->ip_id++;
}

/*
 * A connection's frames may be taken by the receiver's TCP, so what it
 * may take must be the stream's bytes, and nothing may end the stream:
 * a FIN, a RST or URG (which takes a byte out of it), or a doff that puts
 * the payload elsewhere, only with a wrong checksum; the payload the
 * stream's, unless the frame must not reach TCP at all (junk, set by the
 * kinds that make sure of that).
 */
void sanitize(struct spec *s)
{
	bool moves = s->doff >= 0 ? s->doff != (20 + s->toptlen) / 4 :
		     s->toptlen % 4;

	if (!s->f->conn || (s->csum != CS_GOOD && s->csum != CS_SHORT))
		return;
	/* a doff that is not the header's moves the payload TCP takes */
	if ((s->flags & (F_FIN | F_RST | F_URG)) || moves)
		s->csum = range(CS_PAYLOAD, CS_FIELD);
}

/* --- building ------------------------------------------------------------- */

int l2_len(const struct spec *s)
{
	return 14 + 4 * s->ntag;
}

int l3_len(const struct spec *s)
{
	return s->v6 ? 40 + s->extlen : 20 + s->ipoptlen;
}

/* How long a frame of @s may be: AF_PACKET takes the MTU and the Ethernet
 * header, and 4 bytes more when the first tag is 802.1Q.
 */
static int frame_max(const struct spec *s)
{
	return s->f->mtu + 14 + (s->ntag && s->tpid[0] == ETH_P_8021Q ? 4 : 0);
}

int hdr_len(const struct spec *s)
{
	return l2_len(s) + l3_len(s) + 20 + s->toptlen;
}

/* Trim the payload (and then the options) so that the frame fits. */
static void fit(struct spec *s)
{
	int room = frame_max(s) - hdr_len(s) - s->trailer;

	if (room < 0) {
		s->trailer = 0;
		room = frame_max(s) - hdr_len(s);
	}
	if (room < 0) {
		s->extlen = 0;
		s->ipoptlen = 0;
		s->toptlen = 0;
		room = frame_max(s) - hdr_len(s);
	}
	if (s->plen > room)
		s->plen = room;
}

/* The Ethernet header of @s at @b, with its tags: where the IP header
 * goes.
 */
static uint8_t *eth_header(const struct spec *s, uint8_t *b)
{
	uint8_t *p;
	int i;

	switch (s->dmac) {
	case 0:
		memcpy(b, srv_mac, 6);
		break;
	case 1:
		memset(b, 0xff, 6);
		break;
	case 2:
		memcpy(b, "\x01\x00\x5e\x00\x00\x01", 6);
		break;
	default:
		memcpy(b, "\x02\x1f\x00\x00\x00\x77", 6);
		break;
	}
	memcpy(b + 6, cli_mac, 6);
	p = b + 12;
	for (i = 0; i < s->ntag; i++, p += 4) {
		put16(p, s->tpid[i]);
		put16(p + 2, s->tci[i]);
	}
	put16(p, s->ethertype ?: s->v6 ? ETH_P_IPV6 : ETH_P_IP);
	return p + 2;
}

/* The frame of @s at @b: its length. TCP is built before IP, the trailer
 * last: the random bytes are drawn in that order.
 */
int build(struct spec *s, uint8_t *b)
{
	uint8_t *l3, *th;
	int tcplen, ipl, n;

	fit(s);
	l3 = eth_header(s, b);
	th = l3 + l3_len(s);
	tcplen = 20 + s->toptlen + s->plen;
	ipl = th - l3 + tcplen;

	/* the IP header's length field, and how much of TCP it says is there */
	n = s->tot_len >= 0 ? s->tot_len : s->v6 ? ipl - 40 : ipl;
	tcp_header(s, th, (s->v6 ? n + 40 : n) - (int)(th - l3));
	if (s->v6)
		ip6_header(s, l3, n);
	else
		ip4_header(s, l3, n, ipl);
	n = th + tcplen - b;
	rfill(b + n, s->trailer);
	n += s->trailer;
	if (s->cut > 0 && s->cut < n)
		n = s->cut;
	return n;
}

void emit(struct spec *s)
{
	static uint8_t b[MAX_FRAME];

	sanitize(s);
	queue(b, build(s, b), s);
	account(s, 1);
}

/* --- the kinds of frames: the whole frame, Ethernet ------------------------ */

void k_trunc(struct spec *s)
{
	int h = hdr_len(s);

	s->cut = range(14, h + (s->plen > 8 ? 8 : s->plen));
	emit(s);
}

/* Tagged: the core takes the outer tag out of the frame before LRO sees
 * it (skb_vlan_untag()); a second one stays in it. Only frames whose tags
 * all say VLAN 0 (priority tags) reach TCP here: on a connection, the
 * others carry junk that must never be read.
 */
void k_vlan(struct spec *s)
{
	bool delivered = true;
	int i;

	s->ntag = chance(70) ? 1 : 2;
	for (i = 0; i < s->ntag; i++) {
		s->tpid[i] = i == 0 && chance(20) ? ETH_P_8021AD : ETH_P_8021Q;
		s->tci[i] = rn(8) << 13 | (chance(40) ? 0 : range(1, 4095));
		if (s->tci[i] & 0xfff)
			delivered = false;
	}
	if (!delivered && s->f->conn)
		s->junk = true;
	emit(s);
}

void k_proto(struct spec *s)
{
	static const uint8_t on_to_tcp[] = { 0, 6, 43, 44, 50, 51, 60, 135, 139, 140 };
	uint16_t family = s->v6 ? ETH_P_IPV6 : ETH_P_IP;
	bool visible = false;
	unsigned int i;

	switch (rn(4)) {
	case 0:		/* the other family's EtherType */
		s->ethertype = s->v6 ? ETH_P_IP : ETH_P_IPV6;
		break;
	case 1:
		s->ethertype = chance(50) ? ETH_P_ARP : rn(65536);
		visible = s->ethertype == family;
		break;
	case 2:		/* not TCP, or not straight away */
		s->nh = s->proto = chance(50) ? IPPROTO_UDP : rn(256);
		if (!s->v6) {
			visible = s->proto == IPPROTO_TCP;
			break;
		}
		/* a header that may still lead to TCP */
		for (i = 0; i < sizeof(on_to_tcp); i++)
			visible |= s->nh == on_to_tcp[i];
		s->proto = IPPROTO_TCP;
		break;
	default:
		s->version = rn(16);
		visible = s->version == (s->v6 ? 6 : 4);
		break;
	}
	/* what TCP never sees carries what it must never read */
	if (s->f->conn && !visible)
		s->junk = true;
	emit(s);
}

void k_mac(struct spec *s)
{
	s->dmac = range(1, 3);
	if (s->f->conn)
		s->junk = true;	/* TCP takes no frame for another host */
	emit(s);
}

/* A valid frame with bytes changed after it was built: one on a
 * connection (which its checksums must notice: one changed byte always
 * shows in a ones' complement sum), up to 8 elsewhere.
 */
void k_mutate(struct spec *s)
{
	static uint8_t b[MAX_FRAME];
	int len, n, i, at;

	sanitize(s);
	len = build(s, b);
	n = s->f->conn ? 1 : range(1, 8);
	for (i = 0; i < n; i++) {
		/* mostly in the headers */
		at = chance(80) ? range(12, hdr_len(s) - 1) : range(12, len - 1);
		if (at >= len)
			at = len - 1;
		wrong8(b + at);
	}
	/* one byte of an IPv6 connection's extension headers is in no sum:
	 * what a Destination option says is not data, but the chain's
	 * lengths and types are; leave those alone there
	 */
	queue(b, len, s);
	account(s, 1);
}
