#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lroadm's own grammar and errors, against the live lro family: what lroadm
# decides before or between its netlink requests. The kernel's side of the
# same commands (attach, refusals with an extack, dumps, permissions,
# notifications, sysfs) is control.sh's.
#
#  - Values lroadm parses itself (an unknown feature or setting, a number
#    that is not one, hex, a leading +, too big for u32) are refused
#    before any request, exit 1, and change nothing; 010 is ten, as in
#    sysfs.
#  - ip's habits: command prefixes, "dev DEV", "COMMAND help" (for every
#    command, without the module too), the spec's dashed names, -b FILE
#    (stops at the first bad line and names it; -force goes on, exiting
#    with the worst status).
#  - lroadm exits 1 where it refuses a command itself (its grammar, a
#    value, a device it cannot find), 2 where the kernel refuses it.
#  - An allocation failing in lroadm (lroadm_inject.so) ends the command
#    with an error: none hangs waiting for the rest of a reply it stopped
#    reading, and monitor does not go on without the event.
#
# Under the debug kernel these checks run no line of lro.ko that control.sh,
# policy.sh, auto.sh and ipv6.sh do not (make coverage T="control lroadm
# policy auto ipv6" on 2026-12-06: 487 lines, 0 its own), so KASAN has
# nothing more to see: they run on Debian's kernel only.
# debug-kernel: no

source "$(dirname "$0")/lib.sh"
need_root
command -v jq >/dev/null || skip "jq not installed"
[ -x "$LROADM" ] || skip "no $LROADM (make)"

INJECT=$BUILD/selftests/tools/lroadm_inject.so
tmp=$(mktemp -d)
defer rm -rf "$tmp"

mark=$(log_mark)
lro_load
veth_pair_setup
ip -n "$NS_SRV" link add dummy1 type dummy
adm set veth-srv max_desc 64 max_aggr 16 features napi flush_timeout_us 0
before=$(adm show veth-srv)
check "lroadm_inject.so is built" test -e "$INJECT"

#
# Values lroadm parses itself: refused before any request, exit 1.
#
check "unknown feature name" \
	fails_with '^Error: unknown feature "bogus" \(napi, extract_vlan_id, evict or none\)\.$' \
	adm set veth-srv features napi,bogus
check "number parsed locally" \
	fails_with '^Error: invalid max_aggr value "3x"\.$' adm set veth-srv max_aggr 3x
check "negative number parsed locally" \
	fails_with '^Error: invalid max_desc value "-1"\.$' adm set veth-srv max_desc -1
check "too big for u32, parsed locally" \
	fails_with '^Error: invalid flush_timeout_us value "4294967296"\.$' \
	adm set veth-srv flush_timeout_us 4294967296
check "unknown setting" fails_with '^Error: unknown setting "max_foo"' adm set veth-srv max_foo 1
check "empty feature list refused" \
	fails_with '^Error: empty feature list "" \(napi, extract_vlan_id, evict or none\)\.$' \
	adm set veth-srv features ""
check "feature list of commas refused" \
	fails_with '^Error: empty feature list "," \(napi, extract_vlan_id, evict or none\)\.$' \
	adm set veth-srv features ,
check "hex is not a number here, as in sysfs" \
	fails_with '^Error: invalid max_desc value "0x10"\.$' adm set veth-srv max_desc 0x10
check "a leading + is not a number" \
	fails_with '^Error: invalid max_aggr value "\+8"\.$' adm set veth-srv max_aggr +8
check "nothing changed after local errors" same "$before" "$(adm show veth-srv)"
check "010 is ten, as in sysfs" adm set veth-srv max_desc 010
check "... max_desc is 10" jq_is 10 '.[0].max_desc' adm -j show veth-srv
adm set veth-srv max_desc 64

#
# The grammar of ip and devlink: prefixes, dev, help after a command,
# the spec's dashed names, -b; 1 for what lroadm refuses, 2 for what the
# kernel refuses.
#
check "s is show" out_is "$before" adm s veth-srv
check "auto s is auto show" out_is "$(adm auto show)" adm auto s
check "d is descs, the first command in table order it begins" \
	out_is "$("$LROADM" descs help)" "$LROADM" d help
check "se is set" adm se veth-srv max_aggr 16
check "a word longer than any command is none" \
	fails_with '^Error: unknown command "sets" \(try "lroadm help"\)\.$' adm sets veth-srv
check "an empty word is no prefix" fails_with '^Error: unknown command ""' adm ""
check "an unknown auto subcommand" \
	fails_with '^Error: unknown auto command "x" \(try "lroadm auto help"\)\.$' adm auto x
check "an unknown option: a hint" \
	fails_with '^Error: unknown option "-x" \(try "lroadm help"\)\.$' "$LROADM" -x show
check "... in one line, without the usage" eq "$("$LROADM" -x show 2>&1 | wc -l)" 1
# usage_of WORDS...: "lroadm WORDS help" exits 0 and prints the usage of WORDS
usage_of() {
	local out
	out=$("$LROADM" "$@" help 2>&1) || { echo "    exit status $? from: lroadm $* help"; return 1; }
	has_line "^Usage: lroadm $*" "$out" && return 0
	echo "$out" | sed 's/^/    got: /'
	return 1
}
for words in set enable disable del show stats descs monitor auto "auto add" "auto del" help; do
	check "lroadm $words help: its usage, exit 0" usage_of $words
