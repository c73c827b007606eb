// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: BPF merge policies (kmod/policy.h, Documentation/bpf.md).
 *
 *   policy [show]          the policies registered (policy-get dump)
 *   policy load FILE       register the struct lro_policy_ops of FILE
 *   policy unload NAME     unregister what policy load registered
 *
 * load registers each lro_policy_ops map of a BPF object and pins it at
 * POLICY_PIN_DIR/NAME (NAME: the name member of the struct), so it stays
 * registered once lroadm exits: the link of a map in SEC(".struct_ops.link"),
 * the map itself for SEC(".struct_ops"). unload undoes it: detaches the
 * link, or deletes the map's one element, and removes the pin. A device
 * uses a policy once "lroadm set DEV policy NAME" names it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "lroadm.h"
#include "nl.h"

#define POLICY_PIN_DIR	"/sys/fs/bpf/lro"
#define POLICY_TYPE	"lro_policy_ops"
#define POLICY_PIN_MAX	(sizeof(POLICY_PIN_DIR) + POLICY_NAME_MAX)
/* Policies one object may carry */
#define POLICY_MAPS_MAX	16

/* One policy of policy-get's dump, printed. */
static int policy_show_cb(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[LRO_A_POLICY_MAX + 1];
	uint64_t devices = 0;

	(void)arg;
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, LRO_A_POLICY_MAX, NULL) ||
	    !tb[LRO_A_POLICY_NAME])
		return NL_SKIP;
	if (tb[LRO_A_POLICY_DEVICES])
		devices = nla_get_uint_var(tb[LRO_A_POLICY_DEVICES]);
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s",
		     nla_get_string(tb[LRO_A_POLICY_NAME]));
	print_u64(PRINT_ANY, "devices", " devices %" PRIu64 "\n", devices);
	close_json_object();
	return NL_OK;
}

/* policy show, or policy alone */
int cmd_policy(int argc, char **argv)
{
	return show_cmd(argc, argv, "policy show", LRO_CMD_POLICY_GET,
			policy_show_cb);
}

/*
 * The name member of @map's struct lro_policy_ops, as the object gives
 * it, into @name; -1 if @map is a struct_ops map of another type or its
 * name is not a string that fits.
 */
static int policy_map_name(const struct bpf_object *obj,
			   const struct bpf_map *map, char *name, size_t len)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_member *m;
	const struct btf_type *t;
	const char *data;
	size_t size, n;
	int i;

	t = btf ? btf__type_by_id(btf, bpf_map__btf_value_type_id(map)) : NULL;
	data = bpf_map__initial_value((struct bpf_map *)map, &size);
	if (!t || !data || !btf_is_struct(t) ||
	    strcmp(btf__name_by_offset(btf, t->name_off), POLICY_TYPE))
		return -1;
	/* libbpf gives the kernel's size of the value: the object's may be less */
	if (size > t->size)
		size = t->size;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++) {
		size_t off = btf_member_bit_offset(t, i) / 8;

		if (strcmp(btf__name_by_offset(btf, m->name_off), "name"))
			continue;
		if (off >= size)
			return -1;
		n = strnlen(data + off, size - off);
		if (!n || n >= len)
			return -1;
		memcpy(name, data + off, n + 1);
		return 0;
	}
	return -1;
}

/* Register @map and pin what keeps it registered at @pin. */
static int policy_register(struct bpf_map *map, const char *pin)
{
	struct bpf_link *link;
	int err;

	link = bpf_map__attach_struct_ops(map);
	if (!link)
		return -errno;
	if (bpf_map__map_flags(map) & BPF_F_LINK) {
		err = bpf_link__pin(link, pin);
	} else {
		/* Registered until the map's element is deleted (unload). */
		err = bpf_map__pin(map, pin);
		if (!err)
			bpf_link__disconnect(link);
	}
	bpf_link__destroy(link);
	return err;
}

/* The pin of policy @name, into @pin; -1 if @name cannot be one. */
static int policy_pin(const char *name, char pin[POLICY_PIN_MAX])
{
	if (!*name || strlen(name) >= POLICY_NAME_MAX || strchr(name, '/'))
		return -1;
	snprintf(pin, POLICY_PIN_MAX, "%s/%s", POLICY_PIN_DIR, name);
	return 0;
}

/*
 * Unregister the policy pinned at @pin and remove the pin: 0, or the exit
 * status after an error. A link is detached, a map's element deleted:
 * unregistered now, whoever else holds the link or the map.
 * (BPF_OBJ_GET_INFO_BY_FD answers for either, so it cannot tell which: a
 * map refuses the detach with EINVAL.)
 */
