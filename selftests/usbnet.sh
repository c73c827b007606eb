#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on a USB network adapter: QEMU's usb-net on an xHCI controller, bound
# to cdc_ether. usbnet hands each frame to netif_rx() from its bottom half
# (usbnet_bh -> usbnet_skb_return), the backlog of the CPU that runs it:
# no GRO. What is checked: selftests/lib_nic.sh.
#
# vm-nics: usb-net
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

NIC_KIND=usb-net
# QEMU's usb-net and usbnet deliver a stream out of order now and then,
# LRO or not: with LRO off, 4 MB gave the sender 471 TCPSACKReorder events
# and the receiver 163 TCPOFOQueue, with no frame dropped. The test does
# not check for reordering there.
NIC_REORDERS=1
source "$(dirname "$0")/lib_nic.sh"
