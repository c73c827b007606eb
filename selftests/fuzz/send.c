// SPDX-License-Identifier: GPL-2.0
/*
 * lro_fuzz's frames out: the packet sockets, batches of frames sent with
 * sendmmsg(), the counts, the pcap recording and its replay, and the last
 * frames sent, kept for a failure's report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "flow.h"
#include "frame.h"
#include "send.h"
#include "util.h"

#define BATCH		32

int txfd, rxfd;
static struct mmsghdr msgs[BATCH];
static struct iovec iovs[BATCH];
static uint8_t bufs[BATCH][MAX_FRAME];
int nbatch;
static FILE *pcap;

struct ring_ent ring[RING];

unsigned long n_fuzz, n_valid, n_sent, n_err, n_bytes;
unsigned long n_kind[32];

void send_init(void)
{
	int i;

	for (i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_iov = &iovs[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
}

int packet_socket(const char *dev, int proto)
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

/* Every frame sent is recorded in @file (a pcap file), for --replay. */
void pcap_open(const char *file)
{
	uint32_t gh[6] = { 0xa1b2c3d4, 2 | 4 << 16, 0, 0, 65535, 1 };

	pcap = fopen(file, "w");
	if (!pcap)
		die(2, "%s: %s", file, strerror(errno));
	fwrite(gh, sizeof(gh), 1, pcap);
}

void pcap_close(void)
{
	if (pcap)
		fclose(pcap);
}

void flush_batch(void)
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

void queue(const uint8_t *b, int len, const struct spec *s)
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
void account(const struct spec *s, int n)
{
	offered(s->f, s->off, s->plen);
	if (s->kind == K_VALID)
		n_valid += n;
	else
		n_fuzz += n;
	n_kind[s->kind] += n;
}

void replay(const char *file)
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
