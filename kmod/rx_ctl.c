// SPDX-License-Identifier: GPL-2.0
/*
 * The control side of the receive path (rx.c): what runs under RTNL on
 * every CPU. Attaching a device (lro_rx_alloc()), handing each CPU the
 * device's new settings (lro_rx_take_hold()), sending up what a device
 * holds (lro_rx_release()), sizing the descriptor tables every device
 * shares (lro_rx_size_tables()), and CPU hotplug.
 *
 * Each CPU's state is its own (rx.c's locking model): work on it runs on
 * that CPU with bottom halves disabled, through the one helper
 * lro_on_each_cpu(), under cpus_read_lock() so no CPU comes or goes
 * meanwhile; an offline CPU holds nothing and runs nothing, so its work
 * runs wherever the caller is.
 */

#include <linux/cpuhotplug.h>
#include <linux/memcontrol.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "rx_ctl.h"

static struct net_device *lro_napi_dev;
static enum cpuhp_state lro_cpuhp_state;
static u32 lro_table_size;		/* of every CPU's table, under RTNL */

/*
 * Run @w->fn on every CPU, on that CPU with bottom halves disabled, so it
 * cannot race with the rx_handler or lro_poll() there.
 */
struct lro_cpu_work {
	void (*fn)(struct lro_cpu_work *w, int cpu);
	int cpu;
};

static long lro_cpu_work_fn(void *data)
{
	struct lro_cpu_work *w = data;

	local_bh_disable();
	w->fn(w, w->cpu);
	local_bh_enable();
	return 0;
}

/* Under cpus_read_lock() */
static void lro_on_each_cpu(struct lro_cpu_work *w)
{
	for_each_possible_cpu(w->cpu) {
		if (cpu_online(w->cpu))
			work_on_cpu(w->cpu, lro_cpu_work_fn, w);
		else
			lro_cpu_work_fn(w);	/* it holds nothing, runs nothing */
	}
}

/* A struct lro_pcpu_visit of one device, on every CPU */
struct lro_rx_work {
	struct lro_cpu_work w;
	struct lro_rx *rx;
	struct lro_pcpu_visit *v;
};

static void lro_rx_work_fn(struct lro_cpu_work *w, int cpu)
{
	struct lro_rx_work *rw = container_of(w, struct lro_rx_work, w);
	/* On @cpu with bottom halves off: none is made meanwhile. */
	struct lro_pcpu *pc = *per_cpu_ptr(rw->rx->pcpu, cpu);

	if (pc)
		rw->v->fn(rw->v, pc, cpu);
}

static void __lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	struct lro_rx_work rw = { { lro_rx_work_fn }, rx, v };

	lro_on_each_cpu(&rw.w);
}

/**
 * lro_rx_visit - run @v on each CPU's state of a device
 * @rx: the device
 * @v: the work
 *
 * Context: RTNL held, and no lock CPU hotplug takes.
 */
void lro_rx_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	cpus_read_lock();
	__lro_rx_visit(rx, v);
	cpus_read_unlock();
}

/**
 * lro_rx_try_visit - run @v on each CPU's state of a device, if it can
 * @rx: the device
 * @v: the work
 *
 * For a caller that may not wait for CPU hotplug: one pinned to its CPU
 * (migrate_disable(), as BPF programs run), which a CPU going offline
 * waits to see leave while holding the hotplug lock.
 *
 * Context: RTNL held.
 * Return: 0, or -EAGAIN while a CPU comes or goes.
 */
int lro_rx_try_visit(struct lro_rx *rx, struct lro_pcpu_visit *v)
{
	if (!cpus_read_trylock())
		return -EAGAIN;
	__lro_rx_visit(rx, v);
	cpus_read_unlock();
	return 0;
}

struct lro_release_visit {
	struct lro_pcpu_visit v;
	bool drop;
};

static void lro_cpu_release(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			    int cpu)
{
	lro_pcpu_release(pc, container_of(v, struct lro_release_visit, v)->drop);
}

/**
 * lro_rx_release - send up, or free, what each CPU holds for a device
 * @rx: the device, its rx_handler unregistered (or LRO disabled)
 * @drop: free the held packets: the device is going away
 *
 * Context: RTNL held.
 */
