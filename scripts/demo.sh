#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, run inside the test guest by 'make demo': put LRO on the
# receiving end of a veth pair, stream TCP through it, show what LRO did.

source "$(dirname "$0")/../selftests/lib.sh"
trap veth_pair_cleanup EXIT
set -e

lro_load
veth_pair_setup
echo "== veth pair $NS_CLI/veth-cli -> $NS_SRV/veth-srv, sender TSO/GSO off, receiver GRO off"
before=$(ip_in_receives "$NS_SRV")
stream_tcp 32 && echo "== 32 MB streamed, receiver's copy is byte-exact"
after=$(ip_in_receives "$NS_SRV")
echo "== receiver IP layer saw $((after - before)) packets"
