// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the descriptor table.
 *
 *   descs [[dev] <dev>] [cpu N] [interval MS [count N]]
 *
 * One row per flow LRO holds segments of right now, on one device or on
 * every device LRO is attached to in this network namespace, from all CPUs
 * or one; with an interval, a snapshot every MS milliseconds (count times,
 * or until killed; with -j one JSON array per line). Loads bpf/lro_descs.bpf.c (the skeleton is built into lroadm),
 * runs it once with bpf_prog_test_run_opts() and reads the rows it wrote
 * into its "descs" map. The program walks lro.ko's descriptor iterator
 * (kmod/bpf.c); Documentation/bpf.md says what the snapshot guarantees.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lroadm.h"
#include "lro_descs.h"
#include "lro_descs.skel.h"

/* The loaded program and what it is asked. */
struct descs {
	struct lro_descs *skel;
	uint32_t rows;		/* room in the "descs" map */
	uint32_t runs;		/* result.runs after the last run */
	int ifindex;
	int cpu;
};

/*
 * (Re)load the program with room for d->rows rows: 0, or the exit status
 * after an error (EXIT_KERNEL: the kernel refused the program).
 */
static int descs_load(struct descs *d)
{
	int err;

	lro_descs__destroy(d->skel);
	d->runs = 0;
	bpf_log_start();
	d->skel = lro_descs__open();
	if (!d->skel) {
		bpf_fail("cannot open the BPF program", errno);
		return EXIT_USAGE;
	}
	err = bpf_map__set_max_entries(d->skel->maps.descs, d->rows);
	if (!err)
		err = lro_descs__load(d->skel);
	if (err) {
		bpf_fail("cannot load the BPF program", -err);
		lro_descs__destroy(d->skel);
		d->skel = NULL;
		return EXIT_KERNEL;
	}
	return 0;
}

/* Run the program once: 0 with the rows in the map, or EXIT_KERNEL after
 * an error.
 */
static int descs_run(struct descs *d)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	int err;

	d->skel->data->args.ifindex = (uint32_t)d->ifindex;
	d->skel->data->args.cpu = d->cpu;
	err = bpf_prog_test_run_opts(bpf_program__fd(d->skel->progs.lro_descs),
				     &run);
	if (err) {
		bpf_fail("cannot run the BPF program", errno);
		return EXIT_KERNEL;
	}
	if (d->skel->bss->result.runs != ++d->runs) {
		error("the BPF program did not run");
		return EXIT_KERNEL;
	}
	return 0;
}

static void descs_snap_error(const char *name, int cpu, int err)
{
	switch (err) {
	case ENOENT:
		error("LRO is not attached to %s", name);
		break;
	case ENODEV:
		error("cannot find device \"%s\"", name);
		break;
	case EINVAL:
		error("no CPU %d", cpu);
		break;
	case EPERM:
		error("permission denied (CAP_BPF and CAP_NET_ADMIN needed)");
		break;
	case EAGAIN:
		error("RTNL or CPU hotplug busy for 2 s; try again");
		break;
	default:
		error("cannot take the descriptor snapshot: %s", strerror(err));
	}
}

static void print_row(struct json *j, const struct lro_descs_row *r)
{
	char ifname[IF_NAMESIZE] = "?";
	int af = r->family == AF_INET6 ? AF_INET6 : AF_INET;
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN];
	/* [addr]:port for IPv6, as ss(8) and URLs write it */
	char src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 8];
	const char *fmt = af == AF_INET6 ? "[%s]:%u" : "%s:%u";

	if_indextoname(r->ifindex, ifname);
	inet_ntop(af, r->saddr, sa, sizeof(sa));
	inet_ntop(af, r->daddr, da, sizeof(da));
	if (j) {
		json_obj_open(j, NULL);
		json_string(j, "ifname", ifname);
		json_uint(j, "ifindex", r->ifindex);
		json_uint(j, "cpu", r->cpu);
		json_string(j, "family", af == AF_INET6 ? "inet6" : "inet");
		json_string(j, "saddr", sa);
		json_uint(j, "sport", r->sport);
		json_string(j, "daddr", da);
		json_uint(j, "dport", r->dport);
		json_uint(j, "vlan", r->vlan);
		json_uint(j, "segs", r->segs);
		json_uint(j, "bytes", r->bytes);
		json_uint(j, "mss", r->mss);
		json_uint(j, "next_seq", r->next_seq);
		json_uint(j, "ack", r->ack);
		json_uint(j, "window", r->window);
		json_bool(j, "has_ts", r->has_ts);
		json_uint(j, "tsval", r->tsval);
		json_uint(j, "tsecr", r->tsecr);
		json_uint(j, "age_ns", r->age_ns);
		json_uint(j, "max_aggr", r->max_aggr);
		json_uint(j, "hold_us", r->hold_us);
		json_bool(j, "by_policy", r->by_policy);
		json_obj_close(j);
		return;
	}
	snprintf(src, sizeof(src), fmt, sa, r->sport);
	snprintf(dst, sizeof(dst), fmt, da, r->dport);
	printf("%-10s %3u %-21s %-21s %4u %4u %6u %10u %10u %5u ",
	       ifname, r->cpu, src, dst, r->vlan, r->segs, r->bytes,
	       r->next_seq, r->ack, r->window);
	if (r->has_ts)
		printf("%10u %10u", r->tsval, r->tsecr);
	else
		printf("%10s %10s", "-", "-");
	printf(" %10llu %4u %8u%s\n", (unsigned long long)(r->age_ns / 1000),
	       r->max_aggr, r->hold_us, r->by_policy ? " policy" : "");
}

