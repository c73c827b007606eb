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
#include <inttypes.h>
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

/* One row: a line of the table, or a JSON object. */
static void print_row(const struct lro_descs_row *r)
{
	char ifname[IF_NAMESIZE] = "?";
	int af = r->family == AF_INET6 ? AF_INET6 : AF_INET;
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN];
	/* [addr]:port for IPv6, as ss(8) and URLs write it */
	char src[INET6_ADDRSTRLEN + 8], dst[INET6_ADDRSTRLEN + 8];
	const char *fmt = af == AF_INET6 ? "[%s]:%u" : "%s:%u";
	/* the timestamps: "-" in the table where the flow has none */
	enum output_type ts = r->has_ts ? PRINT_ANY : PRINT_JSON;

	if_indextoname(r->ifindex, ifname);
	inet_ntop(af, r->saddr, sa, sizeof(sa));
	inet_ntop(af, r->daddr, da, sizeof(da));
	snprintf(src, sizeof(src), fmt, sa, r->sport);
	snprintf(dst, sizeof(dst), fmt, da, r->dport);
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%-10s ", ifname);
	print_uint(PRINT_JSON, "ifindex", NULL, r->ifindex);
	print_uint(PRINT_ANY, "cpu", "%3u ", r->cpu);
	print_string(PRINT_JSON, "family", NULL,
		     af == AF_INET6 ? "inet6" : "inet");
	print_string(PRINT_JSON, "saddr", NULL, sa);
	print_uint(PRINT_JSON, "sport", NULL, r->sport);
	print_string(PRINT_JSON, "daddr", NULL, da);
	print_uint(PRINT_JSON, "dport", NULL, r->dport);
	print_string(PRINT_FP, NULL, "%-21s ", src);
	print_string(PRINT_FP, NULL, "%-21s ", dst);
	print_uint(PRINT_ANY, "vlan", "%4u ", r->vlan);
	print_uint(PRINT_ANY, "segs", "%4u ", r->segs);
	print_uint(PRINT_ANY, "bytes", "%6u ", r->bytes);
	print_uint(PRINT_JSON, "mss", NULL, r->mss);
	print_uint(PRINT_ANY, "next_seq", "%10u ", r->next_seq);
	print_uint(PRINT_ANY, "ack", "%10u ", r->ack);
	print_uint(PRINT_ANY, "window", "%5u ", r->window);
	print_bool(PRINT_JSON, "has_ts", NULL, r->has_ts, NULL, NULL);
	print_uint(ts, "tsval", "%10u ", r->tsval);
	print_uint(ts, "tsecr", "%10u", r->tsecr);
	if (!r->has_ts) {
		print_string(PRINT_FP, NULL, "%10s ", "-");
		print_string(PRINT_FP, NULL, "%10s", "-");
	}
	print_u64(PRINT_JSON, "age_ns", NULL, r->age_ns);
	print_u64(PRINT_FP, NULL, " %10" PRIu64, r->age_ns / 1000);
	print_uint(PRINT_ANY, "max_aggr", " %4u", r->max_aggr);
	print_uint(PRINT_ANY, "hold_us", " %8u", r->hold_us);
	print_bool(PRINT_ANY, "by_policy", "%s", r->by_policy, " policy", "");
	print_nl();
	close_json_object();
}

/* The table's head, over the columns print_row() prints */
#define DESCS_HEADER \
	"dev        cpu source                destination           " \
	"vlan segs  bytes   next_seq        ack   win      tsval      tsecr " \
	"    age_us aggr  hold_us"

/* The snapshot never waits for RTNL or CPU hotplug (kmod/bpf.c): up to
 * 2 s of retries before giving up with "try again".
 */
#define DESCS_BUSY_TRIES	200
#define DESCS_BUSY_US		10000

/* One snapshot, printed; 0, or the exit status after an error. */
static int descs_show(struct descs *d, const char *name)
{
	const struct lro_descs_result *res;
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

	open_json_array(NULL);
	print_string(PRINT_FP, NULL, "%s\n", DESCS_HEADER);
	for (i = 0; i < res->nr; i++) {
		struct lro_descs_row row;

		if (bpf_map__lookup_elem(d->skel->maps.descs, &i, sizeof(i),
					 &row, sizeof(row), 0)) {
			error("cannot read row %u: %s", i, strerror(errno));
			ret = EXIT_KERNEL;
			goto out;
		}
		print_row(&row);
	}
	ret = 0;
out:
	close_json_array();
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
			print_nl();
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