done
check "set dev without a device" fails_with '^Error: dev needs a device name\.$' adm set dev
check "show dev without a device" fails_with '^Error: dev needs a device name\.$' adm show dev
check "show dev veth-srv" out_is "$before" adm show dev veth-srv
check "disable dev veth-srv" adm disable dev veth-srv
check "enable dev veth-srv" adm enable dev veth-srv
check "set dev veth-srv max_aggr 16" adm set dev veth-srv max_aggr 16
check "del dev of a device LRO is not attached to: the kernel refuses (2)" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm del dev dummy1
check "nothing changed by the dev commands" same "$before" "$(adm show veth-srv)"
ip -n "$NS_SRV" link add name help type dummy
check "set dev help: the device named help" adm set dev help max_aggr 5
check "show dev help shows it" jq_is '["help",5]' '[.[0].ifname, .[0].max_aggr]' adm -j show dev help
check "del dev help" adm del dev help
ip -n "$NS_SRV" link del dev help
check "set max-aggr 17 flush-timeout-us 100: the spec's names" \
	adm set veth-srv max-aggr 17 flush-timeout-us 100
check "... applied" jq_is '[17,100]' '[.[0].max_aggr, .[0].flush_timeout_us]' adm -j show veth-srv
check "... shown with underscores" \
	grep -q ' max_aggr 17 features napi flush_timeout_us 100 ' <(adm show veth-srv)
check "set veth-srv max-aggr 16" adm set veth-srv max-aggr 16
check "... show shows 16" jq_is 16 '.[0].max_aggr' adm -j show veth-srv
check "features napi,extract-vlan-id" adm set veth-srv features napi,extract-vlan-id
check "... shown as extract_vlan_id" jq_is '["napi","extract_vlan_id"]' '.[0].features' \
	adm -j show veth-srv
check "a bad max-aggr value, named max_aggr" \
	fails_with '^Error: invalid max_aggr value "x"\.$' adm set veth-srv max-aggr x
check "max-aggr 65: the kernel refuses it (2), naming max_aggr" \
	refused_with '^Error: integer out of range \(attribute max_aggr, valid 1\.\.64\)\.$' \
	adm set veth-srv max-aggr 65
adm set veth-srv flush_timeout_us 0 features napi
check "nothing changed by the dashed names" same "$before" "$(adm show veth-srv)"
cat > "$tmp/batch" <<'EOF'
# max_aggr 21, 22, then a bad line, then 23
set veth-srv max_aggr 21

set dev veth-srv max_aggr 22	# dev, and a comment
set veth-srv max_aggr x
set veth-srv max_aggr 23
EOF
check "-b: the bad line fails, naming its line" \
	fails_with '^Error: invalid max_aggr value "x" \(line 5\)\.$' adm -b "$tmp/batch"
check "-b: the lines before it applied, none after it" jq_is 22 '.[0].max_aggr' adm -j show veth-srv
check "-b -force: the bad line fails" fails_with '\(line 5\)\.$' adm -force -b "$tmp/batch"
check "-b -force: the lines after it applied too" jq_is 23 '.[0].max_aggr' adm -j show veth-srv
printf '%s\n' 'set veth-srv max_aggr 16' 'del dummy1' 'set veth-srv max_aggr x' > "$tmp/batch"
check "-b -force: the worst status, 2: the kernel refused line 2" \
	refused_with '^Error: LRO is not attached to dummy1 \(line 2\)\.$' adm -force -b "$tmp/batch"
check "-b -: from stdin, quotes keep a blank in a word" \
	fails_with '^Error: cannot find device "no such" \(line 1\)\.$' adm -b - <<< "show dev 'no such'"
check "-b without a file" fails_with '^Error: -b needs a file name\.$' "$LROADM" -b
check "-b FILE and a command" fails_with '^Error: "show" after -b ' adm -b "$tmp/batch" show
check "nothing changed by the batches" same "$before" "$(adm show veth-srv)"

#
# Failures inside lroadm (lroadm_inject.so): a netlink callback that gives
# up (NL_STOP: an allocation failed) ends the command with an error, even
# with the rest of the reply, its DONE included, unread.
#
nomem_adm() {
	timeout 20 env LD_PRELOAD="$INJECT" LROADM_INJECT_NOMEM=1 "$LROADM" -n "$NS_SRV" "$@"
}
check "stats reset, out of memory in its dump callback: an error, no hang" \
	fails_with '^Error: out of memory\.$' nomem_adm stats reset
check "show -j, out of memory for the JSON writer: an error" \
	fails_with '^Error: out of memory\.$' nomem_adm -j show
# The monitor's callback cannot allocate its JSON writer: it must say so
# and end, not drop the event and go on. Poked (with what is set already)
# until it has joined and ends.
timeout 20 env LD_PRELOAD="$INJECT" LROADM_INJECT_NOMEM=1 "$LROADM" -n "$NS_SRV" -j monitor \
	> /dev/null 2> "$tmp/mon-nomem.err" &
mon_pid=$!
for _ in $(seq 100); do
	adm set veth-srv max_aggr 16
	kill -0 $mon_pid 2>/dev/null || break
	sleep 0.1
done
kill $mon_pid 2>/dev/null
wait $mon_pid
mon_rc=$?
check "monitor -j, out of memory for an event: exits 1" eq "$mon_rc" 1
check "... with an error" grep -qx 'Error: out of memory\.' "$tmp/mon-nomem.err"
check "nothing changed by the failed commands" same "$before" "$(adm show veth-srv)"

check "kernel log is clean" log_clean_since "$mark"
exit $RET
