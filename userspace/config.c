// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the configuration commands.
 *
 *   set [dev] <dev> [SETTING VALUE]... [policy NAME|none]
 *       (the settings: settings-gen.h, the spec's)
 *   enable [dev] <dev> | disable [dev] <dev> | del [dev] <dev>
 *   show [[dev] <dev>]
 *
 * set attaches LRO (dev-add, with the module's defaults for what is not
 * given) or changes only the given values (dev-set); enable attaches if
 * needed, disable does not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>

#include "lroadm.h"
#include "nl.h"

/* The settings set and auto add take: all but enabled (enable, disable). */
static bool settable(int type)
{
	return config_attr(type) && type != LRO_A_DEV_ENABLED;
}

/* The LRO_A_DEV_* a setting's name stands for (max_aggr or max-aggr),
 * or 0.
 */
static int setting_type(const char *name)
{
	int a;

	for (a = 1; a <= LRO_A_DEV_MAX; a++)
		if (settable(a) && name_is(name, attr_name(a)))
			return a;
	return 0;
}

const char *setting_names(bool policy)
{
	static char buf[128];
	size_t n = 0;
	int a;

	buf[0] = '\0';
	for (a = 1; a <= LRO_A_DEV_MAX && n < sizeof(buf); a++)
		if (settable(a) || (policy && a == LRO_A_DEV_POLICY))
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? ", " : "", attr_name(a));
	return buf;
}

/* "policy NAME" (or "policy none"): the BPF policy of a device. */
static int parse_policy(const char *arg, struct lro_config *c)
{
	if (!strcmp(arg, "none"))
		arg = "";
	if (strlen(arg) >= sizeof(c->policy)) {
		error("policy name \"%s\" is longer than %zu bytes", arg,
		      sizeof(c->policy) - 1);
		return -1;
	}
	strcpy(c->policy, arg);
	c->has_policy = true;
	return 0;
}

int parse_settings(int argc, char **argv, struct lro_config *c)
{
	uint32_t *val;
	int n, a;

	for (n = 0; n < argc; n += 2) {
		a = setting_type(argv[n]);
		if (!a && !strcmp(argv[n], "policy")) {
			if (n + 1 == argc) {
				error("policy needs a name, or none");
				return -1;
			}
			if (parse_policy(argv[n + 1], c))
				return -1;
			continue;
		}
		if (!a)
			break;
		/* errors name it as lroadm writes it, however it was typed */
		if (n + 1 == argc) {
			error("%s needs a value", attr_name(a));
			return -1;
		}
		val = &c->val[a];
		if (a == LRO_A_DEV_FEATURES ? parse_features(argv[n + 1], val) :
		    parse_u32(attr_name(a), argv[n + 1], val))
			return -1;
		c->has[a] = true;
	}
	return n;
}

void config_put(struct nl_msg *req, const struct lro_config *c)
{
	int a;

	for (a = 1; a <= LRO_A_DEV_MAX; a++) {
		if (!c->has[a])
			continue;
		if (a == LRO_A_DEV_ENABLED)
			nla_put_u8(req, a, (uint8_t)c->val[a]);
		else
			nla_put_u32(req, a, c->val[a]);
	}
	if (c->has_policy)
		nla_put_string(req, LRO_A_DEV_POLICY, c->policy);
}

/*
 * A netlink socket for requests on the device name (NULL: none, a dump),
 * its ifindex into *ifindex: 0, or the exit status after an error.
 */
static int dev_open(struct lnl *nl, const char *name, int *ifindex)
{
	*ifindex = 0;
	if (name) {
		*ifindex = dev_ifindex(name);
		if (*ifindex < 0)
			return EXIT_USAGE;
	}
	return lnl_open(nl, &dev_req_attrs);
}

struct nl_msg *dev_req(struct lnl *nl, uint8_t cmd, int ifindex)
{
	struct nl_msg *req = lnl_req(nl, cmd, 0);

	nla_put_u32(req, LRO_A_DEV_IFINDEX, ifindex);
	return req;
}

/*
 * dev-set with the settings given, on dev; with attach (set, enable),
 * dev-add where LRO is not attached. The kernel refuses each where the
 * other applies (ENOENT, EEXIST), as when another process detaches or
 * attaches LRO in between: then the other goes, 3 requests at most.
 */
static int dev_set(const char *name, const struct lro_config *c, bool attach)
{
	uint8_t cmd = LRO_CMD_DEV_SET;
	struct nl_msg *req;
	int ifindex, ret, n, quiet;
	struct lnl nl;

	ret = dev_open(&nl, name, &ifindex);
	if (ret)
		return ret;
	for (n = 1;; n++) {
		req = dev_req(&nl, cmd, ifindex);
		config_put(req, c);
		quiet = 0;
		if (attach && n < 3)
			quiet = cmd == LRO_CMD_DEV_SET ? ENOENT : EEXIST;
		ret = lnl_talk_quiet(&nl, req, NULL, NULL, quiet);
		if (ret >= 0)
			break;
		cmd = cmd == LRO_CMD_DEV_SET ? LRO_CMD_DEV_ADD : LRO_CMD_DEV_SET;
	}
	lnl_close(&nl);
	return ret;
}

