/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lroadm: what the command files share.
 */
#ifndef _LROADM_H
#define _LROADM_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include <linux/lro.h>

#include "json.h"

/* Global options */
struct lroadm_opts {
	bool json;	/* -j */
	bool pretty;	/* -p */
};
extern struct lroadm_opts opts;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))

/* "Error: <message>." on stderr; fmt without the final period. */
void error(const char *fmt, ...) __printf(1, 2);

/* dev.c: the device message of the lro family (dev-get, notifications) */
struct lro_dev_info {
	uint8_t cmd;			/* LRO_CMD_* the message came with */
	uint32_t ifindex;
	char ifname[IF_NAMESIZE];
	bool has_config;
	bool enabled;
	uint32_t max_desc;
	uint32_t max_aggr;
	uint32_t features;
	uint32_t flush_timeout_us;
	uint32_t max_held_bytes;
	bool has_stats;
	bool has_stat[LRO_A_STATS_MAX + 1];
	uint64_t stat[LRO_A_STATS_MAX + 1];
};

struct nl_msg;
int dev_parse(struct nl_msg *msg, struct lro_dev_info *d);
/* Human: one line; JSON: the members of the device's object. */
void dev_print_config(struct json *j, const struct lro_dev_info *d);
/* Human: a "dev:" line and one "  name value" line per counter; JSON: a
 * "stats" object member.
 */
void dev_print_stats(struct json *j, const struct lro_dev_info *d);
int dev_ifindex(const char *name);
int parse_features(const char *arg, uint32_t *features);
int parse_u32(const char *what, const char *arg, uint32_t *val);
const char *attr_name(int type);

/* config.c: requests on one device by name; 0, or 1 after an error */
int dev_cmd(uint8_t cmd, const char *name);
/* dev-get of one device, or a dump (name NULL), printed: config or stats */
int dev_show(const char *name, bool stats);

/* Commands; argv[0] is the command name. Return the exit status. */
int cmd_set(int argc, char **argv);
int cmd_enable(int argc, char **argv);
int cmd_disable(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
/* descs.c: the descriptor table, through BPF */
int cmd_descs(int argc, char **argv);

#endif /* _LROADM_H */
