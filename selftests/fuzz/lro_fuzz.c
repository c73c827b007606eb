// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz: malformed and odd TCP frames, mixed with valid trains of the
 * same flows, sent out of one end of a veth pair at LRO on the other end
 * (selftests/fuzz.sh).
 *
 *   lro_fuzz --srv-netns /run/netns/NS [--cli-netns /run/netns/NS]
 *            [--dev veth-cli] --dst-mac MAC [--frames N] [--seed S]
 *            [--hold-us N] [--scale N] [--timeout S] [--cpu N] [--pcap FILE]
 *   lro_fuzz --replay FILE.pcap [--cli-netns PATH] [--dev veth-cli]
 *
 * Sends from --dev in the sender's network namespace (--cli-netns, else
 * its own), from CPU --cpu if given. Five of its ten flows are real TCP
 * connections (three IPv4, one of them in 8 KB jumbo frames and one with
 * a 536-byte MSS; two IPv6, one with Hop-by-Hop and Destination options in
 * every segment) to listening sockets it opens in the receiver's
 * namespace (--srv-netns), as 10.77.0.101 and fd77::101: it makes the
 * handshakes itself from an address the sender's kernel does not own (its
 * replies go to a MAC nobody has, so that kernel drops them as for
 * another host), sends each connection's stream within the receiver's
 * window, retransmits what is not acknowledged, and reads the other end.
 * Byte N of every stream is a function of the flow and N, and so is the
 * payload of every frame of a connection that the receiver may accept, in
 * or out of sequence, whatever else is wrong with it; every byte read
 * must be that byte. A frame of a connection that must not reach the
 * socket (bad checksum, FIN/RST/URG, another host's MAC or VLAN, a wrong
 * EtherType) carries a wrong payload or a wrong checksum: if LRO merged
 * it where the stack would have dropped it, the stream shows it. The
 * other flows go to a closed port and anything goes there.
 *
 * --frames counts the malformed and odd frames; the valid trains (runs of
 * in-sequence segments without PSH, 1 to 70 long, interleaved, now and then
 * one sent whole) come on top, with a train of 64 of two of the other
 * flows first. When the frames are sent, the connections are completed
 * (every byte any frame offered is delivered), within --timeout seconds
 * (times --scale, as the retransmission timeout: a slower kernel).
 *
 * The seed is printed; --seed replays the same choices (what the receiver
 * acknowledges, and so where retransmissions fall, depends on timing).
 * --pcap records every frame sent, and --replay sends a recording again
 * without the connections: for a crash, not for the stream check. The
 * frames address the receiver's MAC as recorded, so replay into the same
 * topology (selftests/fuzz.sh sets fixed MACs).
 *
 * Exit status: 0 done, 1 a check failed (stream, connection, stall),
 * 2 usage or setup error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FRAME	9200	/* a 9000-byte MTU, two tags, a trailer */
#define BATCH		32
#define RING		512	/* frames kept for a failure's report */

/* TCP flags; AE and the reserved bits are the low nibble of byte 12 */
#define F_FIN	0x01
#define F_SYN	0x02
#define F_RST	0x04
#define F_PSH	0x08
#define F_ACK	0x10
#define F_URG	0x20
#define F_ECE	0x40
#define F_CWR	0x80

