#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Auto rules (lroadm auto): LRO attached to the devices that appear.
#
#   init netns: all-netns rules "kind veth max_aggr 16" and "ifname lo"
#   |
#   +- $NS_A (own rule "kind veth ifname lro* max_aggr 32")
#   |    lro0 (created)     <-> x0 (created; renamed lro2)
#   |    lro1 (moved in from $NS_B)
#   |    br0: a bridge that takes lro0 as a port, not lro1
#   |
#   +- lroauto1 .. lroauto$N (fresh namespaces, no rules of their own)
#   |    a<i> <-> b<i>       (created there: the all-netns rule)
#   |
#   +- $NS_CLI veth-cli <-> veth-srv $NS_SRV (a stream over what the
#                                            all-netns rule attached)
#
# Checks:
#  - a rule of a namespace attaches LRO, with its settings over the module's
#    defaults, to a device created there or moved there, and not to one
#    that does not match, nor to one renamed to match (a rule looks at a
#    device once, as it appears); it counts what it attached;
#  - a bridge can take a port a rule attached LRO to (LRO gives it up),
#    but not one configured by hand since;
#  - all-netns rules apply in every namespace after its own rules: every
#    device of $N new namespaces (50; 10 under the debug kernel) gets LRO; a rule that cannot attach
#    (loopback) counts its failures; the stream over a pair attached so is
#    byte-exact and coalesced;
#  - deleting a rule leaves what it attached attached, and attaches no
#    more; rules of a deleted namespace and rules left at rmmod are freed
#    (kmemleak, run after this test);
#  - refused, changing nothing: a rule with neither kind nor pattern, one
#    that exists, the 65th of a list, an all-netns rule from another
#    namespace, a pattern with a space, deleting a missing rule; lroadm's
#    own grammar errors;
#  - an all-netns rule's counters show in the initial namespace only;
#  - monitor shows the rules added and deleted in its namespace, and only
#    those; the kernel log is clean.

source "$(dirname "$0")/lib.sh"
need_root

# New namespaces for the all-netns rules: 50; 10 under the debug kernel,
# where each costs about 2 s (its veth pair, lroadm show there, its
# deletion) and 10 take the same paths through lro.ko as 50.
N=$((LRO_DEBUG_KERNEL == 1 ? 10 : 50))
NS_A=lroauto-a
NS_B=lroauto-b
tmp=$(mktemp -d)
defer rm -rf "$tmp"
# No rule outlives the test in the init netns.
defer quiet "$LROADM" auto del all-netns ifname lo
defer quiet "$LROADM" auto del all-netns kind veth

lro_load
mark=$(log_mark)
adm_a() { "$LROADM" -n "$NS_A" "$@"; }
# rules_json [-n NS]: auto show -j, as one JSON array
rules_json() { "$LROADM" "$@" -j auto show; }
# attached NS DEV: the max_aggr LRO has on DEV, or "none"
max_aggr_of() {
	"$LROADM" -n "$1" -j show 2>/dev/null |
		jq -r --arg d "$2" '(.[] | select(.ifname == $d) | .max_aggr) // "none"'
}
# rule_field NS JQ_EXPR JQ_FILTER: JQ_EXPR of the first rule NS ("": the
# init netns) sees that matches JQ_FILTER
rule_field() {
	rules_json ${1:+-n "$1"} | jq -r "[.[] | select($3)][0] | $2"
}

# stop_monitor PID: once it has printed what came before
stop_monitor() {
	sleep 0.5
	kill "$1"
	wait "$1" 2>/dev/null
}
# sync_monitor FILE [-n NS]: a monitor joins its group some time after it
# starts (seconds, in a loaded guest under the debug kernel): add and
# delete a rule until the monitor writing FILE has printed it
sync_monitor() {
	local f=$1 i

	shift
	for i in $(seq 100); do
		"$LROADM" "$@" auto add ifname lro-sync &&
			"$LROADM" "$@" auto del ifname lro-sync
		grep -q '^auto-del' "$f" && return
		sleep 0.1
	done
}
# events FILE: "NEW,DEL", the auto-new and auto-del lines in FILE
events() { echo "$(grep -c '^auto-new' "$1"),$(grep -c '^auto-del' "$1")"; }

# --- A namespace's own rule ---------------------------------------------
defer netns_del "$NS_A" "$NS_B"
ip netns add "$NS_A"
ip netns add "$NS_B"
monitors_kill() { kill ${mon:-} ${mon_a:-} 2>/dev/null; }
defer monitors_kill
"$LROADM" monitor > "$tmp/monitor" 2>&1 &
mon=$!
adm_a monitor > "$tmp/monitor_a" 2>&1 &
mon_a=$!
sync_monitor "$tmp/monitor" && sync_monitor "$tmp/monitor_a" -n "$NS_A"
sleep 0.2
base=$(events "$tmp/monitor")
base_a=$(events "$tmp/monitor_a")
check "auto add kind veth ifname 'lro*' max_aggr 32 (in $NS_A)" \
	adm_a auto add kind veth ifname 'lro*' max_aggr 32
