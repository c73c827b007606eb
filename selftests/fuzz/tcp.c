// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP header of lro_fuzz's frames, its options and its checksum, and
 * the kinds of malformed frames that are TCP's: sequence numbers, sizes,
 * flags, ACK and window, options, timestamps, data offsets, checksums.
 */
#include <netinet/in.h>
#include <string.h>

#include "flow.h"
#include "frame.h"
#include "tcp.h"
#include "util.h"

/* The timestamp option as the trains send it: two NOPs, then kind 8,
 * length 10, @tsval and @tsecr; 12 bytes at @o.
 */
void put_ts(uint8_t *o, uint32_t tsval, uint32_t tsecr)
{
	memcpy(o, "\x01\x01\x08\x0a", 4);
	put32(o + 4, tsval);
	put32(o + 8, tsecr);
}

static uint64_t pseudo(const struct spec *s, uint32_t len)
{
	uint8_t b[40];

	if (s->v6) {
		memcpy(b, &cli6, 16);
		memcpy(b + 16, &srv6, 16);
		put32(b + 32, len);
		put32(b + 36, IPPROTO_TCP);
		return sum16(b, 40, 0);
	}
	memcpy(b, &cli4, 4);
	memcpy(b + 4, &srv4, 4);
	put16(b + 8, IPPROTO_TCP);
	put16(b + 10, len);
	return sum16(b, 12, 0);
}

/* The TCP header and payload of @s at @th, and the checksum: over the
 * segment, or (CS_SHORT) over the @claimed bytes of it that the IP header
 * says there are, when that is within it.
 */
void tcp_header(const struct spec *s, uint8_t *th, int claimed)
{
	int tcplen = 20 + s->toptlen + s->plen, csum_len, i;
	uint8_t *p;
	uint16_t c;

	put16(th, s->f->sport);
	put16(th + 2, s->f->dport);
	put32(th + 4, s->seq);
	put32(th + 8, s->ack);
	put16(th + 12, (s->doff >= 0 ? s->doff : (20 + s->toptlen) / 4) << 12 |
		       (s->flags & 0xfff));
	put16(th + 14, s->win);
	put16(th + 16, 0);
	put16(th + 18, s->urg);
	memcpy(th + 20, s->topt, s->toptlen);
	p = th + 20 + s->toptlen;
	if (s->junk)
		rfill(p, s->plen);
	else
		pat_fill(s->f->id, s->off, p, s->plen);

	csum_len = tcplen;
	if (s->csum == CS_SHORT) {
		csum_len = claimed;
		if (csum_len < 0 || csum_len > tcplen)
			csum_len = tcplen;
	}
	c = fold(sum16(th, csum_len, pseudo(s, csum_len)));
	put16(th + 16, c);
	switch (s->csum) {
	case CS_PAYLOAD:
		if (s->plen) {
			wrong8(th + 20 + s->toptlen + rn(s->plen));
			break;
		}
		/* fall through */
	case CS_HDR:
		i = rn(18);
		wrong8(th + (i >= 16 ? i + 2 : i));
		break;
	case CS_FIELD:
		put16(th + 16, wrong16(c));
		break;
	}
}

/* --- options ---------------------------------------------------------------- */

/* An option of kind @kind, @len bytes, at *@n in @o (@max bytes long; TCP
 * and IPv4 options are alike there): where it goes, *@n moved past it; or
 * NULL if it does not fit. A random kind or length is drawn by the caller
 * after it fits (and written over these), as it always was: the same seed
 * draws the same numbers.
 */
uint8_t *opt_put(uint8_t *o, int *n, int max, uint8_t kind, int len)
{
	uint8_t *p = o + *n;

	if (*n + len > max)
		return NULL;
	p[0] = kind;
	p[1] = len;
	*n += len;
	return p;
}

/* TCP options for a flow's segment: @n bytes at most of well-formed
 * options, or of anything for a flow that is not a connection. A
 * connection's timestamp never goes backwards (PAWS would drop what
 * follows), and no byte that a parser could take for a timestamp's kind
 * is left in option bytes it may walk.
 */