/* The snapshot never waits for RTNL or CPU hotplug (kmod/bpf.c): up to
 * 2 s of retries before giving up with "try again".
 */
#define DESCS_BUSY_TRIES	200
#define DESCS_BUSY_US		10000

/* One snapshot, printed; 0, or the exit status after an error. */
static int descs_show(struct descs *d, const char *name)
{
	const struct lro_descs_result *res;
	struct json *j = NULL;
	int tries, busy = 0, ret;
	uint32_t i;

	/* More descriptors than rows: again, with room for them all. */
	for (tries = 0;; tries++) {
		ret = descs_run(d);
		if (ret)
			return ret;
		res = &d->skel->bss->result;
		if (res->err == -EAGAIN && busy < DESCS_BUSY_TRIES) {
			/* RTNL taken, or a CPU coming or going */
			busy++;
			tries--;
			usleep(DESCS_BUSY_US);
			continue;
		}
		if (res->err || res->total <= res->nr)
			break;
		if (tries == 3) {
			error("the descriptor table keeps growing; try again");
			return EXIT_KERNEL;
		}
		d->rows = res->total + res->total / 4 + 64;
		ret = descs_load(d);
		if (ret)
			return ret;
	}
	if (res->err) {
		descs_snap_error(name ? name : "?", d->cpu, -res->err);
		return EXIT_KERNEL;
	}

	if (opts.json) {
		j = json_new(stdout, opts.pretty);
		if (!j) {
			error("out of memory");
			return EXIT_USAGE;
		}
		json_arr_open(j, NULL);
	} else {
		printf("%-10s %3s %-21s %-21s %4s %4s %6s %10s %10s %5s %10s %10s %10s %4s %8s\n",
		       "dev", "cpu", "source", "destination", "vlan", "segs",
		       "bytes", "next_seq", "ack", "win", "tsval", "tsecr",
		       "age_us", "aggr", "hold_us");
	}
	for (i = 0; i < res->nr; i++) {
		struct lro_descs_row row;

		if (bpf_map__lookup_elem(d->skel->maps.descs, &i, sizeof(i),
					 &row, sizeof(row), 0)) {
			error("cannot read row %u: %s", i, strerror(errno));
			ret = EXIT_KERNEL;
			goto out;
		}
		print_row(j, &row);
	}
	ret = 0;
out:
	if (j) {
		json_arr_close(j);
		json_destroy(j);
	}
	fflush(stdout);
	return ret;
}

int cmd_descs(int argc, char **argv)
{
	struct descs d = { .rows = LRO_DESCS_ROWS, .cpu = -1 };
	uint32_t interval = 0, count = 0, cpu = 0, n;
	bool have_cpu = false;
	const char *name = NULL;
	int ret = 0, k;

	/* The keywords and their values, and the device, in any order. */
	for (argc--, argv++; argc > 0; argc -= k, argv += k) {
		uint32_t *val = NULL;

		if (!strcmp(argv[0], "cpu")) {
			val = &cpu;
			have_cpu = true;
		} else if (!strcmp(argv[0], "interval")) {
			val = &interval;
		} else if (!strcmp(argv[0], "count")) {
			val = &count;
		}
		if (val) {
			if (argc < 2) {
				error("%s needs a value", argv[0]);
				return EXIT_USAGE;
			}
			if (parse_u32(argv[0], argv[1], val))
				return EXIT_USAGE;
			k = 2;
		} else if (!name) {
			k = parse_dev(argc, argv, &name);
			if (k < 0)
				return EXIT_USAGE;
		} else {
			error("unknown descs argument \"%s\" (try \"lroadm descs help\")",
			      argv[0]);
			return EXIT_USAGE;
		}
	}
	if (have_cpu && cpu > INT32_MAX) {
		error("no CPU %u", cpu);	/* as the kernel says past its last */
		return EXIT_USAGE;
	}
	if (have_cpu)
		d.cpu = (int)cpu;
	if (name) {
		d.ifindex = dev_ifindex(name);
		if (d.ifindex < 0)
			return EXIT_USAGE;
	}
	if (bpf_preflight("descs"))
		return EXIT_KERNEL;
	ret = descs_load(&d);
	if (ret)
		return ret;
	/* With an interval: a snapshot every interval ms, count times (or
	 * until killed), from the one loaded program.
	 */
	for (n = 0; !ret; n++) {
		if (n && interval) {
			if (!opts.json)
				putchar('\n');
			struct timespec ts = {
				.tv_sec = interval / 1000,
				.tv_nsec = (long)(interval % 1000) * 1000000,
			};

			nanosleep(&ts, NULL);
		}
		ret = descs_show(&d, name);
		if (!interval || (count && n + 1 >= count))
			break;
	}
	lro_descs__destroy(d.skel);
	return ret;
}
