#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# LRO on an e100 (QEMU's i82559er). The driver delivers from its NAPI poll
# with netif_receive_skb(), never napi_gro_receive(): without LRO nothing
# coalesces what it receives. What is checked: selftests/lib_nic.sh.
#
# vm-nics: e100
#
# debug-kernel: no (make coverage, 2026-12-06: every kmod line it executes
# and branch outcome it takes, the debug suite's other tests execute and
# take too, so KASAN sees nothing here it does not see there)

NIC_KIND=e100
# QEMU's i82559er stopped receiving for good, now and then, on a busy host:
# once in this test's first runs (with LRO on) and once in make bench's
# drivers guest with LRO detached, the stream stuck until its timeout.
# Both times its 256 receive buffers had been filling (a few frames
# dropped, as in most runs: the e100 driver's "receive unit out of
# resources" path, which QEMU emulates). A receive buffer of at most 256
# KB keeps TCP's window at about 90 segments, within the ring: the test
# is about LRO on this driver, not about that path.
NIC_RMEM="4096 131072 262144"
source "$(dirname "$0")/lib_nic.sh"
