// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: the device message of the lro family (the reply to dev-get and
 * every notification): parsing it, printing it, and the names of its
 * attributes, features and counters.
 */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "lroadm.h"

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

/* JSON: the names of the features set, as an array member. */
static void features_json(struct json *j, uint32_t features)
{
	size_t i;

	json_arr_open(j, attr_name(LRO_A_DEV_FEATURES));
	for (i = 0; i < ARRAY_SIZE(feature_names); i++)
		if (features & feature_names[i].bit)
			json_string(j, NULL, feature_names[i].name);
	json_arr_close(j);
}

/*
 * One setting: text " name value" (" enabled" or " disabled" for enabled,
 * names for features), or a JSON member (a boolean, an array of names).
 */
static void setting_print(struct json *j, int type, uint32_t val)
{
	char feat[128];

	switch (type) {
	case LRO_A_DEV_ENABLED:
		if (j)
			json_bool(j, attr_name(type), val);
		else
			printf(" %s", val ? "enabled" : "disabled");
		return;
	case LRO_A_DEV_FEATURES:
		if (j) {
			features_json(j, val);
			return;
		}
		features_str(val, feat, sizeof(feat));
		printf(" %s %s", attr_name(type), feat);
		return;
	}
	if (j)
		json_uint(j, attr_name(type), val);
	else
		printf(" %s %u", attr_name(type), val);
}

void config_print(struct json *j, const struct lro_config *c)
{
	int a;

	for (a = 1; a <= LRO_A_DEV_MAX; a++)
		if (c->has[a])
			setting_print(j, a, c->val[a]);
	if (!c->has_policy || !c->policy[0])
		return;
	if (j)
		json_string(j, attr_name(LRO_A_DEV_POLICY), c->policy);
	else
		printf(" %s %s", attr_name(LRO_A_DEV_POLICY), c->policy);
}

void dev_print_config(struct json *j, const struct lro_dev_info *d)
{
	if (j) {
		json_uint(j, "ifindex", d->ifindex);
		json_string(j, "ifname", d->ifname);
	} else {
		printf("%s:", d->ifname);
	}
	if (d->has_config)
		config_print(j, &d->cfg);
	if (!j)
		printf("\n");
}

void dev_print_stats(struct json *j, const struct lro_dev_info *d)
{
	int i;

	if (j) {
		json_obj_open(j, "stats");
		for (i = 1; i <= LRO_A_STATS_MAX; i++)
			if (d->has_stat[i] && stat_names[i])
				json_uint(j, stat_names[i], d->stat[i]);
		json_obj_close(j);
		return;
	}

	printf("%s:\n", d->ifname);
	for (i = 1; i <= LRO_A_STATS_MAX; i++)
		if (d->has_stat[i] && stat_names[i])
			printf("    %s %llu\n", stat_names[i],
			       (unsigned long long)d->stat[i]);
}
