// SPDX-License-Identifier: GPL-2.0
/*
 * lro_engine_test: tests of the LRO engine through its driver API.
 *
 * At load, every case (rules.c, descs.c, paths.c, ipv6.c) runs against a
 * fresh manager whose packets go up a test device of our own (lrotest%d):
 * its rx_handler takes them into a queue. Then each packet is checked against the
 * segments that went in (see lt_check_pkt()), and the manager's
 * statistics against the case's expectation. Results are printed to the
 * kernel log as KTAP and counted in the read-only parameters passed and
 * failed; the module stays loaded until removed (selftests/engine.sh).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/if_vlan.h>
#include <linux/module.h>
#include <net/checksum.h>
#include <net/gso.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/tcp.h>

#include "harness.h"

#define LT_WAIT_MS	1000

static unsigned int passed, failed;
module_param(passed, uint, 0444);
MODULE_PARM_DESC(passed, "test cases that passed");
module_param(failed, uint, 0444);
MODULE_PARM_DESC(failed, "test cases that failed");

static struct lt_ctx *lt;
/* A letter per enum lro_flush_reason, as in the expectations */
static const char lt_reasons[LRO_FLUSH_NR + 1] = "MSQFPBTDKEH";

const char *lt_fail(struct lt_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	return t->msg;
}

/* End the token of t->seen_* in t->seen. */
static void lt_seen_put(struct lt_ctx *t)
{
	size_t n = strlen(t->seen);

	if (!t->seen_rep)
		return;
	if (t->seen_rep > 1)
		snprintf(t->seen + n, sizeof(t->seen) - n, " %u%cx%u",
			 t->seen_segs, t->seen_how, t->seen_rep);
	else
		snprintf(t->seen + n, sizeof(t->seen) - n, " %u%c",
			 t->seen_segs, t->seen_how);
	t->seen_rep = 0;
}

/*
 * Note a packet sent up as a token ("4B"): its segments, and the flush
 * reason whose counter went up since the last one ('p' if none). Right
 * for packets sent up synchronously (LRO_F_NAPI), which most cases use.
 */
void lt_seen(struct lt_ctx *t, struct sk_buff *skb)
{
	const unsigned long *flush = t->mgr.stats.flush;
	unsigned int segs = skb_is_gso(skb) ? skb_shinfo(skb)->gso_segs : 1;
	char how = 'p';
	int i;

	for (i = 0; i < LRO_FLUSH_NR; i++) {
		if (flush[i] != t->seen_flush[i])
			how = lt_reasons[i];
		t->seen_flush[i] = flush[i];
	}
	if (t->seen_rep && (segs != t->seen_segs || how != t->seen_how))
		lt_seen_put(t);
	t->seen_segs = segs;
	t->seen_how = how;
	t->seen_rep++;
}

const char *lt_seen_str(struct lt_ctx *t)
{
	lt_seen_put(t);
	return t->seen[0] ? t->seen + 1 : "nothing";
}

/* Checking what came out */

struct lt_want {
	const char *p;
	unsigned int segs, left;
	int why;	/* enum lro_flush_reason, or -1: passed */
};

static unsigned int lt_num(const char **p)
{
	unsigned int n = 0;

	while (isdigit(**p))
		n = n * 10 + *(*p)++ - '0';
	return n;
}

/* The next expected packet: 1, 0 at the end, -1 if malformed. */
static int lt_want_next(struct lt_want *w)
{
	const char *r;
	char how;

	if (w->left) {
		w->left--;
		return 1;
	}
	w->p = skip_spaces(w->p);
	if (!*w->p)
		return 0;
	w->segs = lt_num(&w->p);
	how = *w->p++;
	r = how ? strchr(lt_reasons, how) : NULL;
	if (how != 'p' && !r)
		return -1;
	w->why = how == 'p' ? -1 : r - lt_reasons;
	if (*w->p == 'x') {
		w->p++;
		w->left = lt_num(&w->p);
		if (!w->left--)
			return -1;
	}
	return w->segs ? 1 : -1;
}

/* Are @f's addresses those of the IP header at @p? */
static bool lt_flow_addrs(const struct lt_flow *f, const u8 *p)
{
	const struct iphdr *iph = (const struct iphdr *)p;
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)p;
	bool v6 = iph->version == 6;

	if (f->v6 != v6)
		return false;
	if (f->v6)
		return ipv6_addr_equal(&f->saddr6, &ip6->saddr) &&
		       ipv6_addr_equal(&f->daddr6, &ip6->daddr);
	return f->saddr == iph->saddr && f->daddr == iph->daddr;
}

