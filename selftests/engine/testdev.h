/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Ethernet device the engine tests (selftests/engine/) and the
 * micro-benchmark (bench/kmod/) give their LRO managers, with nothing
 * behind it: what the stack transmits on it is dropped, and what it
 * receives goes to the rx_handler of the module that made it.
 */
#ifndef _LRO_TESTDEV_H
#define _LRO_TESTDEV_H

#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

static netdev_tx_t lro_testdev_xmit(struct sk_buff *skb,
				    struct net_device *dev)
{
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops lro_testdev_ops = {
	.ndo_start_xmit = lro_testdev_xmit,
};

static void lro_testdev_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &lro_testdev_ops;
	dev->flags |= IFF_NOARP;
	eth_hw_addr_random(dev);
}

/*
 * A device named after @name ("%d" numbers it), registered, up if @up,
 * what it receives to @rx with @data. An ERR_PTR() if it cannot be made.
 */
static inline struct net_device *lro_testdev_new(const char *name, bool up,
						 rx_handler_func_t *rx,
						 void *data)
{
	struct net_device *dev;
	int err;

	dev = alloc_netdev(0, name, NET_NAME_ENUM, lro_testdev_setup);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	rtnl_lock();
	err = register_netdevice(dev);
	if (!err) {
		if (up)
			err = dev_open(dev, NULL);
		if (!err)
			err = netdev_rx_handler_register(dev, rx, data);
		if (err)
			unregister_netdevice(dev);
	}
	rtnl_unlock();
	if (err) {
		free_netdev(dev);
		return ERR_PTR(err);
	}
	return dev;
}

static inline void lro_testdev_free(struct net_device *dev)
{
	rtnl_lock();
	netdev_rx_handler_unregister(dev);
	unregister_netdevice(dev);
	rtnl_unlock();
	free_netdev(dev);
}

#endif /* _LRO_TESTDEV_H */
