// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the device message of the lro family (the reply to dev-get and
 * every notification): parsing it, printing it, and the names of its
 * attributes, features and counters.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "lroadm.h"
#include "nl.h"
#include "print.h"

/* Netlink attribute names, underscored: also the JSON member names. */
static const char *const dev_attr_names[LRO_A_DEV_MAX + 1] = {
	[LRO_A_DEV_IFINDEX]		= "ifindex",
	[LRO_A_DEV_IFNAME]		= "ifname",
	[LRO_A_DEV_ENABLED]		= "enabled",
	[LRO_A_DEV_STATS]		= "stats",
	[LRO_A_DEV_POLICY]		= "policy",
	/* The spec's settings: the same names as the sysfs files. */
#define LRO_SETTING(NAME, name, ...) \
	[LRO_A_DEV_##NAME] = #name,
#include "settings-gen.h"
#undef LRO_SETTING
};

/* The spec's counters, underscored. */
#define LRO_STAT(NAME, name) \
	[LRO_A_STATS_##NAME] = #name,
static const char *const stat_names[LRO_A_STATS_MAX + 1] = {
#include "stats-gen.h"
};

#undef LRO_STAT

static const struct {
	const char *name;
	uint32_t bit;
} feature_names[] = {
	{ "napi", LRO_FEATURE_NAPI },
	{ "extract_vlan_id", LRO_FEATURE_EXTRACT_VLAN_ID },
	{ "evict", LRO_FEATURE_EVICT },
	{ "adaptive", LRO_FEATURE_ADAPTIVE },
};

const char *attr_set_name(const char *const names[], int max, int type)
{
	static char buf[16];

	if (type > 0 && type <= max && names[type])
		return names[type];
	snprintf(buf, sizeof(buf), "%d", type);
	return buf;
}

const char *attr_name(int type)
{
	return attr_set_name(dev_attr_names, LRO_A_DEV_MAX, type);
}

/* A device's requests: the device's attributes, its ifindex named by the
 * kernel's messages as the device.
 */
const struct lnl_attrs dev_req_attrs = {
	.name = attr_name,
	.unnamed = LRO_A_DEV_IFINDEX,
};

/* Whether c is a dash or an underscore (not the string's end). */
static bool is_dash(char c)
{
	return c == '-' || c == '_';
}

bool name_is(const char *word, const char *name)
{
	for (; *word && *name; word++, name++)
		if (*word != *name && !(is_dash(*word) && is_dash(*name)))
			return false;
	return *word == *name;
}

bool config_attr(int type)
{
	switch (type) {
	case LRO_A_DEV_ENABLED:
#define LRO_SETTING(NAME, ...) case LRO_A_DEV_##NAME:
#include "settings-gen.h"
#undef LRO_SETTING
		return true;
	}
	return false;
}

int dev_ifindex(const char *name)
{
	unsigned int ifindex = if_nametoindex(name);

	if (!ifindex) {
		error("cannot find device \"%s\"", name);
		return -1;
	}
	return (int)ifindex;
}

int parse_dev(int argc, char **argv, const char **name)
{
	if (argc < 1)
		return 0;
	if (strcmp(argv[0], "dev")) {
		*name = argv[0];
		return 1;
	}
	if (argc < 2) {
		error("dev needs a device name");
		return -1;
	}
	*name = argv[1];
	return 2;
}

static int parse_base(const char *what, const char *arg, int base,
		      uint32_t *val)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, base);
	if (!isdigit((unsigned char)arg[0]) || *end || errno || v > UINT32_MAX) {
		error("invalid %s value \"%s\"", what, arg);
		return -1;
	}
	*val = (uint32_t)v;
	return 0;
}

/* Counts and times are decimal, as sysfs reads and writes them: "010" is
 * ten, "0x10" is refused.
 */
int parse_u32(const char *what, const char *arg, uint32_t *val)
{
	return parse_base(what, arg, 10, val);
}

/* "napi,evict", "none", or a number, hexadecimal too since it is a set of
 * bits (it may carry unknown ones: the kernel decides).
 */
int parse_features(const char *arg, uint32_t *features)
{
	char *copy, *tok, *save = NULL;
	size_t i, named = 0;
	int ret = 0;

	if (arg[0] >= '0' && arg[0] <= '9')
		return parse_base("features", arg, 0, features);

	*features = 0;
	if (!strcmp(arg, "none"))
		return 0;
	copy = strdup(arg);
	if (!copy) {
		error("out of memory");
		return -1;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		named++;
		for (i = 0; i < ARRAY_SIZE(feature_names); i++)
			if (name_is(tok, feature_names[i].name))
				break;
		if (i == ARRAY_SIZE(feature_names)) {
			error("unknown feature \"%s\" (napi, extract_vlan_id, evict or none)",
			      tok);
			ret = -1;
			break;
		}
		*features |= feature_names[i].bit;
	}
	if (!ret && !named) {	/* "" or "," */
		error("empty feature list \"%s\" (napi, extract_vlan_id, evict or none)",
		      arg);
		ret = -1;
	}
	free(copy);
	return ret;
}

uint64_t nla_get_uint_var(const struct nlattr *nla)
{
	if (nla_len(nla) == sizeof(uint32_t))
		return nla_get_u32((struct nlattr *)nla);
	return nla_get_u64((struct nlattr *)nla);
}