/* The flow @nh/@th belongs to, if its next segment due starts there;
 * @outer: a stripped tag in front of @vlan, an in-band one (0: none)
 */
static struct lt_flow *lt_find_flow(struct lt_ctx *t, const u8 *nh,
				    const struct tcphdr *th, u16 vlan,
				    u16 outer)
{
	unsigned int i, j;

	/* first the flow whose port lt_flow() gave, then all of them */
	for (i = 0; i <= t->nflows; i++) {
		struct lt_flow *f;

		j = i ? i - 1 : ntohs(th->source) - 1000;
		if (j >= t->nflows)
			continue;
		f = &t->flows[j];
		if (f->cur >= 0 && lt_flow_addrs(f, nh) &&
		    htons(f->sport) == th->source &&
		    htons(f->dport) == th->dest && f->vlan == vlan &&
		    (f->inband ? f->outer : 0) == outer &&
		    t->in[f->cur].seq == ntohl(th->seq))
			return f;
	}
	return NULL;
}

static const char *lt_check_single(struct lt_ctx *t, struct sk_buff *skb,
				   struct sk_buff *c, struct lt_in *in,
				   unsigned int k)
{
	if (c->len != in->len || memcmp(c->data, in->data, in->len))
		return lt_fail(t, "pkt %u: a lone segment was changed", k);
	if (skb_is_gso(skb))
		return lt_fail(t, "pkt %u: a lone segment has gso_size %u", k,
			       skb_shinfo(skb)->gso_size);
	if (in->bad) {
		if (skb->ip_summed != in->summed ||
		    (in->summed == CHECKSUM_COMPLETE && skb->csum != in->csum))
			return lt_fail(t, "pkt %u: bad checksum, ip_summed %u, given %u",
				       k, skb->ip_summed, in->summed);
		return NULL;
	}
	if (in->flow && !lt_csum_ok(c->data, c->len))
		return lt_fail(t, "pkt %u: checksums do not verify", k);
	if (in->plain && skb->ip_summed != CHECKSUM_UNNECESSARY)
		return lt_fail(t, "pkt %u: verified segment has ip_summed %u", k,
			       skb->ip_summed);
	if (skb->ip_summed != in->summed &&
	    skb->ip_summed != CHECKSUM_UNNECESSARY)
		return lt_fail(t, "pkt %u: ip_summed %u, given %u", k,
			       skb->ip_summed, in->summed);
	if (skb->ip_summed == CHECKSUM_COMPLETE &&
	    csum_fold(skb->csum) != csum_fold(csum_partial(c->data, c->len, 0)))
		return lt_fail(t, "pkt %u: CHECKSUM_COMPLETE value is wrong", k);
	return NULL;
}

/*
 * Packet @k sent up, expected to hold @segs segments: it must start with
 * the next segment due of its flow, hold whole segments that followed in
 * sequence, and be that lone segment untouched or a valid GSO packet of
 * them.
 */
