// SPDX-License-Identifier: GPL-2.0
/*
 * lro_bench: per-segment cost of the LRO engine and of the kernel's GRO,
 * fed the same train of TCP segments and ending in the same sink.
 *
 * At load time the module runs the cases of its "cases" parameter, a comma
 * separated list of PATH:FLOWSxBURST, e.g. "lro:1x64,gro:1x64,lro:8x8".
 * A case feeds rounds of "total" MSS-sized TCP segments (headers in the
 * linear area, payload in one page fragment, as a NIC driver builds them;
 * CHECKSUM_UNNECESSARY; TCP timestamps) of FLOWS flows, interleaved round
 * robin, BURST segments of each flow per batch. Each batch is one NAPI
 * poll: napi_schedule_prep(), the segments, the path's flush, then
 * napi_complete_done(), which flushes GRO and delivers its list. PATH is
 *
 *   lro     lro_receive_skb() per segment, lro_flush_all() per batch; the
 *           engine delivers with netif_receive_skb() (LRO_F_NAPI)
 *   gro     napi_gro_receive() per segment on a NAPI instance of our
 *           device; napi_complete_done() flushes and delivers the list
 *   off     netif_receive_skb() per segment: no offload
 *   direct  the LRO engine, delivering straight to the sink (deliver hook),
 *           not through the stack: the engine's own cost
 *   free    the sink per segment: the cost of consuming a segment
 *
 * lro, gro and off deliver through the stack's receive path to an
 * rx_handler on our device (lrobench0, registered, down) that counts
 * packets, segments and payload bytes and consumes the skb. The segments
 * of a round are built before the clock starts; the timed region is the
 * feeding, with bottom halves disabled, measured with ktime_get_ns() (an
 * instruction count when QEMU runs with -icount shift=0). After a warm-up
 * round, "rounds" rounds are timed and the median, minimum and maximum
 * cost per segment are reported, one line per case, in
 * /sys/kernel/debug/lro_bench/results and in the kernel log.
 *
 * The LRO manager gets max_desc = FLOWS descriptors (or the max_desc
 * parameter) and max_aggr = the max_aggr parameter. lro.ko loaded with
 * linear_lookup=1 turns the "lro" path into the 2007 linear scan.
 *
 * With policy=NAME, the lro and direct cases run with the BPF merge policy
 * registered as NAME (lroadm policy load) as their manager's policy: what a
 * policy costs per segment. After the timed rounds such a case runs one
 * more round, untimed, in which the engine asks the policy through a
 * counting wrapper: its line reports that round's calls (policy_calls),
 * and the case fails its checks unless they equal the packets that reached
 * the sink (each was started, or passed alone, after the policy was asked):
 * a cost measured where the policy is not called would say nothing.
 */

#include <linux/debugfs.h>
#include <linux/inet_lro.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/ip.h>
#include <net/tcp.h>

#include "seg.h"
#include "train.h"
#include "testdev.h"
#include "policy.h"

/* A read-only parameter: its variable, default and description at once */
#define LB_PARAM(type, name, ptype, value, desc)	\
	static type name = value;			\
	module_param(name, ptype, 0444);		\
	MODULE_PARM_DESC(name, desc)

LB_PARAM(char *, cases, charp, "lro:1x64,gro:1x64",
	 "PATH:FLOWSxBURST,... with PATH lro, gro, off, direct or free");
LB_PARAM(unsigned int, total, uint, 16384,
	 "segments per round (at least FLOWS x BURST, a multiple of it)");
LB_PARAM(unsigned int, rounds, uint, 5,
	 "timed rounds per case (median reported)");
LB_PARAM(unsigned int, warmup, uint, 1,
	 "untimed rounds before the timed ones");
LB_PARAM(unsigned int, max_aggr, uint, 64, "max_aggr of the LRO manager");
LB_PARAM(unsigned int, max_desc, uint, 0,
	 "max_desc of the LRO manager (0: FLOWS)");
LB_PARAM(unsigned int, mss, uint, 1448, "TCP payload bytes per segment");
LB_PARAM(char *, policy, charp, "",
	 "BPF merge policy of the lro and direct cases (empty: none)");

#define LB_MAX_FLOWS	65536
#define LB_MAX_SEGS	(1U << 20)
#define LB_MAX_ROUNDS	101

enum lb_path { LB_LRO, LB_GRO, LB_OFF, LB_DIRECT, LB_FREE };

static const char * const lb_path_names[] = {
	[LB_LRO] = "lro",
	[LB_GRO] = "gro",
	[LB_OFF] = "off",
	[LB_DIRECT] = "direct",
	[LB_FREE] = "free",
};

/* What reached the sink in the current round. */
struct lb_sink {
	u64 pkts;
	u64 segs;
	u64 bytes;
};

