/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lroadm: requests to the lro generic netlink family, with the kernel's
 * extended ACK messages reported as errors.
 */
#ifndef _LROADM_NL_H
#define _LROADM_NL_H

#include <stdint.h>

#include <netlink/msg.h>

/*
 * How the attributes of a request are named in an error report, as the
 * command that makes it says: name() at the top level, nest_name() inside
 * the top-level nest of type nest (0: none). unnamed (0: none): the
 * top-level attribute the kernel's messages name by what it stands for
 * (a device's ifindex: the device), left unnamed where the kernel points
 * at it.
 */
struct lnl_attrs {
	const char *(*name)(int type);
	int nest;
	const char *(*nest_name)(int type);
	int unnamed;
};

struct lnl {
	struct nl_sock *sk;
	int family;
	const struct lnl_attrs *attrs;	/* NULL: no attribute named */
};

/* Connects and resolves the family (the kernel autoloads lro.ko); attrs
 * names the attributes of the requests in error reports (NULL: none).
 * Returns 0, or the exit status after printing an error: EXIT_KERNEL
 * where the family or netlink cannot be reached.
 */
int lnl_open(struct lnl *nl, const struct lnl_attrs *attrs);
void lnl_close(struct lnl *nl);

/* A request for command cmd with extra netlink flags (NLM_F_DUMP). */
struct nl_msg *lnl_req(struct lnl *nl, uint8_t cmd, int flags);

/* Sends req (and frees it), calls cb for every message of the reply and
 * waits for the ACK or the end of the dump; a message the kernel sent
 * with its ACK is printed as a warning. Returns 0, or the exit status
 * after printing an error: EXIT_KERNEL for the kernel's. cb returns NL_OK,
 * NL_SKIP, or NL_STOP after printing an error (error()) of lroadm's own:
 * then EXIT_USAGE at once, the rest of the reply unread, and the socket
 * is only good for lnl_close().
 */
int lnl_talk(struct lnl *nl, struct nl_msg *req,
	     int (*cb)(struct nl_msg *msg, void *arg), void *arg);

/* lnl_talk(), but a refusal with errno quiet (a positive errno, 0 for
 * none) is returned as -quiet, without a word: the caller has another
 * request to try.
 */
int lnl_talk_quiet(struct lnl *nl, struct nl_msg *req,
		   int (*cb)(struct nl_msg *msg, void *arg), void *arg,
		   int quiet);

/* Joins a multicast group of the family. Returns 0, or EXIT_KERNEL after
 * printing an error.
 */
int lnl_join(struct lnl *nl, const char *group);

#endif /* _LROADM_NL_H */
