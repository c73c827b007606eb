// SPDX-License-Identifier: GPL-2.0
/*
 * lroadm: generic netlink requests with libnl-3, and error reporting.
 *
 * The socket asks for extended ACKs (NETLINK_EXT_ACK), so a rejected
 * request comes back with the kernel's message and, for an attribute the
 * policy refused, the attribute's offset in the request and the policy it
 * broke; and a request done may come back with a message too, a warning.
 * libnl 3.7 has no extended ACK support of its own: the error and ACK
 * callbacks get the struct nlmsgerr, which sits right after the nlmsghdr
 * of the message, and parse the TLVs that follow it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/socket.h>

#include "lroadm.h"
#include "nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct lnl_reply {
	const struct nlmsghdr *req;	/* what we sent, to map offsets */
	const struct lnl_attrs *attrs;	/* and to name its attributes */
	int (*cb)(struct nl_msg *msg, void *arg);
	void *arg;
	bool done;
	bool stopped;			/* cb returned NL_STOP, said why */
	int error;			/* positive errno */
	char msg[256];			/* NLMSGERR_ATTR_MSG */
	const char *bad_attr;		/* name of the one at NLMSGERR_ATTR_OFFS */
	const char *miss_attr;		/* name of NLMSGERR_ATTR_MISS_TYPE */
	bool has_range, has_mask;
	uint64_t min, max, mask;	/* from NLMSGERR_ATTR_POLICY */
};

int lnl_open(struct lnl *nl, const struct lnl_attrs *attrs)
{
	int one = 1, err;

	nl->attrs = attrs;
	nl->sk = nl_socket_alloc();
	if (!nl->sk) {
		error("out of memory");
		return EXIT_USAGE;
	}
	err = genl_connect(nl->sk);
	if (err) {
		error("cannot open a generic netlink socket: %s", nl_geterror(err));
		goto fail;
	}
	/* Best effort: without them errors are just errno values. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));

	nl->family = genl_ctrl_resolve(nl->sk, LRO_FAMILY_NAME);
	if (nl->family == -NLE_OBJ_NOTFOUND) {
		error("the lro module is not loaded (modprobe lro)");
		goto fail;
	}
	if (nl->family < 0) {
		error("cannot resolve the lro netlink family: %s",
		      nl_geterror(nl->family));
		goto fail;
	}
	return 0;
fail:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return EXIT_KERNEL;
}

void lnl_close(struct lnl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}

struct nl_msg *lnl_req(struct lnl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0,
				 flags, cmd, LRO_FAMILY_VERSION)) {
		error("out of memory");
		exit(EXIT_USAGE);
	}
	return msg;
}

/*
 * The name of attribute type of a request, at the top level or inside the
 * nest its attrs name, for an error report; NULL where it has none.
 */
static const char *lnl_attr_name(const struct lnl_attrs *a, bool nested,
				 int type)
{
	if (!a)
		return NULL;
	if (nested)
		return a->nest_name ? a->nest_name(type) : NULL;
	return a->name ? a->name(type) : NULL;
}

/* Whether nla of req is at offset off. */
static bool lnl_attr_is_at(const struct nlmsghdr *req,
			   const struct nlattr *nla, uint32_t off)
{
	return (const char *)nla - (const char *)req == (long)off;
}

/*
 * The name of the attribute of req at offset off: a top-level one, or one
 * inside the nest a names. NULL where there is none, and for the one a
 * leaves unnamed.
 */
static const char *lnl_attr_at(const struct lnl_attrs *a,
			       const struct nlmsghdr *req, uint32_t off)
{
	const struct genlmsghdr *gnlh = nlmsg_data(req);
	struct nlattr *nla, *in;
	int rem, irem;

	nla_for_each_attr(nla, genlmsg_attrdata(gnlh, 0),
			  genlmsg_attrlen(gnlh, 0), rem) {
		if (lnl_attr_is_at(req, nla, off)) {
			if (a && a->unnamed && nla_type(nla) == a->unnamed)
				return NULL;
			return lnl_attr_name(a, false, nla_type(nla));
		}
		if (!a || !a->nest || nla_type(nla) != a->nest)
			continue;
		nla_for_each_nested(in, nla, irem)
			if (lnl_attr_is_at(req, in, off))
				return lnl_attr_name(a, true, nla_type(in));
	}
	return NULL;
}

static void lnl_parse_policy(struct lnl_reply *r, struct nlattr *pol)
{
	struct nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (nla_parse_nested(tb, NL_POLICY_TYPE_ATTR_MAX, pol, NULL))
		return;
	if (tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] &&
	    tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) {
		r->has_range = true;
		r->min = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U]);
		r->max = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]);
	}
	if (tb[NL_POLICY_TYPE_ATTR_MASK]) {
		r->has_mask = true;
		r->mask = nla_get_u64(tb[NL_POLICY_TYPE_ATTR_MASK]);
	}
}

/*
 * The extended ACK attributes of nlh, an error or an ACK (NLM_F_ACK_TLVS),
 * into r. They follow the struct nlmsgerr and the request in it: whole,
 * or its header only (NLM_F_CAPPED; always so in an ACK).
 */
