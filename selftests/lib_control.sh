# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the control plane's tests (control.sh, control_limits.sh),
# sourced after lib.sh: lroadm and hand-made messages (lro_nl.py) in the
# server's netns, its sysfs files, and the lines lroadm show prints.

# The counters, as the kernel lists them (one LRO_STAT line each)
NSTATS=$(grep -c '^LRO_STAT(' "$TOP/kmod/stats-list.h")
LRO_NL="python3 $SELFTESTS/lro_nl.py"
SYSFS=/sys/class/net/veth-srv/lro

control_need_tools() {
	local tool

	for tool in jq python3 setpriv unshare nsenter; do
		command -v $tool >/dev/null || skip "$tool not installed"
	done
	[ -x "$LROADM" ] || skip "no $LROADM (make)"
}

# Netlink only needs the netns: lroadm -n joins it itself, other tools
# through nsenter (half the cost of ip netns exec, which also remounts
# /sys); sysfs needs ip netns exec.
in_srv() { nsenter --net="/run/netns/$NS_SRV" "$@"; }
cli_adm() { "$LROADM" -n "$NS_CLI" "$@"; }
# srv_nl COMMAND ATTR=TYPE:VALUE...: a hand-made request in $NS_SRV and the
# kernel's answer (lro_nl.py), through one lro_nl.py --serve that
# srv_nl_start starts once the namespace is there
srv_nl_start() { server_start lro_nl nsenter --net="/run/netns/$NS_SRV" $LRO_NL --serve; }
srv_nl() { server_ask lro_nl "$(printf '%q ' "$@")"; }
srv_ifindex() { ip netns exec "$NS_SRV" cat "/sys/class/net/$1/ifindex"; }
sysfs_read() { ip netns exec "$NS_SRV" cat "$SYSFS/$1"; }
# sysfs_write FILE VALUE: prints the shell's error message, if any
sysfs_write() {
	ip netns exec "$NS_SRV" bash -c 'echo "$1" > "$2"' bash "$2" "$SYSFS/$1" 2>&1
}
modparam() { cat "/sys/module/lro/parameters/default_$1"; }

# Config lines the tests expect: exactly what lroadm show prints.
line() { # line DEV ENABLED MAX_DESC MAX_AGGR FEATURES FLUSH_TIMEOUT_US [MAX_HELD_BYTES]
	echo "$1: $2 max_desc $3 max_aggr $4 features $5 flush_timeout_us $6 max_held_bytes ${7:-$(modparam max_held_bytes)}"
}
# defaults_line DEV: the line of DEV (in $NS_SRV) attached with the
# module's defaults, its features named as lroadm names them
defaults_line() {
	line "$1" enabled "$(modparam max_desc)" "$(modparam max_aggr)" \
		"$(adm -j show "$1" | jq -r '.[0].features | if length == 0 then "none" else join(",") end')" \
		"$(modparam flush_timeout_us)"
}
