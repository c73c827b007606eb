#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The control plane's edges: what the lro generic netlink family and
# /sys/class/net/<dev>/lro/ refuse, and dumps longer than one reply (the
# rest of the control plane is control.sh's):
#
#  - Every bad value (max_aggr 0/65, max_desc 0/65537, an unknown feature
#    bit, flush_timeout_us 1000001, max_held_bytes out of range) is
#    refused through netlink with an extended ACK naming the attribute,
#    alone or beside a good value, and changes nothing; on attach it
#    attaches nothing.
#  - Strict policy, with hand-made messages (lro_nl.py): unknown,
#    output-only and wrongly sized attributes are refused; dev-get needs an
#    ifindex of this netns; dev-set where LRO is not attached fails and
#    attaches nothing; dev-add attaches (warning that GRO is on), and fails
#    where LRO is attached.
#  - A dump of 42 devices takes several replies and lists each device
#    once, in ifindex order.
#  - sysfs holds the settings alone, rw for root; what it reads and writes
#    (features in hex or decimal) is what netlink shows; every bad value
#    fails with EINVAL and changes nothing.
#
# Under the debug kernel this test carries the control plane's error paths
# (control.sh does not run there).

source "$(dirname "$0")/lib.sh"
source "$SELFTESTS/lib_control.sh"
need_root
control_need_tools

tmp=$(mktemp -d)
defer rm -rf "$tmp"
mark=$(log_mark)

lro_load
veth_pair_setup
srv_nl_start
ip -n "$NS_SRV" link add dummy0 type dummy
ip -n "$NS_SRV" link set dummy0 up
adm set veth-srv
defaults=$(defaults_line veth-srv)
adm set dummy0 max_aggr 8

#
# A dump over many replies: read with small buffers (lro_nl.py --dump), the
# kernel fills about 15 device messages per reply, and the cursor must
# resume each time: nothing twice, nothing missed, in ifindex order.
#
for i in $(seq 40); do echo "link add lrod$i type dummy"; done | ip -n "$NS_SRV" -batch -
for i in $(seq 40); do echo "set lrod$i max_desc 1"; done | adm -b -
in_srv $LRO_NL --dump dev-get > "$tmp/dump"
check "a dump of 42 devices took several replies" \
	test "$(sed -n 's/^replies //p' "$tmp/dump")" -ge 3
check "it lists each device once" \
	test "$(sed 1d "$tmp/dump" | awk '{ print $2 }' | sort -u | wc -l)" = 42
check "in ifindex order" out_is "$(sed 1d "$tmp/dump" | sort -n)" sed 1d "$tmp/dump"
check "lroadm's dump lists them all" jq_is 42 'length' adm -j show
for i in $(seq 40); do echo "link del lrod$i"; done | ip -n "$NS_SRV" -batch -
check "deleting the devices detached LRO" jq_is '["veth-srv","dummy0"]' '[.[].ifname]' adm -j show

#
# Bad values: refused by netlink with an extack naming the attribute, and
# nothing changes.
#
adm set veth-srv max_desc 64 max_aggr 16 features napi flush_timeout_us 0
before=$(adm show veth-srv)
for bad in "max_aggr 0" "max_aggr 65" "max_desc 0" "max_desc 65537" \
	   "features 16" "flush_timeout_us 1000001" "max_held_bytes 65535" \
	   "max_held_bytes 1073741825"; do
	set -- $bad
	check "netlink refuses $bad" \
		refused_with "^Error: .*\(attribute $1(, valid [0-9.]+)?\)\.$" adm set veth-srv $bad
	check "nothing changed after $bad" same "$before" "$(adm show veth-srv)"
	check "netlink refuses $bad with another value" \
		refused_with "attribute $1" adm set veth-srv max_aggr 20 $bad
	check "nothing changed after $bad with another value" same "$before" "$(adm show veth-srv)"
done
check "netlink range error says the range" \
	refused_with '^Error: integer out of range \(attribute max_aggr, valid 1\.\.64\)\.$' \
	adm set veth-srv max_aggr 65
check "netlink mask error names the attribute" \
	refused_with '^Error: reserved bit set \(attribute features\)\.$' \
	adm set veth-srv features 16
ip -n "$NS_SRV" link add dummy1 type dummy
check "bad value on attach is refused" refused_with 'attribute max_desc' adm set dummy1 max_desc 0
check "bad value on attach attaches nothing" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm show dummy1

#
# Strict policy, with hand-made messages.
#
idx=$(srv_ifindex veth-srv)
check "unknown attribute refused" \
	out_is 'error 22 msg "Unknown attribute type" offset 28' srv_nl dev-set ifindex=u32:$idx 100=u32:1
check "output-only attribute (ifname) refused" \
	out_is 'error 22 msg "Unsupported attribute" offset 28' srv_nl dev-set ifindex=u32:$idx ifname=str:x
check "stats (output only) refused in dev-set" \
	out_is 'error 22 msg "Unsupported attribute" offset 28' srv_nl dev-set ifindex=u32:$idx stats=u32:0
check "max-aggr of the wrong size refused" \
	out_is 'error 22 msg "invalid attribute length" offset 28' \
	srv_nl dev-set ifindex=u32:$idx max-aggr=u8:4
