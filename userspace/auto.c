// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the auto command, rules that attach LRO to new devices.
 *
 *   auto add [kind KIND] [ifname PATTERN] [all-netns] [SETTING VALUE]...
 *   auto del [kind KIND] [ifname PATTERN] [all-netns]
 *   auto [show]
 *
 * A rule is known by its match (kind, ifname pattern, all-netns): auto-add
 * refuses a second rule with the same one, auto-del deletes the rule with
 * it. The rule message (auto-get's dump, the auto notifications) is parsed
 * and printed here, for show and for monitor:
 *
 *   kind veth ifname eth* all-netns: max_aggr 32 attached 2 failed 0
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "lroadm.h"
#include "nl.h"

/* The longest kind and ifname pattern the kernel takes (the spec's max-len). */
#define AUTO_KIND_MAX	15
#define AUTO_IFNAME_MAX	31

/*
 * The attributes of a request, as lroadm writes them: the match (KIND to
 * ALL_NETNS, the words of auto add and del) and the settings' nest, for
 * the words and the errors. (The counters are a reply's: auto_print().)
 */
static const char *const auto_attr_names[LRO_A_AUTO_MAX + 1] = {
	[LRO_A_AUTO_KIND]	= "kind",
	[LRO_A_AUTO_IFNAME]	= "ifname",
	[LRO_A_AUTO_ALL_NETNS]	= "all-netns",
	[LRO_A_AUTO_CONFIG]	= "config",
};

static const char *auto_attr_name(int type)
{
	return attr_set_name(auto_attr_names, LRO_A_AUTO_MAX, type);
}

/* For error reports: a rule's attributes, the device's in its config. */
static const struct lnl_attrs auto_req_attrs = {
	.name = auto_attr_name,
	.nest = LRO_A_AUTO_CONFIG,
	.nest_name = attr_name,
};

/* The LRO_A_AUTO_* a match word (kind, ifname, all-netns or all_netns)
 * stands for, or 0.
 */
static int match_type(const char *word)
{
	int a;

	for (a = LRO_A_AUTO_KIND; a <= LRO_A_AUTO_ALL_NETNS; a++)
		if (name_is(word, auto_attr_names[a]))
			return a;
	return 0;
}

/* "kind KIND", "ifname PATTERN": the value, if the kernel can take it. */
static int parse_match_str(int argc, char **argv, size_t max, const char **val)
{
	if (argc < 2) {
		error("%s needs a value", argv[0]);
		return -1;
	}
	if (strlen(argv[1]) > max) {
		error("%s \"%s\" is too long (%zu characters at most)",
		      argv[0], argv[1], max);
		return -1;
	}
	*val = argv[1];
	return 2;
}

/*
 * The match word at argv[0], into m: the number of words taken, 0 if
 * argv[0] is not one, -1 after an error.
 */
static int parse_match_word(int argc, char **argv, struct auto_match *m)
{
	switch (match_type(argv[0])) {
	case LRO_A_AUTO_KIND:
		return parse_match_str(argc, argv, AUTO_KIND_MAX, &m->kind);
	case LRO_A_AUTO_IFNAME:
		return parse_match_str(argc, argv, AUTO_IFNAME_MAX, &m->ifname);
	case LRO_A_AUTO_ALL_NETNS:
		m->all_netns = true;
		return 1;
	}
	return 0;
}

/* An unknown word after "auto add" (settings) or "auto del": say what is known. */
static void unknown_word(const char *cmd, const char *word, bool settings)
{
	char known[128];
	size_t n = 0;
	int a;

	for (a = LRO_A_AUTO_KIND; a <= LRO_A_AUTO_ALL_NETNS; a++)
		n += snprintf(known + n, sizeof(known) - n, "%s%s",
			      n ? ", " : "", auto_attr_names[a]);
	error("unknown auto %s argument \"%s\" (%s%s%s)", cmd, word, known,
	      settings ? ", " : "", settings ? setting_names(false) : "");
}

/*
 * The words after "auto add" or "auto del" (cmd): the match and, where c
 * is not NULL (add), the settings, in any order. 0, or -1 after an error.
 */
static int parse_rule(const char *cmd, int argc, char **argv,
		      struct auto_match *m, struct lro_config *c)
{
	int n;

	while (argc > 0) {
		n = parse_match_word(argc, argv, m);
		if (!n && c)
			n = parse_settings(argc, argv, c);
		if (n < 0)
			return -1;
		if (c && c->has_policy) {
			error("auto rules carry no policy: set it on the device");
			return -1;
		}
		if (!n) {
			unknown_word(cmd, argv[0], !!c);
			return -1;
		}
		argc -= n;
		argv += n;
	}
	/* The kernel refuses a rule that matches every device too. */
	if (!m->kind && !m->ifname) {
		error("auto %s needs a kind or an ifname pattern", cmd);
		return -1;
	}
	return 0;
}

/* The match of a rule, as auto-add and auto-del carry it. */
static void match_put(struct nl_msg *req, const struct auto_match *m)
{
	if (m->kind)
		nla_put_string(req, LRO_A_AUTO_KIND, m->kind);
	if (m->ifname)
		nla_put_string(req, LRO_A_AUTO_IFNAME, m->ifname);
	if (m->all_netns)
		nla_put_flag(req, LRO_A_AUTO_ALL_NETNS);
}

/* auto-add of the rule m with the settings c, or auto-del (c NULL). */
static int auto_request(uint8_t cmd, const struct auto_match *m,
			const struct lro_config *c)
{
	struct nlattr *nest;
	struct nl_msg *req;
	struct lnl nl;
	int ret;

	ret = lnl_open(&nl, &auto_req_attrs);
	if (ret)
		return ret;
	req = lnl_req(&nl, cmd, 0);
	match_put(req, m);
	if (c) {
		nest = nla_nest_start(req, LRO_A_AUTO_CONFIG);
		config_put(req, c);
		nla_nest_end(req, nest);	/* libnl drops it when empty */
	}
	ret = lnl_talk(&nl, req, NULL, NULL);
	lnl_close(&nl);
	return ret;
}

/* auto add; argv[0] is "add" */
static int auto_add(int argc, char **argv)
{
	struct auto_match m = {};
	struct lro_config c = {};

	if (parse_rule(argv[0], argc - 1, argv + 1, &m, &c))
		return EXIT_USAGE;
	return auto_request(LRO_CMD_AUTO_ADD, &m, &c);
}

/* auto del; argv[0] is "del" */
static int auto_del(int argc, char **argv)
{
	struct auto_match m = {};

	if (parse_rule(argv[0], argc - 1, argv + 1, &m, NULL))
		return EXIT_USAGE;
	return auto_request(LRO_CMD_AUTO_DEL, &m, NULL);
}

int auto_parse(struct nl_msg *msg, struct lro_auto_rule *r)
{
	/* NUL-terminated strings: nla_get_string() is safe on them. */
	static const struct nla_policy policy[LRO_A_AUTO_MAX + 1] = {
		[LRO_A_AUTO_KIND]	= { .type = NLA_STRING },
		[LRO_A_AUTO_IFNAME]	= { .type = NLA_STRING },
		[LRO_A_AUTO_ALL_NETNS]	= { .type = NLA_FLAG },
		[LRO_A_AUTO_CONFIG]	= { .type = NLA_NESTED },
	};
	struct nlattr *tb[LRO_A_AUTO_MAX + 1], *ct[LRO_A_DEV_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);

	memset(r, 0, sizeof(*r));
	if (genlmsg_parse(nlh, 0, tb, LRO_A_AUTO_MAX, policy))
		return -1;
	r->cmd = genlmsg_hdr(nlh)->cmd;
	if (tb[LRO_A_AUTO_KIND])
		r->match.kind = nla_get_string(tb[LRO_A_AUTO_KIND]);
	if (tb[LRO_A_AUTO_IFNAME])
		r->match.ifname = nla_get_string(tb[LRO_A_AUTO_IFNAME]);
	r->match.all_netns = !!tb[LRO_A_AUTO_ALL_NETNS];
	if (tb[LRO_A_AUTO_CONFIG]) {
		if (nla_parse_nested(ct, LRO_A_DEV_MAX, tb[LRO_A_AUTO_CONFIG], NULL))
			return -1;
		config_parse(ct, &r->cfg);
	}
	r->has_attached = !!tb[LRO_A_AUTO_ATTACHED];
	if (r->has_attached)
		r->attached = nla_get_uint_var(tb[LRO_A_AUTO_ATTACHED]);
	r->has_failed = !!tb[LRO_A_AUTO_FAILED];
	if (r->has_failed)
		r->failed = nla_get_uint_var(tb[LRO_A_AUTO_FAILED]);
	return 0;
}

/*
 * Text: "kind K ifname P all-netns", what is there, a blank between;
 * JSON: its members, all_netns false too.
 */
static void match_print(const struct auto_match *m)
{
	bool lead = m->kind || m->ifname;

	if (m->kind)
		print_string(PRINT_ANY, "kind", "kind %s", m->kind);
	if (m->ifname)
		print_string(PRINT_ANY, "ifname",
			     m->kind ? " ifname %s" : "ifname %s", m->ifname);
	print_bool(PRINT_ANY, "all_netns", "%s", m->all_netns,
		   lead ? " all-netns" : "all-netns", "");
}

void auto_print(const struct lro_auto_rule *r)
{
	match_print(&r->match);
	print_string(PRINT_FP, NULL, "%s", ":");
	open_json_object("config");
	config_print(&r->cfg);
	close_json_object();
	if (r->has_attached)
		print_u64(PRINT_ANY, "attached", " attached %" PRIu64,
			  r->attached);
	if (r->has_failed)
		print_u64(PRINT_ANY, "failed", " failed %" PRIu64, r->failed);
	print_nl();
}

/* One rule of auto-get's dump, printed. */
static int auto_show_cb(struct nl_msg *msg, void *arg)
{
	struct lro_auto_rule r;

	(void)arg;
	if (auto_parse(msg, &r))
		return NL_SKIP;
	open_json_object(NULL);
	auto_print(&r);
	close_json_object();
	return NL_OK;
}

/* auto show, or auto alone: the rules of this netns, then all-netns ones. */
int cmd_auto(int argc, char **argv)
{
	return show_cmd(argc, argv, "auto show", LRO_CMD_AUTO_GET,
			auto_show_cb);
}

/* In the order a prefix looks them up: show first, as auto alone. */
const struct cmd auto_cmds[] = {
	{ "show",	cmd_auto,	"auto [ show ]", NULL },
	{ "add",	auto_add,	"auto add MATCH [ SETTING VALUE ] ...", NULL },
	{ "del",	auto_del,	"auto del MATCH", NULL },
	{ }
};
