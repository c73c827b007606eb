/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lroadm: what the command files share.
 */
#ifndef _LROADM_H
#define _LROADM_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/lro.h>

#include "print.h"

/* Global options */
struct lroadm_opts {
	bool json;	/* -j */
	bool pretty;	/* -p */
	bool timestamp;	/* -t: monitor stamps each event */
};
extern struct lroadm_opts opts;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/*
 * Exit statuses (lroadm(8), EXIT STATUS). EXIT_USAGE: lroadm refused the
 * command line (a usage error, a bad value, an unknown device) or failed
 * on its own (out of memory). EXIT_KERNEL: the kernel refused a request
 * (a netlink error reply, a BPF load or run), or could not be reached (no
 * lro family, no netlink socket).
 */
enum {
	EXIT_USAGE = 1,
	EXIT_KERNEL = 2,
};

/* "Error: <message>." on stderr; fmt without the final period. */
void error(const char *fmt, ...) __printf(1, 2);
/* "Warning: <message>." on stderr: something done, but with a word. */
void warning(const char *fmt, ...) __printf(1, 2);

/* A BPF policy's name, NUL included (the spec's max-len, plus 1) */
#define POLICY_NAME_MAX	16

/*
 * The settings of an attachment (the spec's config attribute set, a subset
 * of dev): values by LRO_A_DEV_* type, enabled as 0 or 1, and which of them
 * are present.
 */
struct lro_config {
	bool has[LRO_A_DEV_MAX + 1];
	uint32_t val[LRO_A_DEV_MAX + 1];
	bool has_policy;		/* a dev's BPF policy, "" for none */
	char policy[POLICY_NAME_MAX];
};

/* dev.c: the device message of the lro family (dev-get, notifications) */
struct lro_dev_info {
	uint8_t cmd;			/* LRO_CMD_* the message came with */
	uint32_t ifindex;
	char ifname[IF_NAMESIZE];
	bool has_config;		/* cfg holds every setting */
	struct lro_config cfg;
	bool has_stats;
	bool has_stat[LRO_A_STATS_MAX + 1];
	uint64_t stat[LRO_A_STATS_MAX + 1];
};

struct nl_msg;
struct nlattr;
int dev_parse(struct nl_msg *msg, struct lro_dev_info *d);
/* Text: one line; JSON: the members of the device's object. */
void dev_print_config(const struct lro_dev_info *d);
/* Text: a "    name value" line per counter; JSON: a "stats" object
 * member. t: PRINT_ANY, or PRINT_JSON where text has no counters.
 */
void dev_print_stats(enum output_type t, const struct lro_dev_info *d);
int dev_ifindex(const char *name);
/* The device at the start of argv: argv[0], or the word after the keyword
 * "dev", which names a device whatever it is called ("stats dev reset"),
 * as in ip(8). Returns the number of words taken (0: argc is 0), or -1
 * after an error.
 */
int parse_dev(int argc, char **argv, const char **name);
int parse_features(const char *arg, uint32_t *features);
int parse_u32(const char *what, const char *arg, uint32_t *val);
/* The name of a LRO_A_DEV_* attribute as lroadm writes it (underscored). */
const char *attr_name(int type);
/* Whether word spells name, a dash and an underscore standing for each
 * other: the spec's spelling (max-aggr) as well as lroadm's (max_aggr).
 */
bool name_is(const char *word, const char *name);
/* names[type], for type 1..max, or type as a number where it has none. */
const char *attr_set_name(const char *const names[], int max, int type);
/* Whether a LRO_A_DEV_* attribute is a setting (in the config set). */
bool config_attr(int type);
/* The settings among the LRO_A_DEV_* attributes tb (of a message or a
 * config nest), into c.
 */
void config_parse(struct nlattr *tb[], struct lro_config *c);
/* The settings present in c, in attribute order: text, " name value"
 * each (as show prints them); JSON, one member each.
 */
void config_print(const struct lro_config *c);
/* A uint attribute: 32 or 64 bits. */
uint64_t nla_get_uint_var(const struct nlattr *nla);

/* dev.c: how a device's requests name their attributes in errors */
struct lnl_attrs;
extern const struct lnl_attrs dev_req_attrs;

/* config.c: requests on one device by name; 0, or the exit status after
 * an error
 */