static int tcp_options(struct flow *f, uint8_t *o, int max)
{
	int n = 0, target = range(1, max), len, i;
	bool conn = f->conn;
	uint8_t *p;

	while (n < target) {
		switch (rn(12)) {
		case 0:
			o[n++] = 1;
			break;
		case 1:
			if (chance(30))
				o[n++] = 0;
			break;
		case 2:		/* MSS */
			p = opt_put(o, &n, max, 2, 4);
			if (p)
				put16(p + 2, rn(65536));
			break;
		case 3:		/* window scale */
			p = opt_put(o, &n, max, 3, 3);
			if (p)
				p[2] = rn(20);
			break;
		case 4:		/* SACK permitted */
			opt_put(o, &n, max, 4, 2);
			break;
		case 5:		/* SACK blocks */
			len = 2 + 8 * range(1, 4);
			p = opt_put(o, &n, max, 5, len);
			if (p)
				rfill(p + 2, len - 2);
			break;
		case 6:
			p = opt_put(o, &n, max, 8, 10);
			if (!p)
				break;
			if (conn || chance(50)) {
				f->tsval += rn(3);
				put32(p + 2, f->tsval);
				put32(p + 6, f->tsecr);
			} else {
				rfill(p + 2, 8);
			}
			break;
		case 7:		/* an option nobody knows */
			len = range(2, max - n < 2 ? 2 : max - n);
			p = opt_put(o, &n, max, 0, len);
			if (!p)
				break;
			p[0] = range(9, 253);
			rfill(p + 2, len - 2);
			for (i = 2; conn && i < len; i++)
				if (p[i] == 8)
					p[i] = 9;
			break;
		case 8:		/* length 0 or 1: the parser stops */
		case 9:		/* longer than what is left: it stops */
		case 10:	/* junk */
			if (n + 2 > max)
				break;
			o[n] = conn ? range(9, 255) : rn(256);
			o[n + 1] = rn(3) == 0 ? rn(2) : rn(3) == 0 ? max - n + range(1, 20) : rn(256);
			n += 2;
			/* after a bad option, parsing stops: the rest is junk */
			while (n < target) {
				o[n] = rn(256);
				if (conn && o[n] == 8)
					o[n] = 9;
				n++;
			}
			break;
		case 11:	/* MD5 signature: TCP drops it without a key */
			p = opt_put(o, &n, max, 19, 18);
			if (p)
				rfill(p + 2, 16);
			break;
		}
	}
	return n;
}

/* Options padded to a 4-byte boundary with NOPs, EOLs or junk. */
static void pad_options(struct spec *s)
{
	while (s->toptlen % 4) {
		int c = rn(3);

		s->topt[s->toptlen++] = c == 0 ? 1 : c == 1 ? 0 :
					s->f->conn ? 1 : rn(256);
	}
}

/* --- the kinds of frames: TCP ------------------------------------------------ */

void k_dup(struct spec *s)
{
	struct flow *f = s->f;
	int64_t back = (int64_t)f->mss * range(0, 8) + (chance(20) ? rn(f->mss) : 0);

	s->off -= back;
	if (s->off < 0 && f->conn && chance(80))
		s->off = 0;
	s->seq = seq_of(f, s->off);
	emit(s);
}

void k_jump(struct spec *s)
{
	struct flow *f = s->f;
	int64_t d;

	switch (rn(5)) {
	case 0:
		d = range(1, 3 * f->mss);
		break;
	case 1:
		d = range(1, 65535);
		break;
	case 2:
		d = -(int64_t)range(1, 65535);
		break;
	case 3:
		d = (int64_t)1 << 31;
		break;
	default:
		d = (uint32_t)rnd();
		break;
	}
	/* TCP reads a sequence number within 2^31 of where it is: so must
	 * the stream offset whose bytes a connection's frame carries
	 */
	if (f->conn)
		d = (int32_t)d;
	s->off += d;
	s->seq = seq_of(f, s->off);
	/* a flow that is not a connection may go on from there */
	if (!f->conn && chance(50))
		f->iss += (uint32_t)d;
	emit(s);
}

void k_size(struct spec *s)
{
	struct flow *f = s->f;

	switch (rn(5)) {
	case 0:
		s->plen = 0;
		break;
	case 1:
		s->plen = 1;
		break;
	case 2:
		s->plen = f->mss + range(1, 8);
		break;
	case 3:
		s->plen = f->mss - range(1, 8);
		break;
	default:
		s->plen = rn(f->mss + 200);
		break;
	}
	emit(s);
}