static void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("lro_fuzz: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --- randomness: xoshiro256** seeded by splitmix64 --------------------- */

static uint64_t rs[4];

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rnd(void)
{
	uint64_t r = rotl(rs[1] * 5, 7) * 9, t = rs[1] << 17;

	rs[2] ^= rs[0];
	rs[3] ^= rs[1];
	rs[1] ^= rs[2];
	rs[0] ^= rs[3];
	rs[2] ^= t;
	rs[3] = rotl(rs[3], 45);
	return r;
}

static int rn(int n)	/* 0..n-1 */
{
	return n > 0 ? (int)(rnd() % n) : 0;
}

static int range(int lo, int hi)	/* lo..hi */
{
	return lo + (int)rn(hi - lo + 1);
}

static bool chance(int pct)
{
	return rn(100) < pct;
}

static void rfill(uint8_t *p, int n)
{
	while (n-- > 0)
		*p++ = rnd();
}

/* --- what a stream carries: byte N of flow F ---------------------------- */

static uint64_t pat_word(int flow, uint64_t off)
{
	uint64_t x = (off >> 3) ^ ((uint64_t)(flow + 1) << 56);

	return splitmix(&x);
}

static void pat_fill(int flow, uint64_t off, uint8_t *p, int n)
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
static struct flow flows[NFLOWS];

static uint8_t srv_mac[6], cli_mac[6];
static struct in_addr cli4, srv4;
static struct in6_addr cli6, srv6;
static uint16_t port4 = 5100;	/* listening; +1 for IPv6; +2 closed */

/* How far @f's stream goes: what was sent, or offered out of sequence. */
static uint64_t flow_top(const struct flow *f)
{
	return f->hi > f->nxt ? f->hi : f->nxt;
}

/* --- one frame ------------------------------------------------------------ */

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

static unsigned long n_fuzz, n_valid, n_sent, n_err, n_bytes;
static unsigned long n_kind[32];
static unsigned long frag_id = 1;

/* --- checksums ------------------------------------------------------------ */

static uint64_t sum16(const uint8_t *p, int n, uint64_t s)
{
	for (; n > 1; p += 2, n -= 2)
		s += p[0] << 8 | p[1];
	if (n > 0)
		s += p[0] << 8;
	return s;
}

static uint16_t fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* A 16-bit word changed into one that is not the same in ones' complement
 * (0 and 0xffff are): the sum it is part of is wrong afterwards.
 */
static uint16_t wrong16(uint16_t v)
{
	return v ^ range(1, 0xfffe);
}

/* One byte changed: a ones' complement sum always notices one. */
static void wrong8(uint8_t *p)
{
	*p ^= range(1, 255);
}

/* The timestamp option as the trains send it: two NOPs, then kind 8,
 * length 10, @tsval and @tsecr; 12 bytes at @o.
 */
static void put_ts(uint8_t *o, uint32_t tsval, uint32_t tsecr)
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

/* The IPv4 header checksum over @len bytes at @ip, its field zeroed first. */
static uint16_t ip4_csum(uint8_t *ip, int len)
{
	put16(ip + 10, 0);
	return fold(sum16(ip, len, 0));
}

/* --- building ------------------------------------------------------------- */

static int l2_len(const struct spec *s)
{
	return 14 + 4 * s->ntag;
}

static int l3_len(const struct spec *s)
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

static int hdr_len(const struct spec *s)
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

static int build(struct spec *s, uint8_t *b)
{
	uint8_t *l3, *th, *p;
	int tcplen, ipl, n, i, ihl, csum_len;
	uint16_t c;

	fit(s);
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
	l3 = p + 2;
	th = l3 + l3_len(s);
	tcplen = 20 + s->toptlen + s->plen;
	ipl = th - l3 + tcplen;

	/* TCP */
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

	/* the IP header's length field, and what the checksum covers */
	n = s->tot_len >= 0 ? s->tot_len : s->v6 ? ipl - 40 : ipl;
	csum_len = tcplen;
	if (s->csum == CS_SHORT) {
		csum_len = (s->v6 ? n + 40 : n) - (int)(th - l3);
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

	if (s->v6) {
		put32(l3, (s->version >= 0 ? s->version : 6) << 28 |
			  s->tclass << 20 | (s->flowlbl & 0xfffff));
		put16(l3 + 4, n);
		l3[6] = s->nh;
		l3[7] = s->hlim;
		memcpy(l3 + 8, &cli6, 16);
		memcpy(l3 + 24, &srv6, 16);
		memcpy(l3 + 40, s->ext, s->extlen);
	} else {
		ihl = s->ihl >= 0 ? s->ihl : 5 + s->ipoptlen / 4;
		l3[0] = (s->version >= 0 ? s->version : 4) << 4 | (ihl & 15);
		l3[1] = s->tos;
		put16(l3 + 2, n);
		put16(l3 + 4, s->ip_id);
		put16(l3 + 6, s->frag_off);
		l3[8] = s->ttl;
		l3[9] = s->proto;
		memcpy(l3 + 12, &cli4, 4);
		memcpy(l3 + 16, &srv4, 4);
		memcpy(l3 + 20, s->ipopt, s->ipoptlen);
		/* over what the IHL says, as far as the frame goes: a lying
		 * IHL still passes the header checksum
		 */
		n = ihl < 5 ? 20 : ihl * 4;
		if (n > ipl)
			n = ipl;
		c = ip4_csum(l3, n);
		put16(l3 + 10, s->ip_csum_bad ? wrong16(c) : c);
	}
	n = th + tcplen - b;
	rfill(b + n, s->trailer);
	n += s->trailer;
	if (s->cut > 0 && s->cut < n)
		n = s->cut;
	return n;
}

/* --- sending -------------------------------------------------------------- */

static int txfd, rxfd;
static struct mmsghdr msgs[BATCH];
static struct iovec iovs[BATCH];
static uint8_t bufs[BATCH][MAX_FRAME];
static int nbatch;
static FILE *pcap;

struct ring_ent {
	unsigned long n;
	int flow, kind, len;
	int64_t off;
	int plen;
	uint8_t b[256];		/* the headers and the start of the payload */
};
static struct ring_ent ring[RING];

static const char *const kind_names[] = {
	"valid", "dup", "jump", "size", "flags", "ackwin", "tcpopt", "tsopt",
	"doff", "ihl", "ipopt", "ipfield", "len", "trunc", "frag", "exthdr",
	"csum", "vlan", "proto", "mac", "mutate",
};

enum kind {
	K_VALID, K_DUP, K_JUMP, K_SIZE, K_FLAGS, K_ACKWIN, K_TCPOPT, K_TSOPT,
	K_DOFF, K_IHL, K_IPOPT, K_IPFIELD, K_LEN, K_TRUNC, K_FRAG, K_EXTHDR,
	K_CSUM, K_VLAN, K_PROTO, K_MAC, K_MUTATE, K_NR
};

static void flush_batch(void)
{
	int i = 0, r;

	while (i < nbatch) {
		r = sendmmsg(txfd, msgs + i, nbatch - i, 0);
		if (r < 0) {
			if (errno == ENOBUFS || errno == EAGAIN) {
				usleep(1000);
				continue;
			}
			/* this frame was refused (EMSGSIZE, EINVAL): the next */
			n_err++;
			i++;
			continue;
		}
		n_sent += r;
		i += r;
	}
	nbatch = 0;
}

static void pcap_write(const uint8_t *b, int len)
{
	struct timespec ts;
	uint32_t h[4];

	if (!pcap)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	h[0] = ts.tv_sec;
	h[1] = ts.tv_nsec / 1000;
	h[2] = len;
	h[3] = len;
	fwrite(h, sizeof(h), 1, pcap);
	fwrite(b, len, 1, pcap);
}

static void queue(const uint8_t *b, int len, const struct spec *s)
{
	static unsigned long seq;
	struct ring_ent *r = &ring[seq % RING];

	memcpy(bufs[nbatch], b, len);
	iovs[nbatch].iov_base = bufs[nbatch];
	iovs[nbatch].iov_len = len;
	nbatch++;
	pcap_write(b, len);
	n_bytes += len;
	r->n = seq++;
	r->flow = s ? s->f->id : -1;
	r->kind = s ? s->kind : -1;
	r->len = len;
	r->off = s ? s->off : 0;
	r->plen = s ? s->plen : 0;
	memcpy(r->b, b, len < (int)sizeof(r->b) ? len : (int)sizeof(r->b));
	if (nbatch == BATCH)
		flush_batch();
}

/* The frame's stream bytes, for the report of a failure; and, for a
 * connection, how far the stream may have to go to deliver them: no
 * further than a window (64 KB without window scaling) past what was
 * offered before, or the receiver cannot take them.
 */
static void offered(struct flow *f, int64_t off, int plen)
{
	uint64_t top = flow_top(f) + 65536 + 16384;

	if (!f->conn || off < 0 || !plen)
		return;
	if ((uint64_t)off + plen <= top && (uint64_t)off + plen > f->hi)
		f->hi = off + plen;
}

/* @n frames of @s queued: counted, and what they offered noted. */
static void account(const struct spec *s, int n)
{
	offered(s->f, s->off, s->plen);
	if (s->kind == K_VALID)
		n_valid += n;
	else
		n_fuzz += n;
	n_kind[s->kind] += n;
}

static void sanitize(struct spec *s);

static void emit(struct spec *s)
{
	static uint8_t b[MAX_FRAME];

	sanitize(s);
	queue(b, build(s, b), s);
	account(s, 1);
}

/* --- the connections: ACKs and the accepted sockets ---------------------- */

static int lsock4 = -1, lsock6 = -1;
static bool failed;
static uint64_t seed;

static struct flow *flow_by_ports(bool v6, uint16_t sport, uint16_t dport)
{
	int i;

	for (i = 0; i < NFLOWS; i++)
		if (flows[i].conn && flows[i].v6 == v6 &&
		    flows[i].sport == dport && flows[i].dport == sport)
			return &flows[i];
	return NULL;
}

/* the receiver's timestamp value, for our TSecr */
static void parse_ts(struct flow *f, const uint8_t *o, int n)
{
	int i = 0;

	while (i < n) {
		if (o[i] == 0)
			return;
		if (o[i] == 1) {
			i++;
			continue;
		}
		if (i + 1 >= n || o[i + 1] < 2)
			return;
		if (o[i] == 8 && o[i + 1] == 10 && i + 10 <= n)
			f->tsecr = get32(o + i + 2);
		i += o[i + 1];
	}
}

static void got_segment(bool v6, const uint8_t *th, int len)
{
	struct flow *f;
	uint32_t seq, ack;
	int64_t d;
	int doff;

	if (len < 20)
		return;
	f = flow_by_ports(v6, get16(th), get16(th + 2));
	if (!f)
		return;
	seq = get32(th + 4);
	ack = get32(th + 8);
	doff = (th[12] >> 4) * 4;
	if (th[13] & F_RST) {
		if (f->state == 2 && !failed) {
			printf("FAIL: flow %d (%s): the receiver reset the connection (seq %u ack %u)\n",
			       f->id, f->name, seq, ack);
			failed = true;
		}
		return;
	}
	if (f->state == 1 && (th[13] & (F_SYN | F_ACK)) == (F_SYN | F_ACK) &&
	    ack == f->iss + 1) {
		f->ack = seq + 1;
		f->swnd = get16(th + 14);
		if (doff > 20 && doff <= len)
			parse_ts(f, th + 20, doff - 20);
		f->state = 2;
		return;
	}
	if (f->state != 2 || !(th[13] & F_ACK))
		return;
	/* how far past what was acknowledged, within 2 GB */
	d = (int32_t)(ack - (uint32_t)(f->iss + 1 + f->una));
	if (d > 0 && f->una + d <= flow_top(f)) {
		f->una += d;
		f->progress = now();
	}
	if (d >= 0)
		f->swnd = get16(th + 14);
	if (f->nxt < f->una)
		f->nxt = f->una;
}

static void rx_poll(void)
{
	static uint8_t b[MAX_FRAME];
	struct sockaddr_ll sll;
	socklen_t sl;
	int n, ihl;
	uint16_t et;

	for (;;) {
		sl = sizeof(sll);
		n = recvfrom(rxfd, b, sizeof(b), MSG_DONTWAIT,
			     (struct sockaddr *)&sll, &sl);
		if (n < 0)
			return;
		if (sll.sll_pkttype == PACKET_OUTGOING || n < 14 + 20)
			continue;
		et = get16(b + 12);
		if (et == ETH_P_IP) {
			ihl = (b[14] & 15) * 4;
			if (b[14 + 9] != IPPROTO_TCP || ihl < 20 ||
			    memcmp(b + 14 + 12, &srv4, 4) || n < 14 + ihl + 20)
				continue;
			got_segment(false, b + 14 + ihl, n - 14 - ihl);
		} else if (et == ETH_P_IPV6 && n >= 14 + 40 + 20) {
			if (b[14 + 6] != IPPROTO_TCP || memcmp(b + 14 + 8, &srv6, 16))
				continue;
			got_segment(true, b + 14 + 40, n - 14 - 40);
		}
	}
}

static void dump_frames(const struct flow *f, uint64_t off)
{
	int i, j, shown = 0;

	printf("# the last frames of flow %d carrying stream offset %llu, or near it (oldest first; all: --pcap):\n",
	       f->id, (unsigned long long)off);
	for (i = 0; i < RING; i++) {
		const struct ring_ent *r = &ring[i];

		/* near it too: a frame whose headers lie moves its payload */
		if (r->flow != f->id || r->off > (int64_t)off + 64 ||
		    r->off + r->plen + 64 <= (int64_t)off || r->len == 0)
			continue;
		printf("# frame %lu, %s, %d bytes, payload at %lld+%d:\n#   ",
		       r->n, kind_names[r->kind], r->len, (long long)r->off,
		       r->plen);
		for (j = 0; j < r->len && j < (int)sizeof(r->b); j++)
			printf("%02x%s", r->b[j], j % 32 == 31 ? "\n#   " : "");
		printf("\n");
		if (++shown == 16)
			break;
	}
	if (!shown)
		printf("#   (none left in the last %d frames)\n", RING);
}

static void check_stream(struct flow *f, const uint8_t *b, int n)
{
	static uint8_t want[1 << 16];
	int i;

	pat_fill(f->id, f->rcvd, want, n);
	if (memcmp(b, want, n)) {
		for (i = 0; b[i] == want[i]; i++)
			;
		printf("FAIL: flow %d (%s): byte %llu of the stream (seq %u) is 0x%02x, sent 0x%02x (seed %llu)\n",
		       f->id, f->name, (unsigned long long)(f->rcvd + i),
		       (uint32_t)(f->iss + 1 + f->rcvd + i), b[i], want[i],
		       (unsigned long long)seed);
		dump_frames(f, f->rcvd + i);
		failed = true;
	}
	f->rcvd += n;
}

static void sock_poll(void)
{
	static uint8_t b[1 << 16];
	struct sockaddr_storage ss;
	socklen_t sl;
	struct flow *f;
	int i, fd, n;

	for (i = 0; i < 2; i++) {
		int l = i ? lsock6 : lsock4;

		for (;;) {
			sl = sizeof(ss);
			fd = accept4(l, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK);
			if (fd < 0)
				break;
			/* the peer's port is the flow's source port */
			f = flow_by_ports(i, port4 + i,
					  ntohs(i ? ((struct sockaddr_in6 *)&ss)->sin6_port :
						    ((struct sockaddr_in *)&ss)->sin_port));
			if (!f || f->fd >= 0)
				die(2, "accepted a connection that is not ours");
			f->fd = fd;
		}
	}
	for (i = 0; i < NFLOWS; i++) {
		f = &flows[i];
		if (f->fd < 0)
			continue;
		for (;;) {
			n = read(f->fd, b, sizeof(b));
			if (n > 0) {
				check_stream(f, b, n);
				continue;
			}
			if (n == 0 || errno != EAGAIN) {
				if (!failed)
					printf("FAIL: flow %d (%s): the stream ended after %llu bytes: %s\n",
					       f->id, f->name,
					       (unsigned long long)f->rcvd,
					       n ? strerror(errno) : "EOF (a FIN got through)");
				failed = true;
				close(f->fd);
				f->fd = -1;
			}
			break;
		}
	}
}

/* --- frames of a flow ------------------------------------------------------ */

static uint32_t seq_of(const struct flow *f, int64_t off)
{
	return f->iss + 1 + (uint32_t)off;
}

/* A valid segment of @f at stream offset @off, as its trains send them. */
static void spec_init(struct spec *s, struct flow *f, int kind)
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
static void next_id(struct spec *s)
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
static void sanitize(struct spec *s)
{
	bool moves = s->doff >= 0 ? s->doff != (20 + s->toptlen) / 4 :
		     s->toptlen % 4;

	if (!s->f->conn || (s->csum != CS_GOOD && s->csum != CS_SHORT))
		return;
	/* a doff that is not the header's moves the payload TCP takes */
	if ((s->flags & (F_FIN | F_RST | F_URG)) || moves)
		s->csum = range(CS_PAYLOAD, CS_FIELD);
}

/* An option of kind @kind, @len bytes, at *@n in @o (@max bytes long; TCP
 * and IPv4 options are alike there): where it goes, *@n moved past it; or
 * NULL if it does not fit. A random kind or length is drawn by the caller
 * after it fits (and written over these), as it always was: the same seed
 * draws the same numbers.
 */
static uint8_t *opt_put(uint8_t *o, int *n, int max, uint8_t kind, int len)
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

static void k_exthdr(struct spec *s);

/* --- the kinds of frames ----------------------------------------------------- */

static void k_dup(struct spec *s)
{
	struct flow *f = s->f;
	int64_t back = (int64_t)f->mss * range(0, 8) + (chance(20) ? rn(f->mss) : 0);

	s->off -= back;
	if (s->off < 0 && f->conn && chance(80))
		s->off = 0;
	s->seq = seq_of(f, s->off);
	emit(s);
}

static void k_jump(struct spec *s)
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

static void k_size(struct spec *s)
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

static void k_flags(struct spec *s)
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

static void k_ackwin(struct spec *s)
{
	if (chance(50))
		s->ack += chance(50) ? range(1, 3) : -range(1, 100000);
	else
		s->win = chance(30) ? 0 : rn(65536);
	emit(s);
}

static void k_tcpopt(struct spec *s)
{
	s->toptlen = tcp_options(s->f, s->topt, 40);
	pad_options(s);
	if (s->toptlen > 40)
		s->toptlen = 40;
	if (chance(10))
		s->doff = range(5, 15);	/* may not say how long they are */
	emit(s);
}

static void k_tsopt(struct spec *s)
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

static void k_doff(struct spec *s)
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

static void k_ihl(struct spec *s)
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

static void k_ipopt(struct spec *s)
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

static void k_ipfield(struct spec *s)
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

static void k_len(struct spec *s)
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

static void k_trunc(struct spec *s)
{
	int h = hdr_len(s);

	s->cut = range(14, h + (s->plen > 8 ? 8 : s->plen));
	emit(s);
}

/* A valid segment in two fragments, or one of them, or (IPv6) in an
 * atomic fragment; the ID unique to the run, so that no two fragments
 * reassemble into a segment that was never sent.
 */
static int frag_queue(const uint8_t *b, int len, const struct spec *s)
{
	queue(b, len, s);
	return 1;
}

static void k_frag(struct spec *s)
{
	static uint8_t b[MAX_FRAME], b2[MAX_FRAME];
	int len, l2, l3, cut, which, rest, sent = 0;
	uint8_t *fh, *ip;

	sanitize(s);
	if (s->v6) {
		/* a Fragment header after the extension headers */
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
		if (chance(25)) {	/* atomic: offset 0, no more */
			sent += frag_queue(b, len, s);
			goto done;
		}
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
		goto done;
	}
	s->ip_id = frag_id++;
	s->frag_off = 0;
	len = build(s, b);
	l2 = l2_len(s);
	l3 = 20 + s->ipoptlen;
	ip = b + l2;
	rest = len - l2 - l3;
	if (rest < 16) {
		sent += frag_queue(b, len, s);
		goto done;
	}
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
done:
	account(s, sent);
}

static void k_exthdr(struct spec *s)
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

static void k_csum(struct spec *s)
{
	if (!s->v6 && chance(25))
		s->ip_csum_bad = true;
	else
		s->csum = range(CS_PAYLOAD, CS_FIELD);
	emit(s);
}

/* Tagged: the core takes the outer tag out of the frame before LRO sees
 * it (skb_vlan_untag()); a second one stays in it. Only frames whose tags
 * all say VLAN 0 (priority tags) reach TCP here: on a connection, the
 * others carry junk that must never be read.
 */
static void k_vlan(struct spec *s)
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

static void k_proto(struct spec *s)
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

static void k_mac(struct spec *s)
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
static void k_mutate(struct spec *s)
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

/* --- the mix ----------------------------------------------------------------- */

static const int weights[K_NR] = {
	[K_DUP] = 5, [K_JUMP] = 5, [K_SIZE] = 5, [K_FLAGS] = 6, [K_ACKWIN] = 4,
	[K_TCPOPT] = 7, [K_TSOPT] = 6, [K_DOFF] = 5, [K_IHL] = 5,
	[K_IPOPT] = 4, [K_IPFIELD] = 5, [K_LEN] = 7, [K_TRUNC] = 5,
	[K_FRAG] = 5, [K_EXTHDR] = 6, [K_CSUM] = 8, [K_VLAN] = 6,
	[K_PROTO] = 3, [K_MAC] = 2, [K_MUTATE] = 8,
};

/* What makes a frame of each kind out of a valid one; K_VALID is none. */
static void (*const kinds[K_NR])(struct spec *s) = {
	[K_DUP] = k_dup, [K_JUMP] = k_jump, [K_SIZE] = k_size,
	[K_FLAGS] = k_flags, [K_ACKWIN] = k_ackwin, [K_TCPOPT] = k_tcpopt,
	[K_TSOPT] = k_tsopt, [K_DOFF] = k_doff, [K_IHL] = k_ihl,
	[K_IPOPT] = k_ipopt, [K_IPFIELD] = k_ipfield, [K_LEN] = k_len,
	[K_TRUNC] = k_trunc, [K_FRAG] = k_frag, [K_EXTHDR] = k_exthdr,
	[K_CSUM] = k_csum, [K_VLAN] = k_vlan, [K_PROTO] = k_proto,
	[K_MAC] = k_mac, [K_MUTATE] = k_mutate,
};

static int rto_ms = 300;

/* How much a connection may send now: the receiver's window. */
static int64_t room(const struct flow *f)
{
	if (!f->conn)
		return INT64_MAX;
	if (f->state != 2)
		return 0;
	return (int64_t)(f->una + f->swnd) - (int64_t)f->nxt;
}

static void retransmit(struct flow *f, double t)
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

/* The next segment of @f's valid train. */
static void send_valid(struct flow *f, uint64_t limit)
{
	struct spec s;
	int64_t r = room(f);

	if (limit && (int64_t)(limit - f->nxt) < r)
		r = limit - f->nxt;
	if (r <= 0)
		return;
	spec_init(&s, f, K_VALID);
	next_id(&s);
	if (s.plen > r)
		s.plen = r;
	if (f->train <= 1 && f->train_psh)
		s.flags |= F_PSH;
	emit(&s);
	f->nxt += s.plen;
	f->valid++;
	if (f->train > 0)
		f->train--;
}

static void start_train(struct flow *f)
{
	f->train = chance(30) ? range(1, 8) : range(8, 70);
	f->train_psh = chance(20);
}

static struct flow *pick_train(void)
{
	struct flow *c[NFLOWS];
	int i, n = 0, active = 0;

	for (i = 0; i < NFLOWS; i++)
		if (flows[i].train > 0)
			active++;
	if (active < 3)
		start_train(&flows[rn(NFLOWS)]);
	for (i = 0; i < NFLOWS; i++)
		if (flows[i].train > 0 && room(&flows[i]) > 0)
			c[n++] = &flows[i];
	return n ? c[rn(n)] : NULL;
}

static void fuzz_one(void)
{
	struct flow *f;
	struct spec s;
	int k, w = 0, total = 0, i;

	/* mostly a flow with a train on: a malformed frame mid-aggregate */
	f = &flows[rn(NFLOWS)];
	for (i = 0; i < 4 && !f->train; i++)
		f = &flows[rn(NFLOWS)];
	for (k = 0; k < K_NR; k++)
		total += weights[k];
	w = rn(total);
	for (k = 0; w >= weights[k]; k++)
		w -= weights[k];
	spec_init(&s, f, k);
	if (k != K_IPFIELD || chance(50))
		next_id(&s);
	if (chance(10))
		s.flags |= F_PSH;
	kinds[k](&s);
}

/* --- setup --------------------------------------------------------------------- */

static void flow_setup(void)
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

static void parse_mac(const char *s, uint8_t *m)
{
	if (sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2],
		   &m[3], &m[4], &m[5]) != 6)
		die(2, "bad MAC %s", s);
}

