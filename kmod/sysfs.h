/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /sys/class/net/<dev>/lro/ (sysfs.c): created at attach, removed at
 * detach, both under RTNL, by device.c.
 */
#ifndef _LRO_SYSFS_H
#define _LRO_SYSFS_H

struct kobject;
struct net_device;

struct kobject *lro_sysfs_add(struct net_device *dev);
void lro_sysfs_del(struct kobject *kobj);

#endif /* _LRO_SYSFS_H */