void k_flags(struct spec *s)
{
	static const uint16_t odd[] = {
		F_SYN, F_FIN, F_RST, F_URG, F_ECE, F_CWR, F_PSH, F_SYN | F_FIN,
		F_FIN | F_PSH, F_RST | F_ACK, 0, 0x100, 0x200, 0x400, 0x800,
	};

	if (chance(70)) {
		s->flags = F_ACK | odd[rn(sizeof(odd) / sizeof(odd[0]))];
		if (chance(15))
			s->flags &= ~F_ACK;
	} else {
		s->flags = rn(0x1000);
	}
	if (s->flags & F_URG)
		s->urg = chance(50) ? rn(s->plen + 1) : rn(65536);
	emit(s);
}

void k_ackwin(struct spec *s)
{
	if (chance(50))
		s->ack += chance(50) ? range(1, 3) : -range(1, 100000);
	else
		s->win = chance(30) ? 0 : rn(65536);
	emit(s);
}

void k_tcpopt(struct spec *s)
{
	s->toptlen = tcp_options(s->f, s->topt, 40);
	pad_options(s);
	if (s->toptlen > 40)
		s->toptlen = 40;
	if (chance(10))
		s->doff = range(5, 15);	/* may not say how long they are */
	emit(s);
}

void k_tsopt(struct spec *s)
{
	struct flow *f = s->f;
	uint32_t tsval = f->tsval, tsecr = f->tsecr;
	uint8_t *o = s->topt;

	switch (rn(6)) {
	case 0:
		tsval += 1;
		break;
	case 1:
		tsecr = chance(50) ? 0 : tsecr + range(1, 1000);
		break;
	case 2:
		if (!f->conn)
			tsval -= range(1, 1000);
		break;
	case 3:
		if (!f->conn)
			tsval = rnd();
		break;
	}
	if (f->conn && tsval > f->tsval)
		f->tsval = tsval;
	switch (rn(7)) {
	case 0:		/* aligned, as the trains (on a flow without: not) */
		put_ts(o, tsval, tsecr);
		s->toptlen = 12;
		break;
	case 1:		/* first, then the padding */
		memcpy(o, "\x08\x0a", 2);
		put32(o + 2, tsval);
		put32(o + 6, tsecr);
		memcpy(o + 10, chance(50) ? "\x01\x01" : "\x00\x00", 2);
		s->toptlen = 12;
		break;
	case 2:		/* twice */
		put_ts(o, tsval, tsecr);
		memcpy(o + 12, o, 12);
		s->toptlen = 24;
		break;
	case 3:		/* a wrong length: not a timestamp, the parser stops */
		put_ts(o, tsval, tsecr);
		o[3] = chance(50) ? 9 : 11;
		s->toptlen = 12;
		break;
	case 4:		/* with more options after it */
		put_ts(o, tsval, tsecr);
		s->toptlen = 12 + tcp_options(f, o + 12, 28);
		pad_options(s);
		break;
	case 5:		/* none on a flow with them */
		s->toptlen = 0;
		break;
	default:	/* the word of an aligned timestamp, cut short */
		put_ts(o, tsval, tsecr);
		s->toptlen = 8;
		break;
	}
	emit(s);
}

void k_doff(struct spec *s)
{
	switch (rn(4)) {
	case 0:
		s->doff = rn(5);
		break;
	case 1:		/* past the frame */
		s->plen = rn(40);
		s->doff = range(6, 15);
		if (s->f->conn)
			s->csum = CS_PAYLOAD;
		break;
	case 2:		/* over the payload: part of it taken for options */
		s->doff = range(6, 15);
		if (s->f->conn)	/* else TCP takes the wrong bytes, rightly */
			s->csum = range(CS_PAYLOAD, CS_FIELD);
		break;
	default:	/* short of the options */
		if (s->toptlen)
			s->doff = 5 + rn(s->toptlen / 4);
		else
			s->doff = rn(5);
		break;
	}
	emit(s);
}

void k_csum(struct spec *s)
{
	if (!s->v6 && chance(25))
		s->ip_csum_bad = true;
	else
		s->csum = range(CS_PAYLOAD, CS_FIELD);
	emit(s);
}