int cmd_set(int argc, char **argv)
{
	struct lro_config c = {};
	const char *name;
	int n;

	n = parse_dev(argc - 1, argv + 1, &name);
	if (n < 0)
		return EXIT_USAGE;
	if (!n) {
		error("set needs a device");
		return EXIT_USAGE;
	}
	argc -= 1 + n;
	argv += 1 + n;
	n = parse_settings(argc, argv, &c);
	if (n < 0)
		return EXIT_USAGE;
	if (n < argc) {
		error("unknown setting \"%s\" (%s)", argv[n], setting_names(true));
		return EXIT_USAGE;
	}
	return dev_set(name, &c, true);
}

int dev_cmd(uint8_t cmd, const char *name)
{
	struct lnl nl;
	int ifindex, ret;

	ret = dev_open(&nl, name, &ifindex);
	if (ret)
		return ret;
	ret = lnl_talk(&nl, dev_req(&nl, cmd, ifindex), NULL, NULL);
	lnl_close(&nl);
	return ret;
}

int show_dump(struct lnl *nl, struct nl_msg *req,
	      int (*cb)(struct nl_msg *msg, void *arg), void *arg)
{
	int ret;

	open_json_array(NULL);
	ret = lnl_talk(nl, req, cb, arg);
	close_json_array();
	lnl_close(nl);
	return ret;
}

int show_cmd(int argc, char **argv, const char *what, uint8_t cmd,
	     int (*cb)(struct nl_msg *msg, void *arg))
{
	struct lnl nl;
	int ret;

	(void)argv;
	if (argc > 1) {
		error("%s takes no arguments", what);
		return EXIT_USAGE;
	}
	ret = lnl_open(&nl, NULL);
	if (ret)
		return ret;
	return show_dump(&nl, lnl_req(&nl, cmd, NLM_F_DUMP), cb, NULL);
}

/* A device of dev-get's reply, printed; arg: whether its counters. */
static int show_cb(struct nl_msg *msg, void *arg)
{
	struct lro_dev_info d;

	if (dev_parse(msg, &d))
		return NL_SKIP;
	open_json_object(NULL);
	if (*(bool *)arg) {
		print_uint(PRINT_JSON, "ifindex", NULL, d.ifindex);
		print_string(PRINT_ANY, "ifname", "%s:\n", d.ifname);
		dev_print_stats(PRINT_ANY, &d);
	} else {
		dev_print_config(&d);
	}
	close_json_object();
	return NL_OK;
}

/* dev-get on one device (name) or a dump (name NULL), printed. */
int dev_show(const char *name, bool stats)
{
	struct nl_msg *req;
	int ifindex, ret;
	struct lnl nl;

	ret = dev_open(&nl, name, &ifindex);
	if (ret)
		return ret;
	if (name)
		req = dev_req(&nl, LRO_CMD_DEV_GET, ifindex);
	else
		req = lnl_req(&nl, LRO_CMD_DEV_GET, NLM_F_DUMP);
	return show_dump(&nl, req, show_cb, &stats);
}

/* The device of enable, disable and del, which take it and nothing else:
 * NULL after an error.
 */
static const char *only_dev(int argc, char **argv)
{
	const char *name;
	int n;

	n = parse_dev(argc - 1, argv + 1, &name);
	if (n < 0)
		return NULL;
	if (!n || n < argc - 1) {
		error("%s needs a device, and only that", argv[0]);
		return NULL;
	}
	return name;
}

static int dev_enable(int argc, char **argv, bool enable)
{
	const char *name = only_dev(argc, argv);
	struct lro_config c = {};

	if (!name)
		return EXIT_USAGE;
	/* disable does not attach: a dev-set alone, which fails like show
	 * where LRO is not attached, whoever detached it and when.
	 */
	c.has[LRO_A_DEV_ENABLED] = true;
	c.val[LRO_A_DEV_ENABLED] = enable;
	return dev_set(name, &c, enable);
}

int cmd_enable(int argc, char **argv)
{
	return dev_enable(argc, argv, true);
}

int cmd_disable(int argc, char **argv)
{
	return dev_enable(argc, argv, false);
}

int cmd_del(int argc, char **argv)
{
	const char *name = only_dev(argc, argv);

	if (!name)
		return EXIT_USAGE;
	return dev_cmd(LRO_CMD_DEV_DEL, name);
}

int cmd_show(int argc, char **argv)
{
	const char *name = NULL;
	int n;

	n = parse_dev(argc - 1, argv + 1, &name);
	if (n < 0)
		return EXIT_USAGE;
	if (n < argc - 1) {
		error("show takes one device at most");
		return EXIT_USAGE;
	}
	return dev_show(name, false);
}
