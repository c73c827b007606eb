#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own YNL CLI (tools/net/ynl/cli.py of the 6.12 source, which
# scripts/ynl-regen.sh extracts into build/ynl/: make check runs it first)
# drives lro.ko from Documentation/netlink/specs/lro.yaml alone, with
# nothing of lroadm:
#
#   $NS_CLI veth-cli <-> veth-srv $NS_SRV   (cli.py and lroadm in $NS_SRV)
#
#  - dev-add, dev-get (do and dump), dev-set with feature names, stats-reset,
#    dev-del: what cli.py sets, lroadm shows, and the other way round;
#  - a value out of range is refused with the extack naming the attribute;
#  - auto-add with a config nest, auto-get, auto-del;
#  - the monitor group's notifications, as cli.py --subscribe decodes them.
#
# cli.py runs with --no-schema: it checks the spec against the schema of
# 6.12's genetlink.yaml, which does not know the uns-admin-perm flag (its
# genetlink-legacy schema does); the generator checks the spec against the
# schema with that one word added (scripts/ynl-regen.sh).
#
# debug-kernel: no (its kmod lines, the netlink handlers, control.sh and
# auto.sh run too: 980 lines, none its own, in make coverage)

source "$(dirname "$0")/lib.sh"
need_root

CLI=$TOP/build/ynl/tools/net/ynl/cli.py
[ -f "$CLI" ] || {
	echo "no $CLI: make check extracts it (scripts/ynl-regen.sh --check)"
	exit $ksft_fail
}
tmp=$(mktemp -d)
defer rm -rf "$tmp"

lro_load
mark=$(log_mark)
veth_pair_setup
ynl() {
	ip netns exec "$NS_SRV" python3 "$CLI" --no-schema --output-json \
		--spec "$TOP/Documentation/netlink/specs/lro.yaml" "$@"
}
ifindex=$(ip netns exec "$NS_SRV" cat /sys/class/net/veth-srv/ifindex)
dev="\"ifindex\": $ifindex"
# shown SETTING: what lroadm shows of veth-srv
shown() { adm -j show veth-srv | jq -r ".[0].$1"; }

check "cli.py lists the spec's operations" \
	grep -q '^auto-add ' < <(ynl --list-ops)
check "dev-add {ifindex, max-aggr 20}" ynl --do dev-add --json "{$dev, \"max-aggr\": 20}"
check "lroadm shows max_aggr 20" eq "$(shown max_aggr)" 20
adm set veth-srv max_desc 100
check "dev-get shows lroadm's max_desc 100, ifname, stats" \
	eq "$(ynl --do dev-get --json "{$dev}" |
		jq -r '"\(.ifname) \(.["max-desc"]) \(.stats | has("aggregated"))"')" \
	"veth-srv 100 true"
check "dev-set features by name: [napi, evict]" \
	ynl --do dev-set --json "{$dev, \"features\": [\"napi\", \"evict\"]}"
check "lroadm shows features napi,evict" eq "$(shown 'features | join(",")')" "napi,evict"
ynl --do dev-set --json "{$dev, \"max-aggr\": 65}" > "$tmp/out" 2>&1
check "dev-set max-aggr 65: refused, the extack naming .max-aggr" \
	grep -q "'bad-attr': '.max-aggr'" "$tmp/out"
check "and max_aggr is still 20" eq "$(shown max_aggr)" 20
check "the dev-get dump lists veth-srv" \
	eq "$(ynl --dump dev-get | jq -r '[.[] | .ifname] | join(",")')" veth-srv

check "$(scaled 1) MB stream" stream_tcp "$(scaled 1)"
check "stats-reset" ynl --do stats-reset --json "{$dev}"
check "aggregated is 0 after it" \
	eq "$(ynl --do dev-get --json "{$dev}" | jq -r '.stats.aggregated')" 0

check "auto-add {kind veth, config {max-aggr 8}}" \
	ynl --do auto-add --json '{"kind": "veth", "config": {"max-aggr": 8}}'
check "auto-get returns it, as lroadm auto show does" \
	eq "$(ynl --dump auto-get | jq -c '[.[] | [.kind, .config["max-aggr"]]]'),$(
	      adm -j auto show | jq -c '[.[] | [.kind, .config.max_aggr]]')" \
	'[["veth",8]],[["veth",8]]'
ip -n "$NS_SRV" link add y0 type veth peer name y1
check "the rule attached y0 with max_aggr 8" \
	eq "$(adm -j show y0 | jq -r '.[0].max_aggr')" 8
check "auto-del {kind veth}" ynl --do auto-del --json '{"kind": "veth"}'
check "no rule left" eq "$(ynl --dump auto-get | jq length)" 0

# The monitor group: cli.py subscribes, sleeps, and prints what came. It
# subscribes only once it has read the spec, a second or more in a loaded
# guest: veth-srv changes until cli.py is done.
ynl --subscribe monitor --sleep 4 > "$tmp/ntf" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do
	adm disable veth-srv
	adm del veth-srv
	adm set veth-srv
	sleep 0.2
done
wait $pid
check "--subscribe monitor: dev-change-ntf, dev-del-ntf, dev-add-ntf of veth-srv" \
	eq "$(jq -r '[.[] | select(.msg.ifname == "veth-srv") | .name] | unique | join(",")' \
	      "$tmp/ntf")" "dev-add-ntf,dev-change-ntf,dev-del-ntf"
adm del veth-srv
check "dev-del where LRO is not attached: refused" \
	fails ynl --do dev-del --json "{$dev}"
check "kernel log is clean" log_clean_since "$mark"
exit $RET
