// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz's ten flows: five real TCP connections and five to a closed
 * port, what their streams carry, and where each stands.
 */
#include <string.h>

#include "flow.h"
#include "util.h"

/* --- what a stream carries: byte N of flow F ---------------------------- */

static uint64_t pat_word(int flow, uint64_t off)
{
	uint64_t x = (off >> 3) ^ ((uint64_t)(flow + 1) << 56);

	return splitmix(&x);
}

void pat_fill(int flow, uint64_t off, uint8_t *p, int n)
{
	uint64_t w = pat_word(flow, off);
	int i;

	for (i = 0; i < n; i++, off++) {
		if (i && !(off & 7))
			w = pat_word(flow, off);
		p[i] = w >> ((off & 7) * 8);
	}
}

/* --- the flows ------------------------------------------------------------ */

struct flow flows[NFLOWS];
uint8_t srv_mac[6], cli_mac[6];
struct in_addr cli4, srv4;
struct in6_addr cli6, srv6;
uint16_t port4 = 5100;
int rto_ms = 300;

void flow_setup(void)
{
	static const struct {
		const char *name;
		bool v6, conn, ts;
		int mss, mtu, ext;
	} fl[NFLOWS] = {
		{ "IPv4 connection, timestamps", false, true, true, 1448, 1500, 0 },
		{ "IPv4 connection, 536-byte MSS", false, true, false, 536, 1500, 0 },
		{ "IPv6 connection, timestamps, extension headers", true, true, true, 1392, 1500, 1 },
		{ "IPv4 connection, jumbo frames", false, true, true, 8000, 9000, 0 },
		{ "IPv6 connection", true, true, false, 1440, 1500, 0 },
		{ "IPv4 to a closed port, timestamps", false, false, true, 1448, 1500, 0 },
		{ "IPv4 to a closed port", false, false, false, 1000, 1500, 0 },
		{ "IPv6 to a closed port, timestamps", true, false, true, 1428, 1500, 0 },
		{ "IPv6 to a closed port, extension headers", true, false, false, 1200, 1500, 1 },
		{ "IPv6 to a closed port, jumbo frames", true, false, false, 8900, 9000, 0 },
	};
	int i;

	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		memset(f, 0, sizeof(*f));
		f->id = i;
		f->name = fl[i].name;
		f->v6 = fl[i].v6;
		f->conn = fl[i].conn;
		f->ts = fl[i].ts;
		f->mss = fl[i].mss;
		f->mtu = fl[i].mtu;
		/* the rounds of a test use consecutive seeds: other ports,
		 * whatever the receiver still has of the last round's
		 */
		f->sport = 33000 + i * 1000 + seed % 1000;
		f->dport = f->conn ? port4 + f->v6 : port4 + 2;
		if (fl[i].ext) {
			/* Hop-by-Hop and Destination options, PadN only */
			memcpy(f->ext, "\x3c\x00\x01\x04\x00\x00\x00\x00"
				       "\x06\x00\x01\x04\x00\x00\x00\x00", 16);
			f->extlen = 16;
		}
		f->ttl = f->hlim = 64;
		f->df = chance(70);
		f->ip_id = rn(65536);
		f->flowlbl = rn(1 << 20);
		/* the stream wraps its sequence numbers soon */
		f->iss = -(uint32_t)range(1, 65536 * 4);
		f->tsval = rnd() & 0x7fffffff;
		f->tsecr = f->conn ? 0 : rnd();
		f->ack = f->conn ? 0 : rnd();
		f->win = range(1000, 65535);
		f->fd = -1;
	}
}

struct flow *flow_by_ports(bool v6, uint16_t sport, uint16_t dport)
{
	int i;

	for (i = 0; i < NFLOWS; i++)
		if (flows[i].conn && flows[i].v6 == v6 &&
		    flows[i].sport == dport && flows[i].dport == sport)
			return &flows[i];
	return NULL;
}

/* How far @f's stream goes: what was sent, or offered out of sequence. */
uint64_t flow_top(const struct flow *f)
{
	return f->hi > f->nxt ? f->hi : f->nxt;
}

uint32_t seq_of(const struct flow *f, int64_t off)
{
	return f->iss + 1 + (uint32_t)off;
}

/* How much a connection may send now: the receiver's window. */
int64_t room(const struct flow *f)
{
	if (!f->conn)
		return INT64_MAX;
	if (f->state != 2)
		return 0;
	return (int64_t)(f->una + f->swnd) - (int64_t)f->nxt;
}

void retransmit(struct flow *f, double t)
{
	if (!f->conn || f->state != 2)
		return;
	if (f->nxt < f->una)
		f->nxt = f->una;
	if (f->una < f->nxt && t - f->progress > rto_ms / 1000.0) {
		f->nxt = f->una;	/* go back N */
		f->progress = t;
		f->retrans++;
	}
}
