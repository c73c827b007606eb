// SPDX-License-Identifier: GPL-2.0
/*
 * lro: generic Large Receive Offload for TCP.
 *
 * Module entry points. The engine (engine.c, inet_lro.c, frags.c), the
 * rx_handler data path (device.c) and the control plane (netlink.c,
 * sysfs.c) each live in their own file and are wired up here.
 */

#include <linux/module.h>

#include "auto.h"
#include "bpf_lro.h"
#include "bpf_policy.h"
#include "device.h"
#include "desc.h"
#include "netlink.h"

static int __init lro_init(void)
{
	int err;

	err = lro_engine_init();
	if (err)
		return err;
	err = lro_device_init();
	if (err)
		return err;
	err = lro_auto_init();
	if (err)
		goto device_exit;
	err = lro_nl_init();
	if (err)
		goto auto_exit;
	/* Without BTF there are no iterators, but LRO works. */
	err = lro_bpf_init();
	if (err)
		pr_notice("BPF descriptor iterators unavailable (%d)\n", err);
	err = lro_bpf_policy_init();
	if (err)
		pr_notice("BPF policies unavailable (%d)\n", err);
	pr_info("generic large receive offload loaded\n");
	return 0;

auto_exit:
	lro_auto_exit();
device_exit:
	lro_device_exit();
	return err;
}

static void __exit lro_exit(void)
{
	/* No new attachments first; then detach, sending held data up. */
	lro_nl_exit();
	lro_auto_exit();
	lro_device_exit();
	pr_info("unloaded\n");
}

module_init(lro_init);
module_exit(lro_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Generic Large Receive Offload for TCP");
MODULE_AUTHOR("The lro developers");
MODULE_VERSION(LRO_VERSION);