check "attributes in a dev-del refused" \
	out_is 'error 22 msg "Unknown attribute type" offset 28' srv_nl dev-del ifindex=u32:$idx max-aggr=u32:4
check "nothing changed after refused messages" same "$before" "$(adm show veth-srv)"
check "a well-formed hand-made dev-set is accepted" \
	out_is 'error 0' srv_nl dev-set ifindex=u32:$idx max-aggr=u32:20
check "and applied" out_is "$(line veth-srv enabled 64 20 napi 0)" adm show veth-srv
adm set veth-srv max_aggr 16
check "ifindex is required" \
	out_is 'error 22 msg "lro: the ifindex attribute is required"' srv_nl dev-get
check "unknown ifindex" \
	out_is 'error 19 msg "no device with ifindex 99999 in this network namespace" offset 20' \
	srv_nl dev-get ifindex=u32:99999
# dev-set changes LRO where it is attached, dev-add attaches it.
idx1=$(srv_ifindex dummy1)
check "dev-set where LRO is not attached is refused" \
	out_is 'error 2 msg "LRO is not attached to dummy1" offset 20' \
	srv_nl dev-set ifindex=u32:$idx1 enabled=u8:0
check "... and attaches nothing" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm show dummy1
check "dev-add with a bad value is refused" \
	out_is 'error 34 msg "integer out of range" offset 28' \
	srv_nl dev-add ifindex=u32:$idx1 max-aggr=u32:65
check "... and attaches nothing" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm show dummy1
# A dummy device has GRO on (every device has, but veth turns it off).
check "dev-add attaches, warning that GRO is on" \
	out_is 'error 0 msg "lro: dummy1 has GRO on: if its driver uses GRO, GRO runs first"' \
	srv_nl dev-add ifindex=u32:$idx1 enabled=u8:0
check "... with the request's values, the defaults for the rest" \
	out_is "${defaults/veth-srv: enabled/dummy1: disabled}" adm show dummy1
adm del dummy1
check "lroadm set attaching LRO to dummy1: the warning, exit 0" \
	out_is 'Warning: lro: dummy1 has GRO on: if its driver uses GRO, GRO runs first.' \
	adm set dummy1 max_aggr 4
adm del dummy1
check "dev-add where LRO is attached is refused" \
	out_is 'error 17 msg "LRO is already attached to veth-srv" offset 20' \
	srv_nl dev-add ifindex=u32:$idx max-aggr=u32:20
check "nothing changed after the refused dev-add" same "$before" "$(adm show veth-srv)"

#
# sysfs
#
for f in enabled max_desc max_aggr features flush_timeout_us max_held_bytes; do
	check "sysfs $f is rw for root only" \
		test "$(ip netns exec "$NS_SRV" stat -c %a "$SYSFS/$f")" = 644
done
check "sysfs has the settings alone (counters: netlink)" \
	out_is "enabled features flush_timeout_us max_aggr max_desc max_held_bytes" \
	sh -c "ip netns exec $NS_SRV ls $SYSFS | LC_ALL=C sort | xargs"
check "sysfs reads the config" out_is "1 64 16 0x1 0" \
	sh -c "ip netns exec $NS_SRV sh -c 'cd $SYSFS && echo \$(cat enabled max_desc max_aggr features flush_timeout_us)'"
check "sysfs write max_aggr" out_is "" sysfs_write max_aggr 24
check "netlink sees the sysfs write" out_is "$(line veth-srv enabled 64 24 napi 0)" adm show veth-srv
check "sysfs write max_desc" out_is "" sysfs_write max_desc 128
check "sysfs write flush_timeout_us" out_is "" sysfs_write flush_timeout_us 500
check "sysfs write features in hex" out_is "" sysfs_write features 0x5
check "sysfs reads features in hex" out_is 0x5 sysfs_read features
check "sysfs write features in decimal" out_is "" sysfs_write features 3
check "sysfs reads it back in hex" out_is 0x3 sysfs_read features
check "sysfs write enabled 0" out_is "" sysfs_write enabled 0
check "netlink sees the sysfs writes" \
	out_is "$(line veth-srv disabled 128 24 napi,extract_vlan_id 500)" adm show veth-srv
check "sysfs write enabled 1" out_is "" sysfs_write enabled 1
check "sysfs write max_held_bytes" out_is "" sysfs_write max_held_bytes 1048576
check "netlink sees it" jq_is 1048576 '.[0].max_held_bytes' adm -j show veth-srv
sbefore=$(adm show veth-srv)
for bad in "max_aggr 0" "max_aggr 65" "max_desc 0" "max_desc 65537" "features 16" \
	   "features 0x20" "flush_timeout_us 1000001" "enabled 2" "max_aggr abc" \
	   "max_aggr -1" "max_aggr 0x10" "features 4294967296" \
	   "max_held_bytes 65535" "max_held_bytes 1073741825"; do
	set -- $bad
	check "sysfs refuses $bad with EINVAL" \
		grep -q 'Invalid argument' <<< "$(sysfs_write $1 $2)"
	check "nothing changed after sysfs $bad" same "$sbefore" "$(adm show veth-srv)"
done

lro_unload
check "kernel log is clean" log_clean_since "$mark"
exit $RET