static struct net_device *lb_dev;
static struct napi_struct lb_napi;
static struct lb_sink lb_sink;
static struct dentry *lb_dir;
static char lb_results[16384];
static struct debugfs_blob_wrapper lb_blob = { .data = lb_results };

static void lb_consume(struct sk_buff *skb)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	const struct tcphdr *th = (const struct tcphdr *)(skb->data + iph->ihl * 4);

	lb_sink.pkts++;
	lb_sink.segs += skb_shinfo(skb)->gso_segs ?: 1;
	lb_sink.bytes += skb->len - iph->ihl * 4 - th->doff * 4;
	consume_skb(skb);
}

/* The stack hands our device's packets here: data at the network header. */
static rx_handler_result_t lb_rx_handler(struct sk_buff **pskb)
{
	lb_consume(*pskb);
	return RX_HANDLER_CONSUMED;
}

static void lb_deliver(struct net_lro_mgr *mgr, struct sk_buff *skb)
{
	lb_consume(skb);
}

static int lb_poll(struct napi_struct *napi, int budget)
{
	return 0;	/* never scheduled: the benchmark drives the NAPI itself */
}

struct lb_case {
	enum lb_path path;
	unsigned int flows;
	unsigned int burst;
	unsigned int segs;	/* per round */
};

struct lb_state {
	struct lb_flow *flows;
	struct sk_buff **train;
	struct lb_train src;	/* what each segment of a round shares */
	struct net_lro_mgr mgr;
	const struct lro_policy_ops *policy;	/* of the case, or NULL */
	struct lro_policy_state pstate;		/* what mgr.ops asks */
	u64 cost[LB_MAX_ROUNDS];	/* ns x 100 per segment, per round */
	u64 build[LB_MAX_ROUNDS];
};

/* The policy the check round wraps, and how often the engine asked it. */
static const struct lro_policy_ops *lb_counted;
static u64 lb_policy_calls;

/* The check round's flow_start: count, then ask the policy itself. */
static int lb_count_flow_start(const struct lro_policy_flow *flow,
			       struct lro_policy_hold *hold)
{
	lb_policy_calls++;
	return lb_counted->flow_start(flow, hold);
}

static struct lro_policy_ops lb_count_ops = {
	.flow_start = lb_count_flow_start,
	.name = "lro_bench",
};

/* The engine asks the policy as lro.ko's rx_handler does (kmod/rx.c). */
static bool lb_ops_start(struct net_lro_mgr *mgr, struct lro_seg *seg)
{
	struct lb_state *st = container_of(mgr, struct lb_state, mgr);

	return lro_policy_start(&st->pstate, seg, 0);
}

static void lb_ops_flushed(struct net_lro_mgr *mgr,
			   const struct net_lro_desc *d,
			   enum lro_flush_reason why)
{
	lro_policy_flushed(&container_of(mgr, struct lb_state, mgr)->pstate,
			   d, why);
}

static const struct lro_engine_ops lb_engine_ops = {
	.start = lb_ops_start,
	.flushed = lb_ops_flushed,
};

/*
 * Look up the policy parameter for a case of the lro or direct path.
 * RTNL stays held until lb_policy_put(): lro_policy_find()'s pointer is
 * only good while it is, for policies are unregistered under RTNL
 * (kmod/policy.c), which drops them from every device that uses them but
 * cannot know of our manager; holding it keeps the policy registered
 * (its programs loaded) for as long as the case may call it.
 */
static int lb_policy_get(struct lb_state *st, const struct lb_case *c)
{
	const struct lro_policy_ops *ops;

	st->policy = NULL;
	if (!*policy || (c->path != LB_LRO && c->path != LB_DIRECT))
		return 0;
	rtnl_lock();
	ops = lro_policy_find(policy, NULL);
	if (IS_ERR(ops)) {
		rtnl_unlock();
		pr_err("no policy %s is registered (lroadm policy load)\n", policy);
		return PTR_ERR(ops);
	}
	st->policy = ops;
	lb_counted = ops;
	lb_count_ops.flow_flush = ops->flow_flush;
	return 0;
}

/* The case is done with its policy: nothing is held, nothing calls it. */
static void lb_policy_put(struct lb_state *st)
{
	if (!st->policy)
		return;
	st->mgr.ops = NULL;
	st->pstate.ops = NULL;
	st->policy = NULL;
	lb_counted = NULL;
	rtnl_unlock();
}