int dev_cmd(uint8_t cmd, const char *name);
struct lnl;
/* A request cmd on the device ifindex. */
struct nl_msg *dev_req(struct lnl *nl, uint8_t cmd, int ifindex);
/* Sends req on nl, each message of the reply handed to cb (under -j, the
 * objects they print in one array), and closes nl. Returns 0, or the exit
 * status after an error.
 */
int show_dump(struct lnl *nl, struct nl_msg *req,
	      int (*cb)(struct nl_msg *msg, void *arg), void *arg);
/* A show without arguments (what: its name, for errors): a dump of cmd,
 * through show_dump().
 */
int show_cmd(int argc, char **argv, const char *what, uint8_t cmd,
	     int (*cb)(struct nl_msg *msg, void *arg));
/* dev-get of one device, or a dump (name NULL), printed: config or stats */
int dev_show(const char *name, bool stats);
/* The "SETTING VALUE" pairs at the start of argv (set's, auto add's), into
 * c: the number of words taken, up to the first that names no setting, or
 * -1 after an error (a value missing or invalid).
 */
int parse_settings(int argc, char **argv, struct lro_config *c);
/* "max_desc, max_aggr, ...": the settings parse_settings() takes, and
 * policy (set's, not auto add's).
 */
const char *setting_names(bool policy);
/* The settings present in c, as LRO_A_DEV_* attributes of req. */
void config_put(struct nl_msg *req, const struct lro_config *c);

/* auto.c: auto rules. What a rule matches; NULL: any kind, any name. */
struct auto_match {
	const char *kind;
	const char *ifname;
	bool all_netns;
};

/* A rule, as auto-get and the auto notifications carry it (its strings
 * point into the message).
 */
struct lro_auto_rule {
	uint8_t cmd;			/* LRO_CMD_* the message came with */
	struct auto_match match;
	struct lro_config cfg;		/* the settings it gives */
	bool has_attached, has_failed;
	uint64_t attached, failed;
};

int auto_parse(struct nl_msg *msg, struct lro_auto_rule *r);
/* Text: "kind K ifname P all-netns: SETTINGS attached N failed N", one
 * line; JSON: the members of the rule's object.
 */
void auto_print(const struct lro_auto_rule *r);

/*
 * A command, or a subcommand (auto's): what runs it, and its line (or
 * lines, after a newline) of the usage, without "lroadm"; or, where it
 * has subcommands, their table, and what runs where none is named (auto
 * alone is auto show). A table ends with an entry without name.
 */
struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const struct cmd *sub;
};

/* lroadm.c: the command of cmds that word names: the one it spells, or
 * else the first, in table order, whose name it begins, as iproute2's
 * matches(); NULL if none.
 */
const struct cmd *cmd_find(const struct cmd *cmds, const char *word);
/* Runs the command of cmds that argv[0] names; "help" right after it
 * prints its usage instead. parent: the command cmds are subcommands of,
 * or NULL. Returns the exit status.
 */
int cmd_run(const struct cmd *cmds, const char *parent, int argc, char **argv);
/* "Usage: lroadm ..." of c, and the definitions its words need. */
void cmd_usage(FILE *f, const struct cmd *c);
/* Runs the command line argv (a command and its arguments, as after
 * lroadm's options). Returns the exit status.
 */
int lroadm_run(int argc, char **argv);

/* batch.c: -b FILE, with -force or without. Returns the exit status: the
 * worst of the lines run.
 */
int batch_run(const char *file, bool force);
/* The line of the -b file being run, 0 for none: messages name it. */
extern unsigned int batch_line;

/* Commands; argv[0] is the command name. Return the exit status. */
int cmd_set(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
/* auto.c: auto alone (auto show), and the subcommands of auto */
int cmd_auto(int argc, char **argv);
extern const struct cmd auto_cmds[];
/* descs.c: the descriptor table, through BPF */
int cmd_descs(int argc, char **argv);

/* policy.c: BPF merge policies */
int cmd_policy(int argc, char **argv);
extern const struct cmd policy_cmds[];

/* bpf.c: what the BPF commands share. What is missing for what (a
 * command's name) to run, said; then libbpf's messages are kept: 0, or -1.
 */
int bpf_preflight(const char *what);
/* Forget the messages kept so far (before a new load). */
void bpf_log_start(void);
/* "Error: what: strerror(err).", after libbpf's messages if any, or what
 * a missing capability or BPF support explains.
 */
void bpf_fail(const char *what, int err);

#endif /* _LROADM_H */
