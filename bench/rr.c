// SPDX-License-Identifier: GPL-2.0
/*
 * rr: the TCP end points of 'make bench' (bench/guest.sh).
 *
 *   rr echo PORT                 accept one connection, echo it until EOF
 *   rr ping HOST PORT N SIZE     N round trips of SIZE bytes (after N/10
 *                                warm-up ones); prints the latency
 *                                percentiles in microseconds:
 *                                "p50_us=.. p90_us=.. p99_us=.. mean_us=.. n=N"
 *                                N 0: after 10 warm-up round trips,
 *                                prints "warm" on a line of its own, then
 *                                makes round trips until SIGTERM or
 *                                SIGINT, all of them counted in n
 *   rr sink PORT [N]             accept N connections (default 1), read
 *                                them until EOF; prints "bytes=.. secs=..
 *                                mbit_s=..", timed from the first byte of
 *                                any to the last EOF
 *   rr sink6 PORT [N]            the same, listening on IPv6
 *   rr send HOST PORT MB [KB [N]]
 *                                (HOST: an IPv4 or an IPv6 address)
 *                                send MB megabytes in writes of KB
 *                                kilobytes (default 128, as iperf3), over
 *                                N parallel connections (default 1, MB
 *                                split evenly), then wait for the sink to
 *                                close them
 *   rr mixed HOST SINKPORT ECHOPORT MB SIZE
 *                                a stream of MB megabytes in 128 KB writes
 *                                to SINKPORT (as rr send) and, from just
 *                                before it starts until the sink has closed
 *                                it, round trips of SIZE bytes to ECHOPORT
 *                                (after 10 warm-up ones); prints their
 *                                percentiles as rr ping does
 *
 * Both ends set TCP_NODELAY; a request is one write(), so it leaves as one
 * segment with PSH set.
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long num(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		errx(1, "bad %s '%s' (%ld..%ld)", what, s, min, max);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void nodelay(int fd)
{
	int one = 1;

	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		err(1, "setsockopt TCP_NODELAY");
}

/* On the wildcard address of @family (AF_INET or AF_INET6). */
static int listen_on(const char *port, int backlog, int family)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&sin;
	socklen_t len = sizeof(sin);
	int fd, one = 1;

	sin.sin_port = htons(num(port, "port", 1, 65535));
	sin6.sin6_port = sin.sin_port;
	if (family == AF_INET6) {
		sa = (struct sockaddr *)&sin6;
		len = sizeof(sin6);
	}
	fd = socket(family, SOCK_STREAM, 0);
	if (fd < 0)
		err(1, "socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, len))
		err(1, "bind port %s", port);
	if (listen(fd, backlog))
		err(1, "listen");
	return fd;
}

static int accept_on(int fd)
{
	int c = accept(fd, NULL, NULL);

	if (c < 0)
		err(1, "accept");
	nodelay(c);
	return c;
}

static int accept_one(const char *port)
{
	int fd = listen_on(port, 1, AF_INET), c = accept_on(fd);

	close(fd);
	return c;
}

/* @host: an IPv4 or an IPv6 address */
static int connect_to(const char *host, const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&sin;
	socklen_t len = sizeof(sin);
	int fd;

	sin.sin_port = htons(num(port, "port", 1, 65535));
	sin6.sin6_port = sin.sin_port;
	if (inet_pton(AF_INET6, host, &sin6.sin6_addr) == 1) {
		sa = (struct sockaddr *)&sin6;
		len = sizeof(sin6);
	} else if (inet_pton(AF_INET, host, &sin.sin_addr) != 1) {
		errx(1, "bad IP address '%s'", host);
	}
	fd = socket(sa->sa_family, SOCK_STREAM, 0);
	if (fd < 0)
		err(1, "socket");
	nodelay(fd);
	if (connect(fd, sa, len))
		err(1, "connect %s:%s", host, port);
	return fd;
}

