// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the monitor command. Joins the family's "monitor" multicast
 * group and prints every notification of this network namespace as it
 * comes, until killed (or an event cannot be printed: an error, exit 1):
 *
 *   new veth0: enabled max_desc 256 max_aggr 64 features napi flush_timeout_us 0 ...
 *   change veth0: disabled max_desc 256 ...
 *   del veth0: ...
 *
 * or, with -j, one JSON object per line (the event, then the device's
 * members as show prints them, and its stats).
 */
#include <stdio.h>

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
	}
	return NULL;
}

/* arg: a bool set when an event could not be printed (said why) */
static int monitor_cb(struct nl_msg *msg, void *arg)
{
	struct lro_dev_info d;
	const char *event;
	struct json *j;

	if (dev_parse(msg, &d))
		return NL_SKIP;
	event = event_name(d.cmd);
	if (!event)
		return NL_SKIP;

	if (opts.json) {
		j = json_new(stdout, opts.pretty);
		if (!j) {
			/* An event missing from the stream, without a
			 * word, would mislead whoever reads it: stop.
			 */
			error("out of memory");
			*(bool *)arg = true;
			return NL_STOP;
		}
		json_obj_open(j, NULL);
		json_string(j, "event", event);
		dev_print_config(j, &d);
		if (d.has_stats)
			dev_print_stats(j, &d);
		json_obj_close(j);
		json_destroy(j);	/* newline, flush */
	} else {
		printf("%s ", event);
		dev_print_config(NULL, &d);
		fflush(stdout);
	}
	return NL_OK;
}

int cmd_monitor(int argc, char **argv)
{
	bool failed = false;
	struct lnl nl;
	int err;

	(void)argv;
	if (argc != 1) {
		error("monitor takes no arguments");
		return 1;
	}
	if (lnl_open(&nl))
		return 1;
	if (lnl_join(&nl, LRO_MCGRP_MONITOR))
		goto fail;
	nl_socket_disable_seq_check(nl.sk);
	nl_socket_modify_cb(nl.sk, NL_CB_VALID, NL_CB_CUSTOM, monitor_cb, &failed);
	while (!failed) {
		err = nl_recvmsgs_default(nl.sk);
		/* ENOBUFS: notifications were lost; say so and go on */
		if (err == -NLE_NOMEM) {
			fprintf(stderr, "Warning: notifications lost (receive buffer overrun).\n");
			continue;
		}
		if (err < 0) {
			error("netlink: %s", nl_geterror(err));
			break;
		}
	}
fail:
	lnl_close(&nl);
	return 1;
}
