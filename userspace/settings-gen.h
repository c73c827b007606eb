/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated from Documentation/netlink/specs/lro.yaml by
 * scripts/settings-gen.py: edit the spec, then run make generate.
 *
 * The numeric settings of LRO on a device, in the order of the spec's dev
 * attributes: the one list that lroadm's names of them, their parsing and
 * its usage derive from. (enabled, a flag, is apart.)
 *
 * No include guard: define LRO_SETTING(NAME, name, min, max, def, desc)
 * first.
 *   NAME      the uapi's LRO_A_DEV_<NAME>
 *   name      the spec's attribute name, underscored
 *   min, max  the limits: the attribute's checks (a flags set: its bits)
 *   def       the default, the spec's const <name>-default
 *   desc      what it is, from that const's doc
 */
LRO_SETTING(MAX_DESC, max_desc, 1, 65536,
	    LRO_MAX_DESC_DEFAULT, "flows per CPU")
LRO_SETTING(MAX_AGGR, max_aggr, 1, 64,
	    LRO_MAX_AGGR_DEFAULT, "segments per packet")
LRO_SETTING(FEATURES, features, 0, 15,
	    LRO_FEATURES_DEFAULT,
	    "1 napi, 2 extract-vlan-id, 4 evict, 8 adaptive")
LRO_SETTING(FLUSH_TIMEOUT_US, flush_timeout_us, 0, 1000000,
	    LRO_FLUSH_TIMEOUT_US_DEFAULT,
	    "hold timer in us; 0: flush at the end of each receive batch")
LRO_SETTING(MAX_HELD_BYTES, max_held_bytes, 65536, 1073741824,
	    LRO_MAX_HELD_BYTES_DEFAULT, "truesize held per CPU")