static const char *lt_check_pkt(struct lt_ctx *t, struct sk_buff *skb,
				unsigned int k, unsigned int segs)
{
	u16 vlan = skb_vlan_tag_present(skb) ? skb_vlan_tag_get_id(skb) : 0;
	unsigned int n = 0, covered = 0, payload, ihl = 0;
	__be16 proto = skb->protocol;
	u16 outer = 0;
	struct lt_in *in, *first;
	struct lt_flow *f = NULL;
	const struct tcphdr *th = NULL;
	const char *err;
	struct sk_buff *c;

	c = skb_copy(skb, GFP_KERNEL);
	if (!c)
		return lt_fail(t, "pkt %u: no memory", k);
	/* Two tags: the stack took the outer one out and left the inner one
	 * in the packet, as it does for what comes up through our device.
	 */
	if (proto == htons(ETH_P_8021Q) && skb_vlan_tag_present(skb) &&
	    c->len >= VLAN_HLEN) {
		const struct vlan_hdr *vh = (const struct vlan_hdr *)c->data;

		outer = vlan;
		vlan = ntohs(vh->h_vlan_TCI) & VLAN_VID_MASK;
		proto = vh->h_vlan_encapsulated_proto;
		skb_pull(c, VLAN_HLEN);
	}
	/* by the IP version: a wrong skb->protocol is an error of its own */
	ihl = lt_iphl(c->data, c->len);
	if (ihl && c->len >= ihl + sizeof(*th)) {
		th = (const struct tcphdr *)(c->data + ihl);
		f = lt_find_flow(t, c->data, th, vlan, outer);
	}
	if (f && proto != htons(f->v6 ? ETH_P_IPV6 : ETH_P_IP)) {
		err = lt_fail(t, "pkt %u: protocol %#x", k, ntohs(skb->protocol));
		goto out;
	}
	if (!f) {
		first = t->raw.cur >= 0 ? &t->in[t->raw.cur] : NULL;
		if (!first || c->len != first->len ||
		    memcmp(c->data, first->data, c->len)) {
			err = lt_fail(t, "pkt %u (port %u seq %u): not the next of its flow",
				      k, th ? ntohs(th->source) : 0,
				      th ? ntohl(th->seq) : 0);
			goto out;
		}
		first->used = true;
		t->raw.cur = first->next;
		err = segs == 1 ? NULL :
		      lt_fail(t, "pkt %u: 1 segment, want %u", k, segs);
		goto out;
	}
	/* the stack took its tag out of the packet after LRO counted it */
	t->inband_out += f->inband && !outer;

	/* an aggregate whose IP header has the wrong length would pass for
	 * fewer segments below
	 */
	if (skb_is_gso(skb) && lt_iplen(c->data) != c->len) {
		err = lt_fail(t, "pkt %u: IP length %u, packet %u", k,
			      lt_iplen(c->data), c->len);
		goto out;
	}
	payload = lt_iplen(c->data) - ihl - th->doff * 4;
	first = &t->in[f->cur];
	in = first;
	do {
		if (in->seq != first->seq + covered) {
			err = lt_fail(t, "pkt %u: segment at seq %u is not the next due",
				      k, in->seq);
			goto out;
		}
		in->used = true;
		n++;
		covered += in->payload;
		f->cur = in->next;
		in = lt_next(t, in);
	} while (covered < payload && in);
	if (covered != payload)
		err = lt_fail(t, "pkt %u: payload %u, segments cover %u", k,
			      payload, covered);
	else if (n != segs)
		err = lt_fail(t, "pkt %u: %u segments, want %u", k, n, segs);
	else if (n == 1)
		err = lt_check_single(t, skb, c, first, k);
	else
		err = lt_check_agg(t, skb, c, first, n, k);
out:
	kfree_skb(c);
	return err;
}

static const char *lt_check_stats(struct lt_ctx *t,
				  const struct net_lro_stats *want)
{
	static const struct {
		const char *name;
		size_t off;
	} field[] = {
#define LT_STAT(x) { #x, offsetof(struct net_lro_stats, x) }
		LT_STAT(aggregated), LT_STAT(flushed), LT_STAT(no_desc),
		LT_STAT(pkts_in), LT_STAT(bytes_in), LT_STAT(pkts_out),
		LT_STAT(bytes_out), LT_STAT(held), LT_STAT(held_bytes),
#undef LT_STAT
	};
	const struct net_lro_stats *s = &t->mgr.stats;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(field); i++) {
		unsigned long got = *(const unsigned long *)((u8 *)s + field[i].off);
		unsigned long exp = *(const unsigned long *)((u8 *)want + field[i].off);

		if (got != exp)
			return lt_fail(t, "stats.%s %lu, want %lu", field[i].name,
				       got, exp);
	}
	for (i = 0; i < LRO_FLUSH_NR; i++)
		if (s->flush[i] != want->flush[i])
			return lt_fail(t, "stats.flush[%c] %lu, want %lu",
				       lt_reasons[i], s->flush[i], want->flush[i]);
	if (t->mgr.nr_active)
		return lt_fail(t, "%u descriptors still active", t->mgr.nr_active);
	/* idle: every hash chain empty, every descriptor free */
	for (i = 0; i < t->mgr.max_desc; i++)
		if (t->mgr.lro_arr[i].bucket || t->mgr.lro_arr[i].active)
			return lt_fail(t, "idle, but descriptor %u has bucket %u",
				       i, t->mgr.lro_arr[i].bucket);
	return NULL;
}

static const char *lt_check(struct lt_ctx *t, const char *spec)
{
	struct lt_want w = { .p = spec };
	struct net_lro_stats want = {};
	unsigned int total = 0, k = 0, i;
	const char *err = NULL;
	struct sk_buff *skb;
	int r;

	while ((r = lt_want_next(&w)) > 0) {
		total++;
		if (w.why < 0)
			continue;
		want.flushed++;
		want.flush[w.why]++;
		want.aggregated += w.segs;
	}
	if (r < 0)
		return lt_fail(t, "bad expectation '%s'", spec);
	/* netif_rx() packets come from the backlog softirq */
	for (i = 0; i < LT_WAIT_MS && skb_queue_len(&t->rxq) < total; i++)
		usleep_range(1000, 2000);

	w = (struct lt_want) { .p = spec };
	while ((skb = skb_dequeue(&t->rxq))) {
		want.bytes_out += skb->len;
		if (!err && lt_want_next(&w) <= 0)
			err = lt_fail(t, "more than %u packets sent up", total);
		else if (!err)
			err = lt_check_pkt(t, skb, k, w.segs);
		k++;
		consume_skb(skb);
	}
	if (err)
		return err;
	if (k != total)
		return lt_fail(t, "%u packets sent up, want %u", k, total);
	for (i = 0; i < t->nin; i++) {
		if (!t->in[i].used)
			return lt_fail(t, "input %u (seq %u) was not sent up", i,
				       t->in[i].seq);
		want.bytes_in += t->in[i].len + (t->in[i].inband ? VLAN_HLEN : 0);
	}
	want.bytes_out += t->inband_out * VLAN_HLEN;
	want.pkts_in = t->nin;
	want.pkts_out = total;
	want.no_desc = t->no_desc;
	return lt_check_stats(t, &want);
}