void lro_rx_release(struct lro_rx *rx, bool drop)
{
	struct lro_release_visit r = { { lro_cpu_release }, drop };

	lro_rx_visit(rx, &r.v);
}

struct lro_hold_visit {
	struct lro_pcpu_visit v;
	const struct lro_config *cfg;
};

/*
 * Send up what was held under the old hold, policy or max_desc, then take
 * the device's new ones: a packet is told to the policy that started it,
 * the packets held without a policy keep one hold, oldest first, and no
 * CPU holds more than max_desc.
 */
static void lro_cpu_take_hold(struct lro_pcpu_visit *v, struct lro_pcpu *pc,
			      int cpu)
{
	lro_pcpu_release(pc, false);
	lro_pcpu_take_hold(pc, container_of(v, struct lro_hold_visit, v)->cfg);
}

/**
 * lro_rx_take_hold - have each CPU take the device's hold, policy and
 *	max_desc
 * @rx: the device, its new configuration published
 *
 * Once this returns, no CPU calls the policy it had before.
 *
 * Context: RTNL held.
 */
void lro_rx_take_hold(struct lro_rx *rx)
{
	struct lro_hold_visit h = { { lro_cpu_take_hold },
				    rtnl_dereference(rx->cfg) };

	lro_rx_visit(rx, &h.v);
}

/*
 * What LRO allocates for a device is charged to the memory cgroup of the
 * task that attaches or configures it: the family is open to user
 * namespace root. The descriptor tables a max_desc needs are charged to
 * the task that asks for it (max_desc 65536 is 8.5 MiB per CPU) and fail
 * cleanly at the cgroup's limit (no OOM kill, no warning); the caller
 * says so in the extack.
 */
#define LRO_GFP		GFP_KERNEL_ACCOUNT
#define LRO_GFP_ARR	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static void lro_free_spares(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		kvfree(lc->spare);
		lc->spare = NULL;
	}
}

struct lro_size_work {
	struct lro_cpu_work w;
	u32 size;
};

/*
 * Switch this CPU's table to its spare array. Every device's descriptors
 * on this CPU are in the table: their packets go up first (each device
 * holding is on the pending list; one sent up may start another there,
 * on a device above).
 */
static void lro_cpu_swap_table(struct lro_cpu_work *w, int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);
	struct net_lro_desc *old = lc->table.lro_arr;

	while (!list_empty(&lc->pending))
		lro_pcpu_release(list_first_entry(&lc->pending,
						  struct lro_pcpu, pending),
				 false);
	/* Every held descriptor's manager is pending: none can be left. */
	if (WARN_ON_ONCE(lc->table.nr_active))
		return;		/* keep the array they are in; spare freed */
	lc->table.lro_arr = lc->spare;
	lc->table.max_desc = container_of(w, struct lro_size_work, w)->size;
	lc->table.free_desc = 0;
	lc->table.used_desc = 0;
	lc->spare = old;	/* freed by the caller */
}

/**
 * lro_rx_size_tables - give each CPU's descriptor table @size descriptors
 * @size: the largest max_desc of the attached devices; 0 when none is
 * @shrink: also when @size is smaller (else only grow)
 *
 * A changed size sends up what every device holds on each CPU first.
 *
 * Context: RTNL held.
 * Return: 0, or -ENOMEM with nothing changed.
 */
int lro_rx_size_tables(u32 size, bool shrink)
{
	struct lro_size_work sw = { { lro_cpu_swap_table }, size };
	int cpu;

	ASSERT_RTNL();
	if (size == lro_table_size || (size < lro_table_size && !shrink))
		return 0;
	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		if (!size)
			continue;
		lc->spare = kvcalloc(size, sizeof(struct net_lro_desc),
				     LRO_GFP_ARR);
		if (!lc->spare) {
			lro_free_spares();
			return -ENOMEM;
		}
	}
	cpus_read_lock();
	lro_on_each_cpu(&sw.w);
	cpus_read_unlock();
	lro_free_spares();	/* now the old arrays */
	lro_table_size = size;
	return 0;
}

