// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv4 header of lro_fuzz's frames, and the kinds of malformed frames
 * that are IP's: IHL, options, fields, lengths and fragments, each with
 * its IPv6 counterpart where there is one (ipv6.c has the extension
 * headers and the Fragment header).
 */
#include <string.h>

#include "flow.h"
#include "frame.h"
#include "ipv4.h"
#include "ipv6.h"
#include "send.h"
#include "tcp.h"
#include "util.h"

unsigned long frag_id = 1;

/* The IPv4 header checksum over @len bytes at @ip, its field zeroed first. */
static uint16_t ip4_csum(uint8_t *ip, int len)
{
	put16(ip + 10, 0);
	return fold(sum16(ip, len, 0));
}

/* The IPv4 header of @s at @l3, @tot_len in its length field; the
 * checksum over what the IHL says, as far as the @ipl bytes of the packet
 * go: a lying IHL still passes the header checksum.
 */
void ip4_header(const struct spec *s, uint8_t *l3, int tot_len, int ipl)
{
	int ihl = s->ihl >= 0 ? s->ihl : 5 + s->ipoptlen / 4, n;
	uint16_t c;

	l3[0] = (s->version >= 0 ? s->version : 4) << 4 | (ihl & 15);
	l3[1] = s->tos;
	put16(l3 + 2, tot_len);
	put16(l3 + 4, s->ip_id);
	put16(l3 + 6, s->frag_off);
	l3[8] = s->ttl;
	l3[9] = s->proto;
	memcpy(l3 + 12, &cli4, 4);
	memcpy(l3 + 16, &srv4, 4);
	memcpy(l3 + 20, s->ipopt, s->ipoptlen);
	n = ihl < 5 ? 20 : ihl * 4;
	if (n > ipl)
		n = ipl;
	c = ip4_csum(l3, n);
	put16(l3 + 10, s->ip_csum_bad ? wrong16(c) : c);
}

/* --- the kinds of frames: IP --------------------------------------------- */

void k_ihl(struct spec *s)
{
	if (s->v6) {		/* the IPv6 counterpart: a version that lies */
		s->version = chance(50) ? 4 : rn(16);
		emit(s);
		return;
	}
	switch (rn(3)) {
	case 0:
		s->ihl = rn(5);
		break;
	case 1:		/* more than there is: TCP taken for options */
		s->ihl = range(6, 15);
		break;
	default:	/* past the frame */
		s->ihl = range(6, 15);
		s->toptlen = 0;
		s->plen = 0;
		s->cut = l2_len(s) + range(20, 20 + 4 * (s->ihl - 5));
		break;
	}
	emit(s);
}

void k_ipopt(struct spec *s)
{
	uint8_t *o = s->ipopt, *p;
	int n = 0, len, max = 4 * range(1, 10);

	if (s->v6) {		/* extension headers instead */
		s->kind = K_EXTHDR;
		k_exthdr(s);
		return;
	}
	while (n < max) {
		switch (rn(6)) {
		case 0:
			o[n++] = 1;	/* NOP */
			break;
		case 1:
			o[n++] = 0;	/* EOL */
			break;
		case 2:		/* Router Alert */
			p = opt_put(o, &n, max, 0x94, 4);
			if (p)
				put16(p + 2, 0);
			break;
		case 3:		/* Record Route / Timestamp with room */
			len = 4 * range(1, 3) + 3;
			p = opt_put(o, &n, max, 0, len);
			if (!p)
				break;
			p[0] = chance(50) ? 7 : 68;
			p[2] = p[0] == 7 ? 4 : 5;
			memset(p + 3, 0, len - 3);
			break;
		default:	/* anything, any length */
			len = range(2, max - n < 2 ? 2 : max - n);
			p = opt_put(o, &n, max, 0, len);
			if (!p)
				break;
			p[0] = rnd();
			p[1] = chance(80) ? len : rn(256);
			rfill(p + 2, len - 2);
			break;
		}
	}
	s->ipoptlen = n & ~3;
	emit(s);
}

