// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: configure generic Large Receive Offload on a network device.
 *
 * Talks to lro.ko over the "lro" generic netlink family
 * (Documentation/netlink/specs/lro.yaml); the kernel loads the module on
 * first use. This file holds the options and the command table; each
 * command lives with its kind (config.c, stats.c, monitor.c, auto.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lroadm.h"

#define NETNS_RUN_DIR "/run/netns"

struct lroadm_opts opts;

void error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(".\n", stderr);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: lroadm [ OPTIONS ] COMMAND\n"
		"\n"
		"COMMAND := { set DEV [ max_aggr N ] [ max_desc N ] [ features FEATURES ]\n"
		"                     [ flush_timeout_us N ] [ max_held_bytes N ]\n"
		"           | enable DEV | disable DEV | del DEV\n"
		"           | show [ DEV ] | stats [ [ dev ] DEV ] [ reset ] | monitor | help\n"
		"           | descs [ DEV ] [ cpu N ] [ interval MS [ count N ] ]\n"
		"           | auto add MATCH [ SETTING VALUE ] ... | auto del MATCH\n"
		"           | auto [ show ] }\n"
		"MATCH := [ kind KIND ] [ ifname PATTERN ] [ all-netns ]\n"
		"FEATURES := { FEATURE[,FEATURE...] | none | NUMBER }\n"
		"FEATURE := { napi | extract_vlan_id | evict }\n"
		"OPTIONS := { -V[ersion] | -j[son] | -p[retty] | -n[etns] NAME }\n"
		"\n"
		"set attaches LRO to DEV if it is not attached (what is not given comes\n"
		"from the module parameters) or changes only what is given; enable\n"
		"attaches too, disable does not. Limits: max_desc 1..65536,\n"
		"max_aggr 1..64, flush_timeout_us 0..1000000 (0: flush at the end of\n"
		"each receive batch), max_held_bytes 65536..1073741824 (truesize held\n"
		"per CPU). -n NAME runs in the network namespace NAME\n"
		"(" NETNS_RUN_DIR "/NAME), as ip -n does.\n"
		"auto add: a rule that attaches LRO, with the settings set takes, to\n"
		"the devices that appear later and match KIND (veth, tun, ...) and the\n"
		"glob PATTERN, in this network namespace or with all-netns in every\n"
		"one; MATCH names at least a kind or a pattern.\n");
}

/*
 * -n NAME: like "ip -n NAME", without the mount namespace ip sets up for
 * sysfs: lroadm only reads /sys/kernel/btf and /sys/module, which are the
 * same in every network namespace, so joining the netns is all it takes.
 */
static int enter_netns(const char *name)
{
	char path[256];
	int fd, err;

	if (!*name || strchr(name, '/') ||
	    snprintf(path, sizeof(path), NETNS_RUN_DIR "/%s", name) >= (int)sizeof(path)) {
		error("invalid network namespace name \"%s\"", name);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("cannot open network namespace \"%s\": %s", name, strerror(errno));
		return -1;
	}
	err = setns(fd, CLONE_NEWNET);
	if (err)
		error("cannot enter network namespace \"%s\": %s", name, strerror(errno));
	close(fd);
	return err ? -1 : 0;
}

/*
 * -V: lroadm's version and the loaded module's (MODULE_VERSION, both from
 * scripts/version.sh), which differ after an upgrade that did not reload
 * the module.
 */
static int print_version(void)
{
	char kver[128] = "";
	FILE *f;

	printf("lroadm %s\n", LRO_VERSION);
	f = fopen("/sys/module/lro/version", "r");
	if (f && fgets(kver, sizeof(kver), f))
		printf("lro.ko %s", kver);
	else if (access("/sys/module/lro", F_OK))
		printf("lro.ko not loaded\n");
	else
		printf("lro.ko loaded, version unknown\n");
	if (f)
		fclose(f);
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cmds[] = {
	{ "set",	cmd_set },
	{ "enable",	cmd_enable },
	{ "disable",	cmd_disable },
	{ "del",	cmd_del },
	{ "show",	cmd_show },
	{ "stats",	cmd_stats },
	{ "monitor",	cmd_monitor },
	{ "descs",	cmd_descs },
	{ "auto",	cmd_auto },
	{ "help",	cmd_help },
};

/* "-j", "-json", "--json": any prefix of the long name, like iproute2. */
static bool is_opt(const char *arg, const char *name)
{
	while (*arg == '-')
		arg++;
	return *arg && !strncmp(arg, name, strlen(arg));
}

int main(int argc, char **argv)
{
	size_t i;

	for (argc--, argv++; argc > 0 && argv[0][0] == '-'; argc--, argv++) {
		if (is_opt(argv[0], "help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[0], "-V") || is_opt(argv[0], "Version"))
			return print_version();
		if (is_opt(argv[0], "json")) {
			opts.json = true;
		} else if (is_opt(argv[0], "pretty")) {
			opts.pretty = true;
		} else if (is_opt(argv[0], "netns")) {
			if (argc < 2) {
				error("%s needs a network namespace name", argv[0]);
				return EXIT_USAGE;
			}
			argc--, argv++;
			if (enter_netns(argv[0]))
				return EXIT_USAGE;
		} else {
			error("unknown option \"%s\"", argv[0]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[0], cmds[i].name))
			return cmds[i].fn(argc, argv);
	error("unknown command \"%s\" (try \"lroadm help\")", argv[0]);
	return EXIT_USAGE;
}
