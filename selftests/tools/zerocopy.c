// SPDX-License-Identifier: GPL-2.0
/*
 * zerocopy: how long a MSG_ZEROCOPY sender waits for its completions while
 * the receiving application does not read (selftests/zerocopy.sh).
 *
 *   zerocopy recv PORT DELAY_MS
 *	accepts one IPv4 connection on PORT, sleeps DELAY_MS before its
 *	first read, then reads to EOF and checks every byte; prints
 *	"received N bytes" and exits 0, or 1 on a bad byte
 *   zerocopy send ADDR PORT WRITES TIMEOUT_MS
 *	connects (retrying every 100 ms for TIMEOUT_MS), sends WRITES
 *	sendmsg(MSG_ZEROCOPY) of PIECES pieces of PIECE bytes each, every
 *	piece at the start of a page of its own, and waits for the
 *	completions of all of them on the error queue. Prints
 *	"completed MS ms after the last send, C of WRITES copied" (C: those
 *	flagged SO_EE_CODE_ZEROCOPY_COPIED) and exits 0, or 1 if they did not
 *	all come within TIMEOUT_MS. Then it rewrites its pages, as the
 *	completion allows, before it closes: the receiver must still read
 *	what was sent.
 *
 * The small pieces make each segment carry about twelve page fragments,
 * so two segments held together need more than MAX_SKB_FRAGS (17) and a
 * receiver that merges them chains the second on the first's frag_list.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

#define PIECES	17
#define PIECE	128
#define PAGE	4096

static unsigned char pattern(size_t off)
{
	return (unsigned char)(off % 251);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void die(const char *what)
{
	fprintf(stderr, "zerocopy: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int cmd_recv(int port, long delay_ms)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};
	unsigned char buf[65536];
	size_t total = 0, i;
	int one = 1, lfd, fd;
	struct timespec ts;
	ssize_t n;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) || listen(lfd, 1))
		die("bind/listen");
	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		die("accept");
	ts.tv_sec = delay_ms / 1000;
	ts.tv_nsec = delay_ms % 1000 * 1000000;
	nanosleep(&ts, NULL);
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)n; i++) {
			if (buf[i] != pattern(total + i)) {
				printf("byte %zu is %#x, sent %#x\n", total + i,
				       buf[i], pattern(total + i));
				return 1;
			}
		}
		total += n;
	}
	if (n < 0)
		die("read");
	printf("received %zu bytes\n", total);
	return 0;
}

/* Reads the completions queued; returns how many writes they cover. */
static int read_completions(int fd, bool *done, int writes, int *copied)
{
	char control[128];
	struct msghdr msg = {
		.msg_control = control,
		.msg_controllen = sizeof(control),
	};
	struct sock_extended_err *ee;
	struct cmsghdr *cm;
	int n = 0;
	__u32 id;

	while (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (cm->cmsg_level != SOL_IP || cm->cmsg_type != IP_RECVERR)
				continue;
			ee = (struct sock_extended_err *)CMSG_DATA(cm);
			if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			/* ids ee_info..ee_data, one per sendmsg() */
			for (id = ee->ee_info; id <= ee->ee_data; id++) {
				if ((int)id >= writes || done[id])
					continue;
				done[id] = true;
				n++;
				if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
					(*copied)++;
			}
		}
		msg.msg_controllen = sizeof(control);
	}
	if (errno != EAGAIN)
		die("recvmsg(MSG_ERRQUEUE)");
	return n;
}

static int cmd_send(const char *addr, int port, int writes, long timeout_ms)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
	};
	struct iovec iov[PIECES];
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = PIECES };
	int one = 1, fd, i, j, got = 0, copied = 0;
	long start, sent, left;
	unsigned char *pages;
	struct pollfd pfd;
	size_t off = 0;
	bool *done;

	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1) {
		fprintf(stderr, "zerocopy: bad address %s\n", addr);
		return 2;
	}
	start = now_ms();
	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			die("socket");
		if (!connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			break;
		if (errno != ECONNREFUSED || now_ms() - start > timeout_ms)
			die("connect");
		close(fd);
		usleep(100000);
	}
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		die("setsockopt(SO_ZEROCOPY)");

	pages = mmap(NULL, (size_t)writes * PIECES * PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	done = calloc(writes, sizeof(*done));
	if (pages == MAP_FAILED || !done)
		die("memory");
	for (i = 0; i < writes; i++) {
		for (j = 0; j < PIECES; j++) {
			unsigned char *p = pages + ((size_t)i * PIECES + j) * PAGE;
			int k;

			for (k = 0; k < PIECE; k++)
				p[k] = pattern(off++);
			iov[j].iov_base = p;
			iov[j].iov_len = PIECE;
		}
		if (sendmsg(fd, &msg, MSG_ZEROCOPY) != PIECES * PIECE)
			die("sendmsg(MSG_ZEROCOPY)");
	}
	sent = now_ms();

	pfd.fd = fd;
	pfd.events = 0;		/* POLLERR: the error queue has something */
	while (got < writes) {
		left = sent + timeout_ms - now_ms();
		if (left <= 0)
			break;
		if (poll(&pfd, 1, left) < 0)
			die("poll");
		got += read_completions(fd, done, writes, &copied);
	}
	if (got < writes) {
		printf("%d of %d completions after %ld ms\n", got, writes,
		       now_ms() - sent);
		return 1;
	}
	printf("completed %ld ms after the last send, %d of %d copied\n",
	       now_ms() - sent, copied, writes);
	/* The completion says the pages are ours again. */
	memset(pages, 0x5a, (size_t)writes * PIECES * PAGE);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "recv"))
		return cmd_recv(atoi(argv[2]), atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "send"))
		return cmd_send(argv[2], atoi(argv[3]), atoi(argv[4]),
				atol(argv[5]));
	fprintf(stderr, "usage: zerocopy recv PORT DELAY_MS\n"
			"       zerocopy send ADDR PORT WRITES TIMEOUT_MS\n");
	return 2;
}