/* Read exactly @len bytes; 0 at EOF before any, 1 when done. */
static int read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err(1, "read");
		if (n == 0) {
			if (got)
				errx(1, "EOF inside a message");
			return 0;
		}
		got += n;
	}
	return 1;
}

static void write_full(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err(1, "write");
		buf += n;
		len -= n;
	}
}

static int do_echo(char **argv)
{
	int fd = accept_one(argv[0]);
	char buf[65536];
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err(1, "read");
		write_full(fd, buf, n);
	}
	close(fd);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Set by SIGTERM or SIGINT: rr mixed's round trips end after the one under
 * way. Lock-free, so a signal handler may store to it.
 */
static atomic_int stop;

static void on_stop(int sig)
{
	(void)sig;
	atomic_store(&stop, 1);
}

/*
 * Until a signal stops it (no SA_RESTART: read_full() and write_full() see
 * EINTR and finish the round trip).
 */
static void stop_on_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) || sigaction(SIGINT, &sa, NULL))
		err(1, "sigaction");
}

#define RR_MAX_SIZE	65536	/* bytes of a round trip */

/*
 * @n round trips of @size bytes over @fd (@n 0: until stop is set); their
 * latencies in microseconds into *@lat, grown as needed. Returns how many.
 */
static long round_trips(int fd, long size, long n, double **lat)
{
	static char buf[RR_MAX_SIZE];
	long cap = 0, i;

	for (i = 0; n ? i < n : !atomic_load(&stop); i++) {
		double t0 = now();

		write_full(fd, buf, size);
		if (!read_full(fd, buf, size))
			errx(1, "echo server closed the connection");
		if (i >= cap) {
			cap = cap ? cap * 2 : 4096;
			*lat = realloc(*lat, cap * sizeof(**lat));
			if (!*lat)
				err(1, "out of memory");
		}
		(*lat)[i] = (now() - t0) * 1e6;
	}
	return i;
}

/* The percentiles of @n latencies (sorted here), and frees them. */
static void print_latency(double *lat, long n)
{
	double sum = 0;
	long i;

	if (!n)
		errx(1, "no round trip was made");
	for (i = 0; i < n; i++)
		sum += lat[i];
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("p50_us=%.1f p90_us=%.1f p99_us=%.1f mean_us=%.1f n=%ld\n",
	       lat[n / 2], lat[n * 9 / 10], lat[n * 99 / 100], sum / n, n);
	free(lat);
}

static int do_ping(char **argv)
{
	long n = num(argv[2], "count", 1, 10000000);
	long size = num(argv[3], "size", 1, RR_MAX_SIZE);
	int fd = connect_to(argv[0], argv[1]);
	double *lat = NULL;

	if (n >= 10)
		round_trips(fd, size, n / 10, &lat);	/* warm-up */
	n = round_trips(fd, size, n, &lat);
	close(fd);
	print_latency(lat, n);
	return 0;
}

#define RR_MAX_CONNS	256

static int sink(char **argv, int family)
{
	long conns = argv[1] ? num(argv[1], "connections", 1, RR_MAX_CONNS) : 1;
	struct pollfd pfd[RR_MAX_CONNS];
	static char buf[1 << 18];
	double t0 = 0, t1;
	long long bytes = 0;
	long i, open;
	int fd;
	ssize_t n;

	fd = listen_on(argv[0], conns, family);
	for (i = 0; i < conns; i++)
		pfd[i] = (struct pollfd) { .fd = accept_on(fd), .events = POLLIN };
	close(fd);
	for (open = conns; open;) {
		if (conns > 1 && poll(pfd, conns, -1) < 0) {
			if (errno == EINTR)
				continue;
			err(1, "poll");
		}
		for (i = 0; i < conns; i++) {
			if (pfd[i].fd < 0 || (conns > 1 && !pfd[i].revents))
				continue;
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				err(1, "read");
			if (!n) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open--;
				continue;
			}
			if (!bytes)
				t0 = now();
			bytes += n;
		}
	}
	t1 = now();
	printf("bytes=%lld secs=%.6f mbit_s=%.1f\n", bytes, t1 - t0,
	       t1 > t0 ? bytes * 8 / (t1 - t0) / 1e6 : 0);
	return 0;
}