/* Feed one round; returns the nanoseconds it took. */
static u64 lb_feed(struct lb_state *st, const struct lb_case *c)
{
	unsigned int batch = c->flows * c->burst, i, j;
	u64 t0, t1;

	local_bh_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < c->segs; i += batch) {
		struct sk_buff **skbs = st->train + i;

		if (WARN_ON_ONCE(!napi_schedule_prep(&lb_napi))) {
			for (j = i; j < c->segs; j++)
				kfree_skb(st->train[j]);
			break;
		}
		switch (c->path) {
		case LB_LRO:
		case LB_DIRECT:
			for (j = 0; j < batch; j++)
				lro_receive_skb(&st->mgr, skbs[j], NULL);
			lro_flush_all(&st->mgr);
			break;
		case LB_GRO:
			for (j = 0; j < batch; j++)
				napi_gro_receive(&lb_napi, skbs[j]);
			break;
		case LB_OFF:
			for (j = 0; j < batch; j++)
				netif_receive_skb(skbs[j]);
			break;
		case LB_FREE:
			for (j = 0; j < batch; j++)
				lb_consume(skbs[j]);
			break;
		}
		napi_complete_done(&lb_napi, batch);
	}
	t1 = ktime_get_ns();
	local_bh_enable();
	memset(st->train, 0, c->segs * sizeof(*st->train));
	return t1 - t0;
}

static int lb_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static __printf(1, 2) void lb_report(const char *fmt, ...)
{
	size_t len = lb_blob.size;
	va_list args;

	va_start(args, fmt);
	len += vscnprintf(lb_results + len, sizeof(lb_results) - len, fmt, args);
	va_end(args);
	pr_info("%s", lb_results + lb_blob.size);
	lb_blob.size = len;
}

/* Every flow of @c back at its first segment, for a new round. */
static void lb_reset_flows(struct lb_state *st, const struct lb_case *c)
{
	unsigned int f;

	for (f = 0; f < c->flows; f++)
		lb_flow_reset(&st->flows[f], f);
}

/*
 * Round @r of @c: the warm-up ones, the timed ones (cost and build time
 * recorded), then with a policy the check round, which asks it through
 * lb_count_ops. Returns whether what reached the sink is right, -errno if
 * the round could not be built.
 */
static int lb_round(struct lb_state *st, const struct lb_case *c,
		    unsigned int r, struct lb_sink *first)
{
	bool timed = r >= warmup && r < warmup + rounds;
	bool ok;
	u64 t0;
	int err;

	lb_reset_flows(st, c);
	t0 = ktime_get_ns();
	err = lb_train_build(&st->src, st->flows, c->flows, st->train, c->segs);
	if (err)
		return err;
	memset(&lb_sink, 0, sizeof(lb_sink));
	if (timed)
		st->build[r - warmup] = (ktime_get_ns() - t0) * 100 / c->segs;
	st->pstate.ops = r < warmup + rounds ? st->policy : &lb_count_ops;
	st->mgr.ops = st->pstate.ops ? &lb_engine_ops : NULL;
	lb_policy_calls = 0;
	t0 = lb_feed(st, c);
	if (timed)
		st->cost[r - warmup] = t0 * 100 / c->segs;
	ok = lb_sink.segs == c->segs && lb_sink.bytes == (u64)c->segs * mss &&
	     (!r || lb_sink.pkts == first->pkts);
	/* The check round: the policy was asked once per packet sent up */
	if (r == warmup + rounds)
		ok = ok && lb_policy_calls == lb_sink.pkts;
	if (!r)
		*first = lb_sink;
	return ok;
}

/* One line of results for @c, whose rounds are done. */
static void lb_case_report(struct lb_state *st, const struct lb_case *c,
			   const struct lb_sink *first, bool ok)
{
	u64 *cost = st->cost, *build = st->build;
	char extra[64] = "";

	sort(cost, rounds, sizeof(*cost), lb_cmp_u64, NULL);
	sort(build, rounds, sizeof(*build), lb_cmp_u64, NULL);
	if (st->policy)
		snprintf(extra, sizeof(extra), " policy=%s policy_calls=%llu",
			 st->policy->name, lb_policy_calls);
	/* costs are ns x 100 per segment: printed with two decimals */
	lb_report("%s flows=%u burst=%u segs=%u rounds=%u ns_per_seg=%llu.%02llu min=%llu.%02llu max=%llu.%02llu build_ns_per_seg=%llu.%02llu pkts=%llu segs_out=%llu bytes=%llu no_desc=%lu%s ok=%d\n",
		  lb_path_names[c->path], c->flows, c->burst, c->segs, rounds,
		  cost[rounds / 2] / 100, cost[rounds / 2] % 100,
		  cost[0] / 100, cost[0] % 100,
		  cost[rounds - 1] / 100, cost[rounds - 1] % 100,
		  build[rounds / 2] / 100, build[rounds / 2] % 100,
		  first->pkts, first->segs, first->bytes, st->mgr.stats.no_desc,
		  extra, ok);
}