static void lnl_ack_tlvs(struct lnl_reply *r, const struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t payload;
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	payload = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		payload += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)NLMSG_ALIGN(payload);
	if (len <= 0 ||
	    nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)e + NLMSG_ALIGN(payload)), len, NULL))
		return;

	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(r->msg, sizeof(r->msg), "%.*s",
			 nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		r->bad_attr = lnl_attr_at(r->attrs, r->req,
					  nla_get_u32(tb[NLMSGERR_ATTR_OFFS]));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		r->miss_attr = lnl_attr_name(r->attrs, !!tb[NLMSGERR_ATTR_MISS_NEST],
					     nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
	if (tb[NLMSGERR_ATTR_POLICY])
		lnl_parse_policy(r, tb[NLMSGERR_ATTR_POLICY]);
}

/* An error reply: its errno and what the kernel said about it. */
static int lnl_err_cb(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct lnl_reply *r = arg;

	(void)who;
	r->error = -e->error;
	r->done = true;
	lnl_ack_tlvs(r, nlh);
	return NL_STOP;
}

/* The ACK: done, with the kernel's warning if it sent one. */
static int lnl_ack_cb(struct nl_msg *msg, void *arg)
{
	struct lnl_reply *r = arg;

	lnl_ack_tlvs(r, nlmsg_hdr(msg));
	r->done = true;
	return NL_STOP;
}

/* The end of a dump. */
static int lnl_done_cb(struct nl_msg *msg, void *arg)
{
	struct lnl_reply *r = arg;

	(void)msg;
	r->done = true;
	return NL_STOP;
}

static int lnl_valid_cb(struct nl_msg *msg, void *arg)
{
	struct lnl_reply *r = arg;
	int ret = r->cb ? r->cb(msg, r->arg) : NL_OK;

	/* The callback gave up, and printed why. nl_recvmsgs() drops the
	 * rest of the datagram, the DONE or ACK with it: waiting for them
	 * would block for ever. The exchange ends here, failed.
	 */
	if (ret == NL_STOP) {
		r->stopped = true;
		r->done = true;
	}
	return ret;
}

/* The length of the kernel's message, without the periods it ends with:
 * error() and warning() add one.
 */
static int lnl_msg_len(const struct lnl_reply *r)
{
	size_t n = strlen(r->msg);

	while (n && r->msg[n - 1] == '.')
		n--;
	return (int)n;
}

/* The kernel's refusal, as an error: its message, or its errno, and the
 * attribute it names.
 */
static void lnl_report(const struct lnl_reply *r)
{
	char what[128] = "";
	size_t n;

	if (r->bad_attr) {
		n = snprintf(what, sizeof(what), " (attribute %s", r->bad_attr);
		if (r->has_range)
			n += snprintf(what + n, sizeof(what) - n, ", valid %llu..%llu",
				      (unsigned long long)r->min, (unsigned long long)r->max);
		else if (r->has_mask)
			n += snprintf(what + n, sizeof(what) - n, ", valid bits %#llx",
				      (unsigned long long)r->mask);
		snprintf(what + n, sizeof(what) - n, ")");
	} else if (r->miss_attr) {
		snprintf(what, sizeof(what), " (attribute %s missing)",
			 r->miss_attr);
	}

	if (r->msg[0])
		error("%.*s%s", lnl_msg_len(r), r->msg, what);
	else if (r->error == EPERM)
		error("permission denied (CAP_NET_ADMIN needed)");
	else
		error("%s%s", strerror(r->error), what);
}

int lnl_talk(struct lnl *nl, struct nl_msg *req,
	     int (*cb)(struct nl_msg *msg, void *arg), void *arg)
{
	return lnl_talk_quiet(nl, req, cb, arg, 0);
}

int lnl_talk_quiet(struct lnl *nl, struct nl_msg *req,
		   int (*cb)(struct nl_msg *msg, void *arg), void *arg,
		   int quiet)
{
	struct lnl_reply r = {
		.req = nlmsg_hdr(req),
		.attrs = nl->attrs,
		.cb = cb,
		.arg = arg,
	};
	struct nl_cb *nlcb;
	int err, ret;

	nlcb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!nlcb) {
		nlmsg_free(req);
		error("out of memory");
		return EXIT_USAGE;
	}
	nl_cb_set(nlcb, NL_CB_VALID, NL_CB_CUSTOM, lnl_valid_cb, &r);
	nl_cb_set(nlcb, NL_CB_ACK, NL_CB_CUSTOM, lnl_ack_cb, &r);
	nl_cb_set(nlcb, NL_CB_FINISH, NL_CB_CUSTOM, lnl_done_cb, &r);
	nl_cb_err(nlcb, NL_CB_CUSTOM, lnl_err_cb, &r);

	/* Adds NLM_F_REQUEST | NLM_F_ACK, the port and the sequence number. */
	err = nl_send_auto(nl->sk, req);
	while (err >= 0 && !r.done)
		err = nl_recvmsgs(nl->sk, nlcb);
	nl_cb_put(nlcb);

	if (r.stopped) {
		ret = EXIT_USAGE;	/* reported by the callback */
	} else if (r.error && r.error == quiet) {
		ret = -quiet;
	} else {
		if (r.error)
			lnl_report(&r);
		else if (err < 0)
			error("netlink: %s", nl_geterror(err));
		else if (r.msg[0])	/* done, but with a word */
			warning("%.*s", lnl_msg_len(&r), r.msg);
		ret = r.error || err < 0 ? EXIT_KERNEL : 0;
	}
	nlmsg_free(req);
	return ret;
}

int lnl_join(struct lnl *nl, const char *group)
{
	int grp, err;

	grp = genl_ctrl_resolve_grp(nl->sk, LRO_FAMILY_NAME, group);
	if (grp < 0) {
		error("no multicast group \"%s\": %s", group, nl_geterror(grp));
		return EXIT_KERNEL;
	}
	err = nl_socket_add_membership(nl->sk, grp);
	if (err) {
		error("cannot join multicast group \"%s\": %s", group,
		      nl_geterror(err));
		return EXIT_KERNEL;
	}
	return 0;
}