check "the same rule again: refused" \
	refused_with '^Error: .*a rule with this kind, ifname and all-netns exists\.$' \
	adm_a auto add kind veth ifname 'lro*' max_aggr 8
check "a rule with neither kind nor ifname: refused" \
	fails_with '^Error: .*needs a kind or an ifname' adm_a auto add max_aggr 8
check "an all-netns rule from $NS_A: refused" \
	refused_with "^Error: .*initial network namespace" \
	adm_a auto add all-netns kind veth
check "a pattern with a space: refused" \
	refused_with '^Error: .*only printable characters, no spaces' \
	adm_a auto add ifname 'lro 1'
check "deleting a rule that is not there: refused" \
	refused_with '^Error: .*no rule with this kind, ifname and all-netns\.$' \
	adm_a auto del kind veth
check "refusals changed nothing: one rule, max_aggr 32" \
	eq "$(rules_json -n "$NS_A" | jq -c '[.[] | [.kind, .ifname, .config.max_aggr]]')" \
	'[["veth","lro*",32]]'

ip -n "$NS_A" link add lro0 type veth peer name x0
ip -n "$NS_A" link add x0b type veth peer name lro4
check "created lro0 matches: attached, max_aggr 32" eq "$(max_aggr_of "$NS_A" lro0)" 32
check "its peer x0 does not: not attached" eq "$(max_aggr_of "$NS_A" x0)" none
check "nor x0b, whose peer lro4 does" \
	eq "$(max_aggr_of "$NS_A" x0b),$(max_aggr_of "$NS_A" lro4)" none,32
check "the rest of lro0's settings are the module's defaults" \
	eq "$("$LROADM" -n "$NS_A" -j show lro0 | jq -r '.[0].max_desc')" \
	"$(cat /sys/module/lro/parameters/default_max_desc)"
ip -n "$NS_B" link add lro1 type veth peer name y1
check "lro1 in $NS_B, where no rule is: not attached" eq "$(max_aggr_of "$NS_B" lro1)" none
ip -n "$NS_B" link set lro1 netns "$NS_A"
check "lro1 moved into $NS_A: attached" eq "$(max_aggr_of "$NS_A" lro1)" 32
ip -n "$NS_A" link set x0 name lro2
check "x0 renamed lro2: not attached (looked at once, as it appeared)" \
	eq "$(max_aggr_of "$NS_A" lro2)" none
check "the rule counts 3 attached (lro0, lro4, lro1), 0 failed" \
	eq "$(rule_field "$NS_A" '"\(.attached),\(.failed)"' '.kind == "veth"')" "3,0"
check "a bridge takes lro0, which a rule attached" \
	ip -n "$NS_A" -batch - <<-EOF
		link add br0 type bridge
		link set lro0 master br0
	EOF
check "lro0 gave LRO up" eq "$(max_aggr_of "$NS_A" lro0)" none
check "lroadm set lro1 max_aggr 20 (by hand)" adm_a set lro1 max_aggr 20
check "the bridge cannot take lro1 now" \
	fails ip -n "$NS_A" link set lro1 master br0
check "lro1 kept LRO" eq "$(max_aggr_of "$NS_A" lro1)" 20

check "auto del kind veth ifname 'lro*'" adm_a auto del kind veth ifname 'lro*'
check "no rule left in $NS_A" eq "$(rules_json -n "$NS_A" | jq length)" 0
check "what the rule attached stays attached" eq "$(max_aggr_of "$NS_A" lro4)" 32
ip -n "$NS_A" link add lro3 type veth peer name x3
check "a device created after: not attached" eq "$(max_aggr_of "$NS_A" lro3)" none

# 64 rules per list, then no more
for i in $(seq 1 64); do echo "auto add ifname p$i"; done > "$tmp/batch"
ok=0
while read -r -a words; do adm_a "${words[@]}" && ok=$((ok + 1)); done < "$tmp/batch"
check "64 rules in $NS_A" eq "$ok" 64
check "the 65th: refused" refused_with '^Error: .*at most 64 rules' adm_a auto add ifname p65
stop_monitor "$mon_a"
mon_a=
check "monitor in $NS_A showed its 65 rules added, 1 deleted" \
	eq "$(events "$tmp/monitor_a")" "$((${base_a%,*} + 65)),$((${base_a#*,} + 1))"
