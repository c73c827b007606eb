// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the monitor command. Joins the family's "monitor" multicast
 * group and prints every notification of this network namespace as it
 * comes, until killed (or an error: exit 2 where netlink fails):
 *
 *   new veth0: enabled max_desc 256 max_aggr 64 features napi flush_timeout_us 0 ...
 *   change veth0: disabled max_desc 256 ...
 *   del veth0: ...
 *   auto-new kind veth all-netns: max_aggr 32 attached 0 failed 0
 *   auto-del kind veth all-netns: max_aggr 32 attached 5 failed 0
 *
 * or, with -j, one JSON object per line (the event, then the device's
 * members as show prints them and its stats, or the rule's as auto show
 * prints them). With -t, each event after the time it came: a
 * "Timestamp: ..." line, or a "timestamp" member first.
 */
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "lroadm.h"
#include "nl.h"

static const char *event_name(uint8_t cmd)
{
	switch (cmd) {
	case LRO_CMD_DEV_ADD_NTF:
		return "new";
	case LRO_CMD_DEV_CHANGE_NTF:
		return "change";
	case LRO_CMD_DEV_DEL_NTF:
		return "del";
	case LRO_CMD_AUTO_ADD_NTF:
		return "auto-new";
	case LRO_CMD_AUTO_DEL_NTF:
		return "auto-del";
	}
	return NULL;
}

/* A notification, parsed: about a device, or about an auto rule. */
struct monitor_event {
	const char *name;
	bool is_auto;
	struct lro_dev_info dev;
	struct lro_auto_rule rule;
};

/* msg into ev: 0, or -1 for a message monitor does not print. */
static int event_parse(struct nl_msg *msg, struct monitor_event *ev)
{
	uint8_t cmd = genlmsg_hdr(nlmsg_hdr(msg))->cmd;

	ev->name = event_name(cmd);
	if (!ev->name)
		return -1;
	ev->is_auto = cmd == LRO_CMD_AUTO_ADD_NTF || cmd == LRO_CMD_AUTO_DEL_NTF;
	if (ev->is_auto)
		return auto_parse(msg, &ev->rule);
	return dev_parse(msg, &ev->dev);
}

/*
 * -t: the time an event is printed, before it. Text: a line, as ip -t
 * monitor prints it ("Timestamp: Sat Dec  5 00:15:26 2026 123456 usec");
 * JSON: a "timestamp" member, seconds since the epoch to the microsecond.
 */
static void timestamp_print(void)
{
	char num[32], date[64], text[96];
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	snprintf(num, sizeof(num), "%lld.%06ld", (long long)tv.tv_sec,
		 (long)tv.tv_usec);
	/* asctime()'s format, without its newline */
	strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y",
		 localtime_r(&tv.tv_sec, &tm));
	snprintf(text, sizeof(text), "%s %ld usec", date, (long)tv.tv_usec);
	print_number(PRINT_JSON, "timestamp", NULL, num);
	print_string(PRINT_FP, NULL, "Timestamp: %s\n", text);
}

/* Text: the event, then the line show or auto show prints; JSON: an
 * object, one a line: the "event" member, then the members they print
 * (and a device's stats). With -t, the time first.
 */
static void event_print(const struct monitor_event *ev)
{
	open_json_object(NULL);
	if (opts.timestamp)
		timestamp_print();
	print_string(PRINT_ANY, "event", "%s ", ev->name);
	if (ev->is_auto) {
		auto_print(&ev->rule);
	} else {
		dev_print_config(&ev->dev);
		if (ev->dev.has_stats)
			dev_print_stats(PRINT_JSON, &ev->dev);
	}
	close_json_object();
	fflush(stdout);
}

static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct monitor_event ev;

	(void)arg;
	if (event_parse(msg, &ev))
		return NL_SKIP;
	event_print(&ev);
	return NL_OK;
}

/* Until killed, or an error: EXIT_KERNEL where netlink failed. */
int cmd_monitor(int argc, char **argv)
{
	struct lnl nl;
	int ret, err;

	(void)argv;
	if (argc != 1) {
		error("monitor takes no arguments");
		return EXIT_USAGE;
	}
	ret = lnl_open(&nl, NULL);
	if (ret)
		return ret;
	ret = lnl_join(&nl, LRO_MCGRP_MONITOR);
	if (ret)
		goto out;
	nl_socket_disable_seq_check(nl.sk);
	nl_socket_modify_cb(nl.sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_cb, NULL);
	for (;;) {
		err = nl_recvmsgs_default(nl.sk);
		/* ENOBUFS: notifications were lost; say so and go on */
		if (err == -NLE_NOMEM) {
			warning("notifications lost (receive buffer overrun)");
			continue;
		}
		if (err < 0) {
			error("netlink: %s", nl_geterror(err));
			ret = EXIT_KERNEL;
			break;
		}
	}
out:
	lnl_close(&nl);
	return ret;
}
