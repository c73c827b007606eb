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
 *
 * By layer: util.c (randomness, bytes, sums), flow.c (the flows and their
 * streams), frame.c (a frame: Ethernet, VLAN tags), ipv4.c, ipv6.c,
 * tcp.c (their headers, and the kinds of malformed frames that are
 * theirs), send.c (batches, pcap, replay), conn.c (the connections),
 * mix.c (what is sent, in what proportions), check.c (the checks and the
 * report); this file the command line and the run.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "conn.h"
#include "flow.h"
#include "mix.h"
#include "send.h"
#include "util.h"

static void parse_mac(const char *s, uint8_t *m)
{
	if (sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2],
		   &m[3], &m[4], &m[5]) != 6)
		die(2, "bad MAC %s", s);
}

static void join_netns(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die(2, "setns %s: %s", path, strerror(errno));
	close(fd);
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
	double timeout = 60, t0;
	int scale = 1, c, one = 1, verbose = 0;
	bool have_seed = false, have_mac = false;

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
	send_init();
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
	rnd_init();
	printf("seed %llu (--seed %llu, FUZZ_SEED=%llu replays its choices)\n",
	       (unsigned long long)seed, (unsigned long long)seed,
	       (unsigned long long)seed);
	inet_pton(AF_INET, "10.77.0.101", &cli4);
	inet_pton(AF_INET, "10.77.0.2", &srv4);
	inet_pton(AF_INET6, "fd77::101", &cli6);
	inet_pton(AF_INET6, "fd77::2", &srv6);
	rxfd = packet_socket(dev, ETH_P_ALL);
	setsockopt(rxfd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (pcap_file)
		pcap_open(pcap_file);
	/* the receiving end's sockets live in its namespace */
	join_netns(netns);
	conn_listen();

	rto_ms = (200 + 2 * hold_us / 1000) * scale;
	flow_setup();
	t0 = now();
	connect_all(10.0 * scale);
	mix_run(frames, verbose);
	complete_all(timeout * scale);
	pcap_close();

	report(t0);
	close_all();
	return failed ? 1 : 0;
}