static int packet_socket(const char *dev, int proto)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(proto));
	struct ifreq ifr = { 0 };
	int sz = 4 << 20;

	if (fd < 0)
		die(2, "AF_PACKET socket: %s", strerror(errno));
	sll.sll_protocol = htons(proto);
	sll.sll_ifindex = if_nametoindex(dev);
	if (!sll.sll_ifindex)
		die(2, "no device %s", dev);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		die(2, "bind to %s: %s", dev, strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		die(2, "SIOCGIFHWADDR %s: %s", dev, strerror(errno));
	memcpy(cli_mac, ifr.ifr_hwaddr.sa_data, 6);
	return fd;
}

static int listen_on(int family)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port4) };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(port4 + 1) };
	int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;

	if (fd < 0)
		die(2, "socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_addr = srv4;
	sin6.sin6_addr = srv6;
	if (family == AF_INET6 ? bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) :
				 bind(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die(2, "bind port %d: %s", port4 + (family == AF_INET6), strerror(errno));
	if (listen(fd, 16))
		die(2, "listen: %s", strerror(errno));
	return fd;
}

/* A frame of the handshakes: not counted among the trains. */
static void send_setup(struct spec *s)
{
	static uint8_t b[MAX_FRAME];

	queue(b, build(s, b), s);
}

static bool syn_sent(const struct flow *f)
{
	return f->conn && f->state == 1;
}

static bool not_accepted(const struct flow *f)
{
	return f->conn && f->fd < 0;
}

/* Steps (@step: receives) until no flow is @waiting, or until @end: how many
 * still are.
 */
static int wait_for(void (*step)(void), bool (*waiting)(const struct flow *),
		    double end)
{
	int i, pending;

	do {
		pending = 0;
		step();
		for (i = 0; i < NFLOWS; i++)
			if (waiting(&flows[i]))
				pending++;
		if (pending)
			usleep(2000);
	} while (pending && now() < end);
	return pending;
}

/* The handshakes, from addresses the sender's kernel does not own. */
static void connect_all(double timeout)
{
	struct spec s;
	double end = now() + timeout;
	int i, pending;

	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (!f->conn)
			continue;
		spec_init(&s, f, K_VALID);
		s.seq = f->iss;
		s.ack = 0;
		s.flags = F_SYN;
		s.plen = 0;
		memcpy(s.topt, "\x02\x04", 2);
		put16(s.topt + 2, f->mss);
		if (f->ts)
			put_ts(s.topt + 4, f->tsval, 0);
		s.toptlen = f->ts ? 16 : 4;
		send_setup(&s);
		f->state = 1;
	}
	flush_batch();
	pending = wait_for(rx_poll, syn_sent, end);
	if (pending)
		die(1, "FAIL: %d handshakes got no SYN-ACK in %.0f s", pending, timeout);
	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (!f->conn)
			continue;
		spec_init(&s, f, K_VALID);
		s.plen = 0;
		send_setup(&s);
		f->progress = now();
	}
	flush_batch();
	pending = wait_for(sock_poll, not_accepted, end);
	if (pending)
		die(1, "FAIL: %d connections not accepted in %.0f s", pending, timeout);
}

