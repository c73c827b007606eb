// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz's connections: the listening sockets, the handshakes, the
 * ACKs that come back, the accepted sockets read, and the streams
 * completed at the end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "conn.h"
#include "flow.h"
#include "frame.h"
#include "mix.h"
#include "send.h"
#include "tcp.h"
#include "util.h"

static int lsock4 = -1, lsock6 = -1;

/* --- what comes back: ACKs ------------------------------------------------- */

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

void rx_poll(void)
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

void sock_poll(void)
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

/* --- setup ------------------------------------------------------------------ */

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

/* The listening sockets, in the receiver's namespace. */
void conn_listen(void)
{
	lsock4 = listen_on(AF_INET);
	lsock6 = listen_on(AF_INET6);
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
void connect_all(double timeout)
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

/* Complete the connections: every byte offered, delivered, within @secs
 * seconds.
 */
void complete_all(double secs)
{
	double t;
	int i;

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
		if (now() - t > secs) {
			report_stalled(secs);
			failed = true;
			break;
		}
		usleep(1000);
		rx_poll();
		sock_poll();
	}
}

/* Closed with a RST: nobody would answer a FIN. */
void close_all(void)
{
	int i;

	for (i = 0; i < NFLOWS; i++) {
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		if (flows[i].fd < 0)
			continue;
		setsockopt(flows[i].fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(flows[i].fd);
	}
}