/**
 * lro_rx_free - free what lro_rx_alloc() and the receive path allocated
 * @rx: the device, which holds nothing, its rx_handler gone
 */
void lro_rx_free(struct lro_rx *rx)
{
	int cpu;

	if (rx->pcpu) {
		for_each_possible_cpu(cpu) {
			struct lro_pcpu *pc = *per_cpu_ptr(rx->pcpu, cpu);

			if (pc)
				lro_pcpu_free(pc);
		}
		free_percpu(rx->pcpu);
		rx->pcpu = NULL;
	}
	mem_cgroup_put(rx->memcg);
	rx->memcg = NULL;
}

/**
 * lro_rx_alloc - set up a device being attached
 * @rx: the device's, zeroed
 * @dev: the device
 *
 * Its state on each CPU is made by its first segment there.
 *
 * Context: RTNL held, in the attaching task.
 * Return: 0, or -ENOMEM (lro_rx_free() cleans up).
 */
int lro_rx_alloc(struct lro_rx *rx, struct net_device *dev)
{
	rx->dev = dev;
	rx->memcg = get_mem_cgroup_from_mm(NULL);	/* current's, or its active one */
	rx->pcpu = alloc_percpu_gfp(struct lro_pcpu *, LRO_GFP);
	return rx->pcpu ? 0 : -ENOMEM;
}

static void lro_napi_del_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		netif_napi_del(&per_cpu_ptr(&lro_cpus, cpu)->napi);
	free_netdev(lro_napi_dev);
}

/*
 * CPU hotplug. Until its teardown ends, a CPU going down still receives;
 * after it, the kernel moves a scheduled NAPI (dev_cpu_dead()) and pending
 * timers (hrtimers_cpu_dying()) to a live CPU, where ours would run against
 * this CPU's engines, and still would when it comes back. So, on the CPU
 * itself (an AP state's callbacks run there): hold nothing from now on,
 * send up what is held, and stop the NAPI and the timer.
 */
static int lro_cpu_offline(unsigned int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);
	struct lro_pcpu *pc, *tmp;

	local_bh_disable();
	lc->offline = true;
	list_for_each_entry_safe(pc, tmp, &lc->pending, pending)
		lro_pcpu_release(pc, false);
	local_bh_enable();
	napi_disable(&lc->napi);	/* a poll under way ends first */
	hrtimer_cancel(&lc->timer);	/* napi_schedule() is a no-op now */
	return 0;
}

static int lro_cpu_online(unsigned int cpu)
{
	struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

	napi_enable(&lc->napi);
	local_bh_disable();
	lc->offline = false;
	local_bh_enable();
	return 0;
}

/**
 * lro_rx_init - set up the per-CPU flush contexts
 *
 * Return: 0, -ENOMEM, or the error of the CPU hotplug state's setup.
 */
int lro_rx_init(void)
{
	int cpu, ret;

	ret = lro_rx_path_init();
	if (ret)
		return ret;
	lro_napi_dev = alloc_netdev_dummy(0);
	if (!lro_napi_dev) {
		lro_rx_path_exit();
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu) {
		struct lro_cpu *lc = per_cpu_ptr(&lro_cpus, cpu);

		INIT_LIST_HEAD(&lc->pending);
		hrtimer_init(&lc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED);
		lc->timer.function = lro_timer_fn;
		lc->offline = true;
		netif_napi_add(lro_napi_dev, &lc->napi, lro_poll); /* disabled */
	}
	/* lro_cpu_online() on each online CPU, and from now on */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "net/lro:online",
				lro_cpu_online, lro_cpu_offline);
	if (ret < 0) {
		lro_napi_del_all();
		lro_rx_path_exit();
		return ret;
	}
	lro_cpuhp_state = ret;
	return 0;
}

/**
 * lro_rx_exit - tear down the per-CPU flush contexts
 *
 * Call once no device is attached: nothing is pending then, and the
 * tables are gone (lro_rx_size_tables(0)).
 */
void lro_rx_exit(void)
{
	cpuhp_remove_state(lro_cpuhp_state);	/* lro_cpu_offline() on each */
	lro_napi_del_all();
	lro_rx_path_exit();
}