void config_parse(struct nlattr *tb[], struct lro_config *c)
{
	int a;

	memset(c, 0, sizeof(*c));
	for (a = 1; a <= LRO_A_DEV_MAX; a++) {
		if (!config_attr(a) || !tb[a])
			continue;
		c->has[a] = true;
		if (a == LRO_A_DEV_ENABLED)
			c->val[a] = nla_get_u8(tb[a]);
		else
			c->val[a] = nla_get_u32(tb[a]);
	}
	if (tb[LRO_A_DEV_POLICY]) {
		nla_strlcpy(c->policy, tb[LRO_A_DEV_POLICY], sizeof(c->policy));
		c->has_policy = true;
	}
}

/* Whether c holds every setting, as a device's message does. */
static bool config_complete(const struct lro_config *c)
{
	int a;

	for (a = 1; a <= LRO_A_DEV_MAX; a++)
		if (config_attr(a) && !c->has[a])
			return false;
	return true;
}

int dev_parse(struct nl_msg *msg, struct lro_dev_info *d)
{
	struct nlattr *tb[LRO_A_DEV_MAX + 1], *st[LRO_A_STATS_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gnlh = nlmsg_data(nlh);
	int i;

	memset(d, 0, sizeof(*d));
	if (genlmsg_parse(nlh, 0, tb, LRO_A_DEV_MAX, NULL) ||
	    !tb[LRO_A_DEV_IFINDEX])
		return -1;
	d->cmd = gnlh->cmd;
	d->ifindex = nla_get_u32(tb[LRO_A_DEV_IFINDEX]);
	if (tb[LRO_A_DEV_IFNAME])
		nla_strlcpy(d->ifname, tb[LRO_A_DEV_IFNAME], sizeof(d->ifname));
	else
		snprintf(d->ifname, sizeof(d->ifname), "if%u", d->ifindex);

	config_parse(tb, &d->cfg);
	d->has_config = config_complete(&d->cfg);

	if (tb[LRO_A_DEV_STATS] &&
	    !nla_parse_nested(st, LRO_A_STATS_MAX, tb[LRO_A_DEV_STATS], NULL)) {
		d->has_stats = true;
		for (i = 1; i <= LRO_A_STATS_MAX; i++) {
			if (!st[i])
				continue;
			d->has_stat[i] = true;
			d->stat[i] = nla_get_uint_var(st[i]);
		}
	}
	return 0;
}

/* Names of the features set, or "none"; unknown bits in hex. */
static void features_str(uint32_t features, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(feature_names); i++) {
		if (!(features & feature_names[i].bit))
			continue;
		n += snprintf(buf + n, len - n, "%s%s", n ? "," : "",
			      feature_names[i].name);
		features &= ~feature_names[i].bit;
	}
	if (features)
		n += snprintf(buf + n, len - n, "%s%#x", n ? "," : "", features);
	if (!n)
		snprintf(buf, len, "none");
}

/*
 * Features: text " features NAMES" (features_str()), JSON an array of the
 * names set.
 */
static void features_print(const char *name, uint32_t features)
{
	char fmt[32], feat[128];
	size_t i;

	open_json_array(name);
	for (i = 0; i < ARRAY_SIZE(feature_names); i++)
		if (features & feature_names[i].bit)
			print_string(PRINT_JSON, NULL, NULL,
				     feature_names[i].name);
	close_json_array();
	features_str(features, feat, sizeof(feat));
	snprintf(fmt, sizeof(fmt), " %s %%s", name);
	print_string(PRINT_FP, NULL, fmt, feat);
}

/*
 * One setting: text " name value" (" enabled" or " disabled" for enabled,
 * names for features), or a JSON member (a boolean, an array of names).
 */
static void setting_print(int type, uint32_t val)
{
	const char *name = attr_name(type);
	char fmt[32];

	switch (type) {
	case LRO_A_DEV_ENABLED:
		print_bool(PRINT_ANY, name, " %s", val, "enabled", "disabled");
		return;
	case LRO_A_DEV_FEATURES:
		features_print(name, val);
		return;
	}
	snprintf(fmt, sizeof(fmt), " %s %%u", name);
	print_uint(PRINT_ANY, name, fmt, val);
}

void config_print(const struct lro_config *c)
{
	const char *name = attr_name(LRO_A_DEV_POLICY);
	char fmt[32];
	int a;

	for (a = 1; a <= LRO_A_DEV_MAX; a++)
		if (c->has[a])
			setting_print(a, c->val[a]);
	if (!c->has_policy || !c->policy[0])
		return;
	snprintf(fmt, sizeof(fmt), " %s %%s", name);
	print_string(PRINT_ANY, name, fmt, c->policy);
}

void dev_print_config(const struct lro_dev_info *d)
{
	print_uint(PRINT_JSON, "ifindex", NULL, d->ifindex);
	print_string(PRINT_ANY, "ifname", "%s:", d->ifname);
	if (d->has_config)
		config_print(&d->cfg);
	print_nl();
}

void dev_print_stats(enum output_type t, const struct lro_dev_info *d)
{
	char fmt[48];
	int i;

	open_json_object("stats");
	for (i = 1; i <= LRO_A_STATS_MAX; i++) {
		if (!d->has_stat[i] || !stat_names[i])
			continue;
		snprintf(fmt, sizeof(fmt), "    %s %%" PRIu64 "\n",
			 stat_names[i]);
		print_u64(t, stat_names[i], fmt, d->stat[i]);
	}
	close_json_object();
}