static void join_netns(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die(2, "setns %s: %s", path, strerror(errno));
	close(fd);
}

static void replay(const char *file)
{
	FILE *in = fopen(file, "r");
	uint32_t gh[6], h[4];
	static uint8_t b[MAX_FRAME];

	if (!in)
		die(2, "%s: %s", file, strerror(errno));
	if (fread(gh, sizeof(gh), 1, in) != 1 || gh[0] != 0xa1b2c3d4)
		die(2, "%s: not a pcap file", file);
	while (fread(h, sizeof(h), 1, in) == 1) {
		if (h[2] > sizeof(b) || fread(b, h[2], 1, in) != 1)
			die(2, "%s: truncated", file);
		queue(b, h[2], NULL);
	}
	flush_batch();
	printf("replayed %lu frames, %lu refused\n", n_sent, n_err);
}

static void usage(void)
{
	fputs("usage: lro_fuzz --srv-netns PATH [--cli-netns PATH] [--dev DEV] --dst-mac MAC\n"
	      "                [--frames N] [--seed S] [--hold-us N] [--scale N] [--timeout S]\n"
	      "                [--cpu N] [--pcap FILE]\n"
	      "       lro_fuzz --replay FILE [--cli-netns PATH] [--dev DEV]\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "srv-netns", required_argument, NULL, 'n' },
		{ "dst-mac", required_argument, NULL, 'm' },
		{ "frames", required_argument, NULL, 'f' },
		{ "seed", required_argument, NULL, 's' },
		{ "hold-us", required_argument, NULL, 'h' },
		{ "scale", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 't' },
		{ "pcap", required_argument, NULL, 'p' },
		{ "replay", required_argument, NULL, 'r' },
		{ "cli-netns", required_argument, NULL, 'c' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev = "veth-cli", *netns = NULL, *pcap_file = NULL, *replay_file = NULL;
	const char *cli_netns = NULL;
	int cpu = -1;
	unsigned long frames = 5000, hold_us = 0;
	double timeout = 60, t0, t, last_report = 0;
	int scale = 1, c, i, one = 1, verbose = 0;
	bool have_seed = false, have_mac = false, tap = false;
	uint64_t sm;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'n': netns = optarg; break;
		case 'm': parse_mac(optarg, srv_mac); have_mac = true; break;
		case 'f': frames = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); have_seed = true; break;
		case 'h': hold_us = strtoul(optarg, NULL, 0); break;
		case 'S': scale = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
		case 't': timeout = atof(optarg); break;
		case 'p': pcap_file = optarg; break;
		case 'r': replay_file = optarg; break;
		case 'v': verbose = 1; break;
		case 'c': cli_netns = optarg; break;
		case 'C': cpu = atoi(optarg); break;
		default: usage();
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iovs[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			die(2, "CPU %d: %s", cpu, strerror(errno));
	}
	if (cli_netns)
		join_netns(cli_netns);
	txfd = packet_socket(dev, 0);
	if (replay_file) {
		replay(replay_file);
		return 0;
	}
	if (!netns || !have_mac)
		usage();
	if (!have_seed) {
		int fd = open("/dev/urandom", O_RDONLY);

		if (fd < 0 || read(fd, &seed, sizeof(seed)) != sizeof(seed))
			seed = time(NULL) ^ getpid();
		if (fd >= 0)
			close(fd);
		seed &= 0xffffffffffffull;
	}
	sm = seed;
	for (i = 0; i < 4; i++)
		rs[i] = splitmix(&sm);
	printf("seed %llu (--seed %llu, FUZZ_SEED=%llu replays its choices)\n",
	       (unsigned long long)seed, (unsigned long long)seed,
	       (unsigned long long)seed);
	inet_pton(AF_INET, "10.77.0.101", &cli4);
	inet_pton(AF_INET, "10.77.0.2", &srv4);
	inet_pton(AF_INET6, "fd77::101", &cli6);
	inet_pton(AF_INET6, "fd77::2", &srv6);
	rxfd = packet_socket(dev, ETH_P_ALL);
	setsockopt(rxfd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (pcap_file) {
		uint32_t gh[6] = { 0xa1b2c3d4, 2 | 4 << 16, 0, 0, 65535, 1 };

		pcap = fopen(pcap_file, "w");
		if (!pcap)
			die(2, "%s: %s", pcap_file, strerror(errno));
		fwrite(gh, sizeof(gh), 1, pcap);
	}
	/* the receiving end's sockets live in its namespace */
	join_netns(netns);
	lsock4 = listen_on(AF_INET);
	lsock6 = listen_on(AF_INET6);

	rto_ms = (200 + 2 * hold_us / 1000) * scale;
	flow_setup();
	t0 = now();
	connect_all(10.0 * scale);
	/* First a train of 64 on a flow whose 64 segments fit in 64 KB, and
	 * one of a jumbo flow that does not: max_aggr and the size limit
	 * end them, if the hold time does not first.
	 */
	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (f->conn || (f->mss * 64 > 65000 && f->mtu < 9000))
			continue;
		f->train = 64;
		f->train_psh = false;
		while (f->train > 0)
			send_valid(f, 0);
	}

	/* the frames: valid trains and malformed ones, interleaved */
	while (n_fuzz < frames && !failed) {
		/* now and then our own tap holds a clone of each frame sent:
		 * LRO then sees shared (cloned) skbs
		 */
		if (n_fuzz % 1024 == 0 && chance(50)) {
			int v = tap;

			tap = !tap;
			setsockopt(rxfd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &v, sizeof(v));
		}
		if ((n_fuzz + n_valid) % 97 == 0)
			for (i = 0; i < NFLOWS; i++)
				flows[i].tsval++;
		if (chance(55)) {
			struct flow *f = pick_train();

			if (!f)
				goto fuzz;
			/* now and then a whole train at once, as a burst
			 * fills a receive ring: max_aggr and 64 KB are
			 * reached before the hold time ends it
			 */
			if (chance(3))
				while (f->train > 0 && room(f) > 0)
					send_valid(f, 0);
			else
				send_valid(f, 0);
			goto sent;
		}
fuzz:
		fuzz_one();
sent:
		if (nbatch == 0) {	/* a batch went out: what came back */
			rx_poll();
			sock_poll();
			t = now();
			for (i = 0; i < NFLOWS; i++)
				retransmit(&flows[i], t);
			if (verbose && t - last_report > 5) {
				printf("# %lu malformed, %lu valid frames\n", n_fuzz, n_valid);
				last_report = t;
			}
		}
	}
	flush_batch();

	/* Complete the connections: every byte offered, delivered. */
	for (i = 0; i < NFLOWS; i++)
		flows[i].total = flow_top(&flows[i]);
	t = now();
	while (!failed) {
		bool done = true;

		for (i = 0; i < NFLOWS; i++) {
			struct flow *f = &flows[i];

			if (!f->conn || f->rcvd >= f->total)
				continue;
			done = false;
			retransmit(f, now());
			while (f->nxt < f->total && room(f) > 0) {
				f->train = 2;
				send_valid(f, f->total);
			}
		}
		flush_batch();
		if (done)
			break;
		if (now() - t > timeout * scale) {
			for (i = 0; i < NFLOWS; i++) {
				struct flow *f = &flows[i];

				if (f->conn && f->rcvd < f->total)
					printf("FAIL: flow %d (%s): %llu of %llu bytes read after %.0f s (acknowledged %llu, window %u, %lu retransmissions)\n",
					       f->id, f->name, (unsigned long long)f->rcvd,
					       (unsigned long long)f->total, timeout * scale,
					       (unsigned long long)f->una, f->swnd, f->retrans);
			}
			failed = true;
			break;
		}
		usleep(1000);
		rx_poll();
		sock_poll();
	}
	if (pcap)
		fclose(pcap);

	printf("%lu malformed and %lu valid frames in %.1f s (%lu bytes; %lu refused by AF_PACKET)\n",
	       n_fuzz, n_valid, now() - t0, n_bytes, n_err);
	printf("kinds:");
	for (i = 1; i < K_NR; i++)
		printf(" %s %lu", kind_names[i], n_kind[i]);
	printf("\n");
	for (i = 0; i < NFLOWS; i++) {
		struct flow *f = &flows[i];

		if (f->conn)
			printf("flow %d (%s): %llu bytes read and checked, %lu valid segments, %lu retransmissions\n",
			       i, f->name, (unsigned long long)f->rcvd, f->valid, f->retrans);
	}
	/* closed with a RST: nobody would answer a FIN */
	for (i = 0; i < NFLOWS; i++) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		if (flows[i].fd < 0)
			continue;
		setsockopt(flows[i].fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(flows[i].fd);
	}
	return failed ? 1 : 0;
}
