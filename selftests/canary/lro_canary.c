// SPDX-License-Identifier: GPL-2.0
/*
 * lro_canary: the test harness's own canary. It proves that the debug
 * kernel's checkers (KASAN, lockdep) catch a bug and that the harness turns
 * the report into a failed test. Loaded only by selftests/harness_canary.sh;
 * without a trigger it does nothing.
 *
 *   insmod lro_canary.ko trigger=uaf             use-after-free of a kmalloc'ed buffer
 *   insmod lro_canary.ko trigger=lock_inversion  A then B, later B then A
 */

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char trigger[32];
module_param_string(trigger, trigger, sizeof(trigger), 0444);
MODULE_PARM_DESC(trigger, "bug to plant at load: uaf | lock_inversion (default: none)");

static DEFINE_MUTEX(canary_lock_a);
static DEFINE_MUTEX(canary_lock_b);

/* Reads a byte of a buffer after freeing it: KASAN slab-use-after-free. */
static noinline void canary_uaf(void)
{
	char *buf;
	char c;

	buf = kmalloc(64, GFP_KERNEL);
	if (!buf)
		return;
	memset(buf, 0x5a, 64);
	kfree(buf);
	/* Keep the compiler from seeing (and dropping) the stale access. */
	OPTIMIZER_HIDE_VAR(buf);
	c = READ_ONCE(buf[8]);
	pr_info("read 0x%02x from a freed buffer\n", (unsigned char)c);
}

/*
 * Takes A then B, and afterwards B then A. Run one after the other the two
 * paths cannot deadlock, but lockdep records both orders and reports the
 * possible circular locking dependency.
 */
static noinline void canary_lock_inversion(void)
{
	mutex_lock(&canary_lock_a);
	mutex_lock(&canary_lock_b);
	mutex_unlock(&canary_lock_b);
	mutex_unlock(&canary_lock_a);

	mutex_lock(&canary_lock_b);
	mutex_lock(&canary_lock_a);
	mutex_unlock(&canary_lock_a);
	mutex_unlock(&canary_lock_b);
	pr_info("took A then B, then B then A\n");
}

static int __init canary_init(void)
{
	if (!trigger[0])
		return 0;
	if (!strcmp(trigger, "uaf")) {
		canary_uaf();
	} else if (!strcmp(trigger, "lock_inversion")) {
		canary_lock_inversion();
	} else {
		pr_err("unknown trigger '%s'\n", trigger);
		return -EINVAL;
	}
	return 0;
}

static void __exit canary_exit(void)
{
}

module_init(canary_init);
module_exit(canary_exit);

MODULE_DESCRIPTION("lro test harness canary: planted bugs for the debug kernel");
MODULE_LICENSE("GPL");