ip netns del "$NS_A"	# with its 64 rules: freed (kmemleak)

# --- All-netns rules ------------------------------------------------------
check "auto add all-netns kind veth max_aggr 16" \
	"$LROADM" auto add all-netns kind veth max_aggr 16
check "auto add all-netns ifname lo (cannot attach: loopback)" \
	"$LROADM" auto add all-netns ifname lo
# In the namespaces' own order: netns add, then a pair inside each.
for i in $(seq 1 $N); do echo "netns add lroauto$i"; done > "$tmp/batch"
# shellcheck disable=SC2046 # one name a word
defer netns_del $(seq -f "lroauto%g" 1 $N)
for i in $(seq 1 $N); do
	echo "link add a$i netns lroauto$i type veth peer name b$i netns lroauto$i"
done >> "$tmp/batch"
check "$N namespaces with a veth pair each" ip -batch "$tmp/batch"
# One lroadm per namespace, no jq: under the debug kernel each costs.
for i in $(seq 1 $N); do "$LROADM" -n lroauto$i show; done > "$tmp/shown"
check "all $((2 * N)) veths attached, max_aggr 16" \
	eq "$(grep -Ec '^[ab][0-9]+: enabled .*max_aggr 16 ' "$tmp/shown")" $((2 * N))
check "the veth rule counts $((2 * N)) attached" \
	ge "$(rule_field "" .attached '.kind == "veth"')" $((2 * N))
check "the lo rule counts a failure for each new namespace" \
	ge "$(rule_field "" .failed '.ifname == "lo"')" "$N"
check "a namespace sees the all-netns rules, flagged, without counters" \
	eq "$(rules_json -n "$NS_B" | jq -c '[.[] | [.all_netns, has("attached")]]')" \
	'[[true,false],[true,false]]'

# A namespace's own rule comes before the all-netns rules.
check "auto add kind veth max_aggr 8 (in $NS_B)" \
	"$LROADM" -n "$NS_B" auto add kind veth max_aggr 8
ip -n "$NS_B" link add z0 type veth peer name z1
check "in $NS_B its own rule wins: max_aggr 8" eq "$(max_aggr_of "$NS_B" z0)" 8

# Traffic over a pair the all-netns rule attached.
veth_pair_setup
check "veth-srv attached by the all-netns rule" eq "$(max_aggr_of "$NS_SRV" veth-srv)" 16
MB=$(scaled 4)
check "$MB MB stream byte-exact" stream_tcp "$MB"
stats=$(lro_stats_settled)
check_coalesced "veth-srv" "$(stat_of aggregated "$stats")" "$(stat_of flushed "$stats")"

check "auto del all-netns kind veth" "$LROADM" auto del all-netns kind veth
check "what it attached stays attached" eq "$(max_aggr_of lroauto$N a$N)" 16
ip netns add lroauto$((N + 1))
ip -n lroauto$((N + 1)) link add a0 type veth peer name b0
check "a new namespace's veth: not attached" eq "$(max_aggr_of lroauto$((N + 1)) a0)" none
ip netns del lroauto$((N + 1))

# --- monitor, lroadm's grammar, the log -----------------------------------
stop_monitor "$mon"
mon=
check "monitor in the init netns showed the 2 all-netns rules added, 1 deleted (and no other namespace's)" \
	eq "$(events "$tmp/monitor")" "$((${base%,*} + 2)),$((${base#*,} + 1))"
check "lroadm auto add kind veth max_aggr x: refused" \
	fails_with '^Error: invalid max_aggr value "x"\.$' "$LROADM" auto add kind veth max_aggr x
check "lroadm auto add kind veth bogus 1: refused" \
	fails_with '^Error: unknown' "$LROADM" auto add kind veth bogus 1
check "lroadm auto bogus: refused" fails_with '^Error: ' "$LROADM" auto bogus
check "lroadm auto add kind with a 16-character kind: refused" \
	fails_with '^Error: ' "$LROADM" auto add kind 0123456789abcdef
# The kernel's refusals name the attribute: a rule's own, or one of the
# device settings nested in its config (lroadm reads offsets in both).
check "auto add kind 'a b': the kernel names the rule's attribute" \
	refused_with '^Error: only printable characters, no spaces \(attribute kind\)\.$' \
	"$LROADM" auto add kind 'a b'
check "auto add kind veth max_aggr 65: the kernel names the setting in the config" \
	refused_with '^Error: integer out of range \(attribute max_aggr, valid 1\.\.64\)\.$' \
	"$LROADM" auto add kind veth max_aggr 65

# The all-netns lo rule stays: rmmod frees it (kmemleak).
lro_unload
check "kernel log is clean" log_clean_since "$mark"
exit $RET
