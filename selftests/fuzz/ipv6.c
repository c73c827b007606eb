// SPDX-License-Identifier: GPL-2.0
/*
 * The IPv6 header of lro_fuzz's frames and its extension headers: chains
 * of them (k_exthdr()) and the Fragment header (k_frag() on IPv6).
 */
#include <netinet/in.h>
#include <string.h>

#include "flow.h"
#include "frame.h"
#include "ipv4.h"
#include "ipv6.h"
#include "util.h"

/* The IPv6 header of @s at @l3, @paylen in its length field, and the
 * extension headers after it.
 */
void ip6_header(const struct spec *s, uint8_t *l3, int paylen)
{
	put32(l3, (s->version >= 0 ? s->version : 6) << 28 |
		  s->tclass << 20 | (s->flowlbl & 0xfffff));
	put16(l3 + 4, paylen);
	l3[6] = s->nh;
	l3[7] = s->hlim;
	memcpy(l3 + 8, &cli6, 16);
	memcpy(l3 + 24, &srv6, 16);
	memcpy(l3 + 40, s->ext, s->extlen);
}

/* An IPv6 extension header at @p of type @type: @len bytes (a multiple of
 * 8), mostly well formed. Returns its length.
 */
static int ext_header(uint8_t *p, uint8_t type, uint8_t next, int len,
		      bool junk)
{
	int i;

	memset(p, 0, len);
	p[0] = next;
	p[1] = len / 8 - 1;
	if (junk) {
		rfill(p + 2, len - 2);
		return len;
	}
	switch (type) {
	case 0:		/* Hop-by-Hop */
	case 60:	/* Destination: Pad1/PadN, an unknown option to skip */
		i = 2;
		while (i < len) {
			int left = len - i, k = rn(4);

			if (k == 0 || left < 2) {
				p[i++] = 0;	/* Pad1 */
			} else if (k == 1 && left >= 4) {
				p[i] = 0x1e;	/* unknown, skip (00) */
				p[i + 1] = range(0, left - 2);
				rfill(p + i + 2, p[i + 1]);
				i += 2 + p[i + 1];
			} else if (k == 2 && left >= 4 && chance(20)) {
				p[i] = range(0x40, 0xff);	/* discard */
				p[i + 1] = range(0, left - 2);
				i += 2 + p[i + 1];
			} else {
				int pad = left - 2 > 5 ? range(0, 5) : left - 2;

				p[i] = 1;	/* PadN */
				p[i + 1] = pad;
				i += 2 + pad;
			}
		}
		break;
	case 43:	/* Routing: type 0-4, segments left mostly 0 */
		p[2] = rn(5);
		p[3] = chance(70) ? 0 : rn(4);
		break;
	case 44:	/* Fragment: 8 bytes, atomic or not */
		p[1] = 0;
		put16(p + 2, chance(50) ? 0 : rn(65536));
		put32(p + 4, rnd());
		break;
	default:
		rfill(p + 2, len - 2);
		break;
	}
	return len;
}

/* k_frag() on IPv6: a Fragment header after the extension headers. The
 * frames it queued.
 */
int ip6_frags(struct spec *s)
{
	static uint8_t b[MAX_FRAME], b2[MAX_FRAME];
	int len, l2, l3, cut, which, rest, sent = 0;
	uint8_t *fh;

	if (s->extlen)
		s->ext[s->extlen - 8] = 44;	/* the last one's next */
	else
		s->nh = 44;
	fh = s->ext + s->extlen;
	fh[0] = IPPROTO_TCP;
	fh[1] = 0;
	put16(fh + 2, 0);
	put32(fh + 4, frag_id++);
	s->extlen += 8;
	len = build(s, b);
	if (chance(25))		/* atomic: offset 0, no more */
		return frag_queue(b, len, s);
	l2 = l2_len(s);
	l3 = 40 + s->extlen;
	rest = len - l2 - l3;	/* TCP header and payload, >= 20 */
	cut = 8 * range(1, rest / 8 - 1);
	which = rn(3);
	/* the first: up to cut, M set */
	memcpy(b2, b, l2 + l3 + cut);
	put16(b2 + l2 + 4, l3 - 40 + cut);
	put16(b2 + l2 + l3 - 8 + 2, 1);
	if (which != 2)
		sent += frag_queue(b2, l2 + l3 + cut, s);
	/* the rest: the offset in 8-byte units, shifted by 3 */
	fh = b + l2 + l3 - 8;
	memmove(b + l2 + l3, b + l2 + l3 + cut, rest - cut);
	put16(fh + 2, cut);
	put16(b + l2 + 4, l3 - 40 + rest - cut);
	if (which != 1)
		sent += frag_queue(b, len - cut, s);
	return sent;
}

void k_exthdr(struct spec *s)
{
	static const uint8_t types[] = { 0, 43, 60, 44, 51, 50, 59, 135, 17, 6, 0, 60, 60, 43 };
	int n = range(1, 5), i, len = 0, l;
	uint8_t t[8], next;

	if (!s->v6) {
		s->kind = K_IPOPT;
		k_ipopt(s);
		return;
	}
	for (i = 0; i < n; i++)
		t[i] = chance(85) ? types[rn(sizeof(types))] : rn(256);
	/* mostly: Hop-by-Hop first or not at all, TCP last */
	if (chance(70))
		for (i = 1; i < n; i++)
			if (t[i] == 0)
				t[i] = 60;
	for (i = 0; i < n; i++) {
		next = i + 1 < n ? t[i + 1] : chance(85) ? IPPROTO_TCP : rn(256);
		l = t[i] == 44 ? 8 : 8 * range(1, chance(80) ? 3 : 32);
		if (len + l > (int)sizeof(s->ext))
			break;
		ext_header(s->ext + len, t[i], next, l, chance(10));
		if (t[i] == 44 && s->f->conn)
			put32(s->ext + len + 4, frag_id++);
		len += l;
		if (chance(5))	/* a length that lies */
			s->ext[len - l + 1] = rn(256);
	}
	s->extlen = len;
	s->nh = t[0];
	if (chance(10) && len)
		s->cut = l2_len(s) + 40 + rn(len);
	emit(s);
}