static int do_sink(char **argv)
{
	return sink(argv, AF_INET);
}

/* The same over IPv6 (rr send takes either kind of address). */
static int do_sink6(char **argv)
{
	return sink(argv, AF_INET6);
}

static void send_one(const char *host, const char *port, long long left,
		     size_t chunk)
{
	static char buf[1 << 20];
	int fd = connect_to(host, port);

	memset(buf, 0xa5, sizeof(buf));
	while (left > 0) {
		size_t len = left < (long long)chunk ? (size_t)left : chunk;

		write_full(fd, buf, len);
		left -= len;
	}
	if (shutdown(fd, SHUT_WR))
		err(1, "shutdown");
	while (read(fd, buf, sizeof(buf)) > 0)
		;	/* until the sink closes: everything arrived */
	close(fd);
}

static int do_send(char **argv)
{
	long long total = num(argv[2], "megabytes", 1, 1 << 20) << 20;
	size_t chunk = argv[3] ? num(argv[3], "write size (KB)", 1, 1024) << 10 : 128 << 10;
	long conns = argv[3] && argv[4] ? num(argv[4], "connections", 1, RR_MAX_CONNS) : 1;
	long i, failed = 0;
	int status;

	if (conns == 1) {
		send_one(argv[0], argv[1], total, chunk);
		return 0;
	}
	for (i = 0; i < conns; i++) {
		pid_t pid = fork();

		if (pid < 0)
			err(1, "fork");
		if (!pid) {
			send_one(argv[0], argv[1],
				 total / conns + (i < total % conns), chunk);
			_exit(0);
		}
	}
	while (wait(&status) > 0)
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
	if (failed)
		errx(1, "%ld of %ld connections failed", failed, conns);
	return 0;
}

/*
 * One stream and round trips at once: after 10 warm-up round trips to the
 * echo server, a child makes round trips while the parent sends the
 * stream, until the sink has closed it; then the child is stopped and
 * prints the latencies of its round trips.
 */
static int do_mixed(char **argv)
{
	long long total = num(argv[3], "megabytes", 1, 1 << 20) << 20;
	long size = num(argv[4], "size", 1, RR_MAX_SIZE);
	int fd = connect_to(argv[0], argv[2]), status;
	double *lat = NULL;
	pid_t pid;

	round_trips(fd, size, 10, &lat);	/* warm-up */
	stop_on_signals();
	pid = fork();
	if (pid < 0)
		err(1, "fork");
	if (!pid) {
		/* stopped by the parent, or if it dies (rr mixed fails) */
		if (prctl(PR_SET_PDEATHSIG, SIGTERM))
			err(1, "prctl");
		print_latency(lat, round_trips(fd, size, 0, &lat));
		exit(0);
	}
	send_one(argv[0], argv[1], total, 128 << 10);
	if (kill(pid, SIGTERM) || waitpid(pid, &status, 0) != pid)
		err(1, "stopping the round trips");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		errx(1, "the round trips failed");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int args, opt;	/* required, optional */
		int (*fn)(char **argv);
	} cmds[] = {
		{ "echo", 1, 0, do_echo },
		{ "ping", 4, 0, do_ping },
		{ "sink", 1, 1, do_sink },
		{ "sink6", 1, 1, do_sink6 },
		{ "send", 3, 2, do_send },
		{ "mixed", 5, 0, do_mixed },
	};
	unsigned int i;

	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name) &&
		    argc >= cmds[i].args + 2 && argc <= cmds[i].args + 2 + cmds[i].opt)
			return cmds[i].fn(argv + 2);
	fprintf(stderr,
		"usage: rr echo PORT | rr ping HOST PORT COUNT SIZE |\n"
		"       rr sink|sink6 PORT [N] | rr send HOST PORT MB [KB [N]] |\n"
		"       rr mixed HOST SINKPORT ECHOPORT MB SIZE\n");
	return 2;
}