static int policy_unpin(const char *name, const char *pin)
{
	uint32_t zero = 0;
	int fd, err;

	fd = bpf_obj_get(pin);
	if (fd < 0) {
		error("no policy %s was loaded by lroadm (%s: %s)", name, pin,
		      strerror(errno));
		return EXIT_USAGE;
	}
	err = bpf_link_detach(fd);
	if (err && errno == EINVAL)
		err = bpf_map_delete_elem(fd, &zero);
	/* ENOENT, EINPROGRESS: unregistered already, by other means */
	if (err && errno != ENOENT && errno != EINPROGRESS) {
		error("cannot unregister %s: %s", name, strerror(errno));
		close(fd);
		return EXIT_KERNEL;
	}
	close(fd);
	if (unlink(pin)) {
		error("%s unregistered, but cannot remove %s: %s", name, pin,
		      strerror(errno));
		return EXIT_KERNEL;
	}
	return 0;
}

/*
 * The lro_policy_ops maps of @obj and their names, checked: each a policy
 * with a name no pin has yet. The number of them, or -1 after an error.
 */
static int policy_maps(struct bpf_object *obj, const char *file,
		       struct bpf_map *maps[], char names[][POLICY_NAME_MAX])
{
	char pin[POLICY_PIN_MAX];
	struct bpf_map *map;
	int n = 0;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		if (n == POLICY_MAPS_MAX) {
			error("%s has more than %d policies", file, POLICY_MAPS_MAX);
			return -1;
		}
		if (policy_map_name(obj, map, names[n], POLICY_NAME_MAX) ||
		    policy_pin(names[n], pin)) {
			error("map %s of %s is not a struct %s with a name",
			      bpf_map__name(map), file, POLICY_TYPE);
			return -1;
		}
		if (!access(pin, F_OK)) {
			error("a policy %s is loaded already (%s)", names[n], pin);
			return -1;
		}
		maps[n++] = map;
	}
	if (!n)
		error("%s has no struct %s", file, POLICY_TYPE);
	return n ? n : -1;
}

/*
 * Register every lro_policy_ops map of @obj, loaded: all of them, or none
 * (those registered before one failed are unregistered again).
 */
static int policy_register_all(struct bpf_object *obj, const char *file)
{
	char names[POLICY_MAPS_MAX][POLICY_NAME_MAX], pin[POLICY_PIN_MAX];
	struct bpf_map *maps[POLICY_MAPS_MAX];
	int i, n, err = 0;

	n = policy_maps(obj, file, maps, names);
	if (n < 0)
		return EXIT_USAGE;
	for (i = 0; i < n && !err; i++) {
		policy_pin(names[i], pin);
		err = policy_register(maps[i], pin);
	}
	if (err == -EEXIST)
		error("a policy %s is registered already", names[i - 1]);
	else if (err)
		bpf_fail("cannot register the policy", -err);
	if (err) {
		for (i -= 2; i >= 0; i--) {
			policy_pin(names[i], pin);
			policy_unpin(names[i], pin);
		}
		return EXIT_KERNEL;
	}
	for (i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}

static int policy_load(int argc, char **argv)
{
	struct bpf_object *obj;
	int err, ret;

	if (argc != 2) {
		error("policy load needs a BPF object file");
		return EXIT_USAGE;
	}
	if (bpf_preflight("policy load"))
		return EXIT_KERNEL;
	if (mkdir(POLICY_PIN_DIR, 0700) && errno != EEXIST) {
		error("cannot create %s: %s (is bpffs mounted at /sys/fs/bpf?)",
		      POLICY_PIN_DIR, strerror(errno));
		return EXIT_KERNEL;
	}
	bpf_log_start();
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		error("cannot open %s: %s", argv[1], strerror(errno));
		return EXIT_USAGE;
	}
	err = bpf_object__load(obj);
	if (err) {
		bpf_fail("the kernel refused the policy", -err);
		bpf_object__close(obj);
		return EXIT_KERNEL;
	}
	ret = policy_register_all(obj, argv[1]);
	bpf_object__close(obj);
	return ret;
}

static int policy_unload(int argc, char **argv)
{
	char pin[POLICY_PIN_MAX];

	if (argc != 2) {
		error("policy unload needs a policy name");
		return EXIT_USAGE;
	}
	if (policy_pin(argv[1], pin)) {
		error("invalid policy name \"%s\"", argv[1]);
		return EXIT_USAGE;
	}
	return policy_unpin(argv[1], pin);
}

/* In the order a prefix looks them up: show first, as policy alone. */
const struct cmd policy_cmds[] = {
	{ "show",	cmd_policy,	"policy [ show ]", NULL },
	{ "load",	policy_load,	"policy load FILE", NULL },
	{ "unload",	policy_unload,	"policy unload NAME", NULL },
	{ }
};
