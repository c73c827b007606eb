// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: configure generic Large Receive Offload on a network device.
 *
 * Talks to lro.ko over the "lro" generic netlink family
 * (Documentation/netlink/specs/lro.yaml); the kernel loads the module on
 * first use. This file holds the options, the command table and the
 * usage made from it; each command lives with its kind (config.c,
 * stats.c, monitor.c, auto.c, descs.c), and -b in batch.c.
 */
#define _GNU_SOURCE
#include <ctype.h>
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

/*
 * "<what>: <message>." on stderr, after what stdout holds so far; with -b,
 * "<what>: <message> (line N)."
 */
static void message(const char *what, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", what);
	vfprintf(stderr, fmt, ap);
	if (batch_line)
		fprintf(stderr, " (line %u)", batch_line);
	fputs(".\n", stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("Error", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("Warning", fmt, ap);
	va_end(ap);
}

/* Words the usage defines (NAME := ...), as the command lines use them. */
static const struct {
	const char *name;
	const char *text;
} defs[] = {
	{ "MATCH",	"[ kind KIND ] [ ifname PATTERN ] [ all-netns ]" },
	{ "FEATURES",	"{ FEATURE[,FEATURE...] | none | NUMBER }" },
	{ "FEATURE",	"{ napi | extract_vlan_id | evict | adaptive }" },
};

static int cmd_help(int argc, char **argv);

/* The spec's settings (settings-gen.h), in its order. */
#define LRO_SETTING(NAME, name, lo, hi, def, desc) \
	{ #name, LRO_A_DEV_##NAME, lo, hi, def, desc },
static const struct {
	const char *name;
	int attr;
	unsigned long min, max, def;
	const char *desc;
} settings[] = {
#include "settings-gen.h"
};

#undef LRO_SETTING

/*
 * set's usage: "[ NAME N ]" for each setting, folded under the first as
 * the lines of a usage are (67 columns), then the policy. Made at start
 * (set_usage_init()), from the list, so that a setting the spec adds is
 * in it.
 */
static char set_usage[512];

static void set_usage_init(void)
{
	static const char indent[] = "\n                ";
	size_t n, line, i;

	n = line = snprintf(set_usage, sizeof(set_usage), "set [ dev ] DEV");
	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		const char *val = settings[i].attr == LRO_A_DEV_FEATURES ?
				  "FEATURES" : "N";
		size_t len = strlen(settings[i].name) + strlen(val) + 5;

		if (line + 1 + len > 67) {
			n += snprintf(set_usage + n, sizeof(set_usage) - n,
				      "%s", indent);
			line = sizeof(indent) - 2;
		} else {
			n += snprintf(set_usage + n, sizeof(set_usage) - n, " ");
			line++;
		}
		n += snprintf(set_usage + n, sizeof(set_usage) - n, "[ %s %s ]",
			      settings[i].name, val);
		line += len;
	}
	snprintf(set_usage + n, sizeof(set_usage) - n,
		 "%s[ policy { NAME | none } ]", indent);
}

/*
 * The commands, in the order a prefix looks them up (cmd_find()): those
 * that only read first, so a short prefix never changes anything; s is
 * show, st stats, d descs, se set. Each with its usage, without "lroadm".
 */
static const struct cmd cmds[] = {
	{ "show",	cmd_show,	"show [ [ dev ] DEV ]", NULL },
	{ "stats",	cmd_stats,	"stats [ [ dev ] DEV ] [ reset ]", NULL },
	{ "descs",	cmd_descs,
	  "descs [ [ dev ] DEV ] [ cpu N ] [ interval MS [ count N ] ]", NULL },
	{ "monitor",	cmd_monitor,	"monitor", NULL },
	{ "auto",	cmd_auto,	NULL,	auto_cmds },
	{ "policy",	cmd_policy,	NULL,	policy_cmds },
	{ "help",	cmd_help,	"help", NULL },
	{ "set",	cmd_set,	set_usage, NULL },
	{ "enable",	cmd_enable,	"enable [ dev ] DEV", NULL },
	{ "disable",	cmd_disable,	"disable [ dev ] DEV", NULL },
	{ "del",	cmd_del,	"del [ dev ] DEV", NULL },
	{ }
};

/*
 * lead, then text, its later lines indented as far as the last line of
 * lead is long; no newline at the end.
 */
static void print_lines(FILE *f, const char *lead, const char *text)
{
	const char *last = strrchr(lead, '\n');
	int indent = (int)strlen(last ? last + 1 : lead);
	const char *nl;

	fputs(lead, f);
	for (; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(f, "%.*s\n%*s", (int)(nl - text), text, indent, "");
	fputs(text, f);
}

/*
 * The usage lines of c (of each of its subcommands, where it has them),
 * the first after the lead *lead, the others after others.
 */
static void print_cmd(FILE *f, const struct cmd *c, const char **lead,
		      const char *others)
{
	const struct cmd *s;

	if (!c->sub) {
		print_lines(f, *lead, c->usage);
		*lead = others;
		return;
	}
	for (s = c->sub; s->name; s++)
		print_cmd(f, s, lead, others);
}

/* Whether word is in text, whole: not a part of a longer word. */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* Whether the usage of c (or of one of its subcommands) has word. */
static bool cmd_has_word(const struct cmd *c, const char *word)
{
	const struct cmd *s;

	if (!c->sub)
		return has_word(c->usage, word);
	for (s = c->sub; s->name; s++)
		if (cmd_has_word(s, word))
			return true;
	return false;
}

/*
 * The definitions c's usage needs (c NULL: all of them): those of the
 * words it uses, and of the words these definitions use in turn (defs[]
 * lists a definition before those it uses).
 */
static void print_defs(FILE *f, const struct cmd *c)
{
	bool used[ARRAY_SIZE(defs)];
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(defs); i++) {
		used[i] = !c || cmd_has_word(c, defs[i].name);
		for (k = 0; k < i && !used[i]; k++)
			used[i] = used[k] && has_word(defs[k].text, defs[i].name);
		if (used[i])
			fprintf(f, "%s := %s\n", defs[i].name, defs[i].text);
	}
}

void cmd_usage(FILE *f, const struct cmd *c)
{
	const char *lead = "Usage: lroadm ";

	print_cmd(f, c, &lead, "\n       lroadm ");
	fputc('\n', f);
	print_defs(f, c);
}

/*
 * The range of each numeric setting and the module's default (unless its
 * default_<name> parameter says otherwise), as the spec gives them.
 */
static void print_limits(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (settings[i].attr != LRO_A_DEV_FEATURES)	/* named bits */
			fprintf(f, "  %s %lu..%lu, default %lu: %s\n",
				settings[i].name, settings[i].min,
				settings[i].max, settings[i].def,
				settings[i].desc);
}

/* The whole usage: every command, with what its words stand for. */
static void usage(FILE *f)
{
	const char *lead = "COMMAND := { ";
	const struct cmd *c;

	fprintf(f, "Usage: lroadm [ OPTIONS ] COMMAND\n"
		"       lroadm [ OPTIONS ] [ -f[orce] ] -b[atch] FILE\n\n");
	for (c = cmds; c->name; c++)
		print_cmd(f, c, &lead, "\n           | ");
	fprintf(f, " }\n");
	print_defs(f, NULL);
	fprintf(f,
		"OPTIONS := { -V[ersion] | -j[son] | -p[retty] | -t[imestamp] | -n[etns] NAME }\n"
		"\n"
		"A command may be shortened to a prefix of its name: it stands for\n"
		"the first command above whose name it begins (s: show, se: set), as\n"
		"in ip. help after a command prints its lines alone (auto add help).\n"
		"dev DEV names a device whatever it is called (dev help, dev reset).\n"
		"-b FILE runs the commands of FILE (- for stdin), one a line, up to\n"
		"the first that fails, or with -force all of them, as ip -b does.\n"
		"Names take dashes for underscores too, as the netlink spec writes\n"
		"them: max-aggr, features extract-vlan-id.\n"
		"set attaches LRO to DEV if it is not attached (what is not given comes\n"
		"from the module parameters) or changes only what is given; enable\n"
		"attaches too, disable does not. Limits:\n");
	print_limits(f);
	fprintf(f,
		"policy NAME attaches the BPF merge policy registered as NAME\n"
		"(lroadm policy load; see Documentation/bpf.md), none detaches it.\n"
		"-n NAME runs in the network namespace NAME\n"
		"(" NETNS_RUN_DIR "/NAME), as ip -n does.\n"
		"auto add: a rule that attaches LRO, with the settings set takes, to\n"
		"the devices that appear later and match KIND (veth, tun, ...) and the\n"
		"glob PATTERN, in this network namespace or with all-netns in every\n"
		"one; MATCH names at least a kind or a pattern.\n"
		"Exit status: 1 for what lroadm refuses itself (the command line, a\n"
		"value, a device it cannot find), 2 for what the kernel refuses.\n");
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

const struct cmd *cmd_find(const struct cmd *cmds, const char *word)
{
	size_t n = strlen(word);
	const struct cmd *c;

	if (!n)
		return NULL;
	for (c = cmds; c->name; c++)
		if (!strcmp(word, c->name))
			return c;
	for (c = cmds; c->name; c++)
		if (!strncmp(word, c->name, n))
			return c;
	return NULL;
}

int cmd_run(const struct cmd *cmds, const char *parent, int argc, char **argv)
{
	const struct cmd *c = cmd_find(cmds, argv[0]);

	if (!c) {
		if (parent)
			error("unknown %s command \"%s\" (try \"lroadm %s help\")",
			      parent, argv[0], parent);
		else
			error("unknown command \"%s\" (try \"lroadm help\")", argv[0]);
		return EXIT_USAGE;
	}
	if (argc > 1 && !strcmp(argv[1], "help")) {
		cmd_usage(stdout, c);
		return 0;
	}
	/* The commands name themselves in errors by argv[0]: the whole name,
	 * not the prefix typed.
	 */
	argv[0] = (char *)c->name;
	if (c->sub && argc > 1)
		return cmd_run(c->sub, c->name, argc - 1, argv + 1);
	return c->fn(argc, argv);
}

int lroadm_run(int argc, char **argv)
{
	return cmd_run(cmds, NULL, argc, argv);
}

/* "-j", "-json", "--json": any prefix of the long name, like iproute2. */
static bool is_opt(const char *arg, const char *name)
{
	while (*arg == '-')
		arg++;
	return *arg && !strncmp(arg, name, strlen(arg));
}

int main(int argc, char **argv)
{
	const char *batch = NULL;
	bool force = false;
	int ret;

	set_usage_init();
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
		} else if (is_opt(argv[0], "timestamp")) {
			opts.timestamp = true;
		} else if (is_opt(argv[0], "force")) {
			force = true;
		} else if (is_opt(argv[0], "batch")) {
			if (argc < 2) {
				error("%s needs a file name", argv[0]);
				return EXIT_USAGE;
			}
			argc--, argv++;
			batch = argv[0];
		} else if (is_opt(argv[0], "netns")) {
			if (argc < 2) {
				error("%s needs a network namespace name", argv[0]);
				return EXIT_USAGE;
			}
			argc--, argv++;
			if (enter_netns(argv[0]))
				return EXIT_USAGE;
		} else {
			error("unknown option \"%s\" (try \"lroadm help\")", argv[0]);
			return EXIT_USAGE;
		}
	}
	if (batch && argc) {
		error("\"%s\" after -b %s: the commands are in the file", argv[0], batch);
		return EXIT_USAGE;
	}
	if (!batch && argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	/* The one JSON writer, for every command -b runs too. */
	if (print_start(opts.json, opts.pretty)) {
		error("out of memory");
		return EXIT_USAGE;
	}
	ret = batch ? batch_run(batch, force) : lroadm_run(argc, argv);
	print_end();
	return ret;
}