static int lb_run_case(struct lb_state *st, const struct lb_case *c)
{
	unsigned int r, nr, ndesc;
	struct lb_sink first = {};
	bool ok = true;
	int err;

	ndesc = max_desc ?: c->flows;
	memset(&st->mgr, 0, sizeof(st->mgr));
	st->mgr.dev = lb_dev;
	st->mgr.features = LRO_F_NAPI;
	st->mgr.max_aggr = max_aggr;
	st->mgr.max_desc = ndesc;
	if (c->path == LB_DIRECT)
		st->mgr.deliver = lb_deliver;
	st->mgr.lro_arr = kvcalloc(ndesc, sizeof(*st->mgr.lro_arr), GFP_KERNEL);
	if (!st->mgr.lro_arr)
		return -ENOMEM;
	err = lb_policy_get(st, c);
	if (err)
		goto out;

	nr = warmup + rounds + !!st->policy;
	for (r = 0; r < nr; r++) {
		err = lb_round(st, c, r, &first);
		if (err < 0)
			goto out;
		ok = ok && err;
		cond_resched();
	}
	lb_case_report(st, c, &first, ok);
	err = 0;
out:
	lro_flush_all(&st->mgr);	/* nothing is held: every batch ends flushed */
	lb_policy_put(st);
	kvfree(st->mgr.lro_arr);
	return err;
}

/* "path:FLOWSxBURST" */
static int lb_parse_case(char *s, struct lb_case *c)
{
	char *path = strsep(&s, ":"), *flows = strsep(&s, "x");
	int i;

	if (!s || kstrtouint(flows, 10, &c->flows) ||
	    kstrtouint(s, 10, &c->burst))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(lb_path_names); i++)
		if (!strcmp(path, lb_path_names[i]))
			break;
	if (i == ARRAY_SIZE(lb_path_names) || !c->flows || !c->burst ||
	    c->flows > LB_MAX_FLOWS || c->flows * c->burst > LB_MAX_SEGS)
		return -EINVAL;
	c->path = i;
	c->segs = rounddown(max(total, c->flows * c->burst),
			    c->flows * c->burst);
	return 0;
}

static int lb_run(void)
{
	unsigned int maxsegs, maxflows, n = 0;
	struct lb_case *list;
	struct lb_state *st;
	char *buf, *p, *tok;
	int err = 0, i;

	if (!rounds || rounds + warmup > LB_MAX_ROUNDS || !mss ||
	    mss > PAGE_SIZE / 2 || max_aggr < 1 || max_desc > LB_MAX_FLOWS)
		return -EINVAL;
	buf = kstrdup(cases, GFP_KERNEL);
	list = kcalloc(strlen(cases) / 5 + 1, sizeof(*list), GFP_KERNEL);
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!buf || !list || !st) {
		err = -ENOMEM;
		goto out;
	}
	maxsegs = 0;
	maxflows = 0;
	p = buf;
	while ((tok = strsep(&p, ",")))
		if (*tok) {
			err = lb_parse_case(tok, &list[n]);
			if (err) {
				pr_err("bad case '%s' (PATH:FLOWSxBURST)\n", tok);
				goto out;
			}
			maxsegs = max(maxsegs, list[n].segs);
			maxflows = max(maxflows, list[n].flows);
			n++;
		}
	st->flows = kvcalloc(maxflows, sizeof(*st->flows), GFP_KERNEL);
	st->train = kvcalloc(maxsegs, sizeof(*st->train), GFP_KERNEL);
	st->src.page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	st->src.dev = lb_dev;
	st->src.mss = mss;
	if (!st->flows || !st->train || !st->src.page) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n && !err; i++) {
		err = lb_run_case(st, &list[i]);
		if (err)
			pr_err("case %d failed: %d\n", i, err);
	}
out:
	if (st) {
		if (st->src.page)
			put_page(st->src.page);
		kvfree(st->train);
		kvfree(st->flows);
		kfree(st);
	}
	kfree(list);
	kfree(buf);
	return err;
}

static void lb_dev_destroy(void)
{
	napi_disable(&lb_napi);
	netif_napi_del(&lb_napi);
	lro_testdev_free(lb_dev);
}

static int __init lb_init(void)
{
	struct net_device *dev;
	int err;

	/* down: the stack's receive path needs no more */
	dev = lro_testdev_new("lrobench%d", false, lb_rx_handler, NULL);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	lb_dev = dev;
	netif_napi_add(lb_dev, &lb_napi, lb_poll);
	napi_enable(&lb_napi);

	err = lb_run();
	if (err) {
		lb_dev_destroy();
		return err;
	}
	lb_dir = debugfs_create_dir("lro_bench", NULL);
	debugfs_create_blob("results", 0444, lb_dir, &lb_blob);
	return 0;
}

static void __exit lb_exit(void)
{
	debugfs_remove_recursive(lb_dir);
	lb_dev_destroy();
}

module_init(lb_init);
module_exit(lb_exit);
MODULE_DESCRIPTION("LRO engine vs kernel GRO: per-segment cost micro-benchmark");
MODULE_LICENSE("GPL");
