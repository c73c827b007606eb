#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on an e100 (QEMU's i82559er). The driver delivers from its NAPI poll
# with netif_receive_skb(), never napi_gro_receive(): without LRO nothing
# coalesces what it receives. What is checked: selftests/lib_nic.sh.
#
# vm-nics: e100
NIC_KIND=e100
source "$(dirname "$0")/lib_nic.sh"