/* An skb whose clone went to LRO must be as it was. */
static const char *lt_check_orig(struct lt_ctx *t, struct sk_buff *orig,
				 struct lt_in *in)
{
	struct sk_buff *c = NULL;
	bool same;

	/* frags stolen from a shared skb_shared_info: no copy possible */
	same = skb_shinfo(orig)->nr_frags == in->nfrags && orig->len == in->len;
	if (same) {
		c = skb_copy(orig, GFP_KERNEL);
		same = c && !memcmp(c->data, in->data, in->len);
	}
	kfree_skb(c);
	return same ? NULL : lt_fail(t, "the original of a cloned segment changed");
}

static const char *lt_run(struct lt_ctx *t, const struct lt_case *c)
{
	const char *err;
	unsigned int i;

	if (lt_reset(t))
		return t->err;
	err = c->run(t, c->arg);
	if (!err)
		err = t->err;
	if (!err)
		err = lt_check(t, t->want ?: c->want);

	/* whatever a failed case left behind */
	lt_flush_all(t);
	for (i = 0; i < t->nkeep; i++) {
		if (!err)
			err = lt_check_orig(t, t->keep[i].skb, &t->in[t->keep[i].in]);
		kfree_skb(t->keep[i].skb);
	}
	skb_queue_purge(&t->rxq);
	return err;
}

static const struct lt_case_set *const lt_sets[] = {
	&lt_rule_cases, &lt_desc_cases, &lt_path_cases, &lt_ipv6_cases,
};

/* Case @c, as KTAP test @n */
static void lt_report(const struct lt_case *c, unsigned int n)
{
	const char *why = lt_run(lt, c);

	if (why) {
		failed++;
		pr_info("not ok %u %s: %s\n", n, c->name, why);
		pr_info("# %s: want \"%s\", seen \"%s\"\n", c->name,
			lt->want ?: c->want, lt_seen_str(lt));
	} else {
		passed++;
		pr_info("ok %u %s\n", n, c->name);
	}
	cond_resched();
}

/* How many cases table entry @c stands for */
static unsigned int lt_count(const struct lt_case *c)
{
	unsigned int n = 0;

	if (!c->variants)
		return 1;
	while (c->variants[n].name)
		n++;
	return n;
}

/* The cases of table entry @c, as KTAP tests @n on */
static void lt_entry(const struct lt_case *c, unsigned int n)
{
	const struct lt_variant *v;
	struct lt_case one = *c;
	char name[64];

	if (!c->variants) {
		lt_report(c, n);
		return;
	}
	for (v = c->variants; v->name; v++) {
		snprintf(name, sizeof(name), "%s%s", c->name, v->name);
		one.name = name;
		one.arg = c->arg | v->arg;
		one.want = v->want ?: c->want;
		lt_report(&one, n++);
	}
}

static int __init lt_init(void)
{
	unsigned int s, i, n = 0;
	const struct lt_case *c;

	lt = lt_ctx_new();
	if (IS_ERR(lt))
		return PTR_ERR(lt);

	for (s = 0; s < ARRAY_SIZE(lt_sets); s++)
		for (i = 0; i < lt_sets[s]->n; i++)
			n += lt_count(&lt_sets[s]->cases[i]);
	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", n);
	for (n = 0, s = 0; s < ARRAY_SIZE(lt_sets); s++) {
		for (i = 0; i < lt_sets[s]->n; i++) {
			c = &lt_sets[s]->cases[i];
			lt_entry(c, n + 1);
			n += lt_count(c);
		}
	}
	pr_info("# Totals: pass:%u fail:%u skip:0\n", passed, failed);
	return 0;
}

static void __exit lt_exit(void)
{
	lt_ctx_free(lt);
}

module_init(lt_init);
module_exit(lt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tests of the lro engine through the inet_lro API");
