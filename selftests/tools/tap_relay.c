// SPDX-License-Identifier: GPL-2.0
/*
 * tap_relay: a minimal userspace VPN for selftests/tun.sh. It creates two
 * tap devices, then copies every frame read from one to the other, both
 * ways, one write() per frame, until SIGTERM or SIGINT:
 *
 *   tap_relay TAP_A TAP_B
 *
 * Once both taps exist it prints "ready" on stdout (the caller then moves
 * them into their network namespaces; the relay keeps its file
 * descriptors, so it need not follow). On exit it prints on stderr
 * "a_to_b=N b_to_a=N write_errors=N dropped_gso=N".
 *
 * The taps are opened without IFF_NAPI, with IFF_VNET_HDR and without
 * TUNSETOFFLOAD: the kernel hands us MSS-sized segments with full
 * checksums (no GSO, no checksum offload towards userspace), and each
 * frame is written back with a zeroed virtio_net_hdr, as wireguard-go
 * writes a packet it did not coalesce. In the kernel such a write is
 * tun_get_user() -> tun_rx_batched() -> netif_receive_skb() with
 * ip_summed CHECKSUM_NONE, and never napi_gro_receive().
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <linux/virtio_net.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define HDR_LEN sizeof(struct virtio_net_hdr)
#define BATCH 64	/* frames read from one tap before looking at the other */

static volatile sig_atomic_t stop;
static unsigned long write_errors, dropped_gso;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int tap_open(const char *name)
{
	struct ifreq ifr = { .ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR };
	int fd;

	if (strlen(name) >= IFNAMSIZ)
		errx(1, "device name '%s' too long", name);
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		err(1, "open /dev/net/tun");
	strcpy(ifr.ifr_name, name);
	if (ioctl(fd, TUNSETIFF, &ifr))
		err(1, "TUNSETIFF %s", name);
	return fd;
}

/* Up to BATCH frames from @from to @to; returns how many were read. */
static unsigned long relay(int from, int to)
{
	static char buf[HDR_LEN + 65536];
	struct virtio_net_hdr *h = (struct virtio_net_hdr *)buf;
	unsigned long n;
	ssize_t len;

	for (n = 0; n < BATCH; n++) {
		len = read(from, buf, sizeof(buf));
		if (len < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			err(1, "read");
		}
		if ((size_t)len <= HDR_LEN)
			continue;
		/* No offloads were asked for, so the kernel sends none. */
		if (h->gso_type != VIRTIO_NET_HDR_GSO_NONE) {
			dropped_gso++;
			continue;
		}
		memset(h, 0, HDR_LEN);
		/* EIO while the other tap is down: lost, as on a wire. */
		if (write(to, buf, len) != len)
			write_errors++;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long a_to_b = 0, b_to_a = 0;
	struct pollfd p[2];

	if (argc != 3) {
		fprintf(stderr, "usage: tap_relay TAP_A TAP_B\n");
		return 2;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	p[0].fd = tap_open(argv[1]);
	p[1].fd = tap_open(argv[2]);
	p[0].events = p[1].events = POLLIN;
	printf("ready\n");
	fflush(stdout);

	while (!stop) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		if (p[0].revents & POLLIN)
			a_to_b += relay(p[0].fd, p[1].fd);
		if (p[1].revents & POLLIN)
			b_to_a += relay(p[1].fd, p[0].fd);
		if ((p[0].revents | p[1].revents) & (POLLERR | POLLHUP | POLLNVAL))
			errx(1, "a tap went away");
	}
	fprintf(stderr, "a_to_b=%lu b_to_a=%lu write_errors=%lu dropped_gso=%lu\n",
		a_to_b, b_to_a, write_errors, dropped_gso);
	return 0;
}
