// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the statistics command.
 *
 *   stats [[dev] <dev>] [reset]
 *
 * Without reset: the counters of one device, or of every device LRO is
 * attached to in this network namespace. With reset: start them from zero
 * (held_segs, a gauge, excepted), on one device or on all of them.
 */
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>

#include "lroadm.h"
#include "nl.h"

struct ifindexes {
	uint32_t *v;
	size_t n;
};

static int collect_cb(struct nl_msg *msg, void *arg)
{
	struct ifindexes *ifs = arg;
	struct lro_dev_info d;
	uint32_t *v;

	if (dev_parse(msg, &d))
		return NL_SKIP;
	v = realloc(ifs->v, (ifs->n + 1) * sizeof(*v));
	if (!v) {
		error("out of memory");
		return NL_STOP;
	}
	v[ifs->n++] = d.ifindex;
	ifs->v = v;
	return NL_OK;
}

/* stats-reset on every attached device of this netns */
static int reset_all(void)
{
	struct ifindexes ifs = {};
	struct nl_msg *req;
	struct lnl nl;
	int ret;
	size_t i;

	ret = lnl_open(&nl, &dev_req_attrs);
	if (ret)
		return ret;
	req = lnl_req(&nl, LRO_CMD_DEV_GET, NLM_F_DUMP);
	ret = lnl_talk(&nl, req, collect_cb, &ifs);
	for (i = 0; !ret && i < ifs.n; i++) {
		req = dev_req(&nl, LRO_CMD_STATS_RESET, ifs.v[i]);
		ret = lnl_talk(&nl, req, NULL, NULL);
	}
	free(ifs.v);
	lnl_close(&nl);
	return ret;
}

int cmd_stats(int argc, char **argv)
{
	const char *dev = NULL;
	bool reset = false;
	int n = 0;

	/* [ [ dev ] DEV ] [ reset ]: a lone "reset" is the keyword, and
	 * "dev NAME" names a device whatever it is called: "stats dev reset"
	 * shows a device named reset.
	 */
	argc--, argv++;
	if (argc > 1 || (argc == 1 && strcmp(argv[0], "reset")))
		n = parse_dev(argc, argv, &dev);
	if (n < 0)
		return EXIT_USAGE;
	argc -= n;
	argv += n;
	if (argc == 1 && !strcmp(argv[0], "reset")) {
		reset = true;
		argc--;
	}
	if (argc) {
		error("stats takes one device at most");
		return EXIT_USAGE;
	}

	if (!reset)
		return dev_show(dev, true);
	if (dev)
		return dev_cmd(LRO_CMD_STATS_RESET, dev);
	return reset_all();
}