void k_ipfield(struct spec *s)
{
	switch (rn(6)) {
	case 0:
		s->ttl = s->hlim = rn(256);
		break;
	case 1:
		s->tos = s->tclass = rn(256);	/* with ECN CE or not */
		break;
	case 2:
		s->tos |= 3;
		s->tclass |= 3;
		break;
	case 3:
		s->ip_id = rn(65536);
		s->flowlbl = rnd();
		break;
	case 4:
		s->frag_off ^= 0x4000;	/* DF */
		s->flowlbl = rnd();
		break;
	default:
		s->ip_id = s->f->ip_id - range(0, 2);
		break;
	}
	emit(s);
}

void k_len(struct spec *s)
{
	int ipl = l3_len(s) + 20 + s->toptlen + s->plen;
	int exact = s->v6 ? ipl - 40 : ipl, hdrs = ipl - s->plen - (s->v6 ? 40 : 0);

	switch (rn(7)) {
	case 0:
		s->tot_len = 0;
		break;
	case 1:		/* shorter than the headers */
		s->tot_len = rn(hdrs);
		break;
	case 2:		/* into the payload, the checksum as the header says */
		s->tot_len = exact - range(1, s->plen > 1 ? s->plen : 1);
		s->csum = chance(70) ? CS_SHORT : CS_GOOD;
		break;
	case 3:		/* longer than the frame */
		s->tot_len = exact + range(1, 1500);
		break;
	case 4:		/* a trailer after the packet (Ethernet padding) */
		s->trailer = range(1, 64);
		break;
	case 5:		/* a trailer, and a length that covers it */
		s->trailer = range(1, 64);
		s->tot_len = exact + s->trailer;
		break;
	default:
		s->tot_len = rn(65536);
		break;
	}
	emit(s);
}

/* One frame of k_frag()'s queued: 1, for the count. */
int frag_queue(const uint8_t *b, int len, const struct spec *s)
{
	queue(b, len, s);
	return 1;
}

/* k_frag() on IPv4: the frames it queued. */
static int ip4_frags(struct spec *s)
{
	static uint8_t b[MAX_FRAME], b2[MAX_FRAME];
	int len, l2, l3, cut, which, rest, sent = 0;
	uint8_t *ip;

	s->ip_id = frag_id++;
	s->frag_off = 0;
	len = build(s, b);
	l2 = l2_len(s);
	l3 = 20 + s->ipoptlen;
	ip = b + l2;
	rest = len - l2 - l3;
	if (rest < 16)
		return frag_queue(b, len, s);
	cut = 8 * range(1, rest / 8 - 1);
	which = rn(4);
	/* the first: up to cut, MF set (and now and then DF too) */
	memcpy(b2, b, l2 + l3 + cut);
	put16(b2 + l2 + 2, l3 + cut);
	put16(b2 + l2 + 6, 0x2000 | (chance(10) ? 0x4000 : 0));
	put16(b2 + l2 + 10, ip4_csum(b2 + l2, l3));
	if (which != 2)
		sent += frag_queue(b2, l2 + l3 + cut, s);
	/* the rest, MF set on it too now and then: never complete */
	memmove(ip + l3, ip + l3 + cut, rest - cut);
	put16(ip + 2, l3 + rest - cut);
	put16(ip + 6, (which == 3 ? 0x2000 : 0) | cut / 8);
	put16(ip + 10, ip4_csum(ip, l3));
	if (which != 1)
		sent += frag_queue(b, len - cut, s);
	return sent;
}

/* A valid segment in two fragments, or one of them, or (IPv6) in an
 * atomic fragment; the ID unique to the run, so that no two fragments
 * reassemble into a segment that was never sent.
 */
void k_frag(struct spec *s)
{
	sanitize(s);
	account(s, s->v6 ? ip6_frags(s) : ip4_frags(s));
}
