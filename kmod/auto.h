/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Auto rules (auto.c): attach LRO to the devices that appear.
 */
#ifndef _LRO_AUTO_H
#define _LRO_AUTO_H

int lro_auto_init(void);
void lro_auto_exit(void);

#endif /* _LRO_AUTO_H */
