#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The control plane: the lro generic netlink family through lroadm (set,
# enable, disable, show, stats, stats reset, del, monitor; -j output) and
# through hand-made messages (lro_nl.py), and /sys/class/net/<dev>/lro/.
# lroadm's own grammar and errors are lroadm.sh's.
#
#  - lroadm help works without the module; lroadm show autoloads it, and
#    says so when it cannot.
#  - set changes only what it is given; attaching takes the module's
#    defaults; enable attaches, disable does not; disabled, LRO takes
#    nothing; dumps list every attached device of the caller's netns and
#    only those.
#  - A detach before any of disable's requests (lroadm_inject.so) leaves
#    LRO detached; an attach or detach between set's requests still ends
#    with its values applied. Missing devices, and devices of another
#    netns, are not found.
#  - An unprivileged user can show and read stats, but set, enable, del,
#    stats reset and sysfs writes fail with a permission error and change
#    nothing; root of a user namespace manages its own netns's devices.
#  - monitor sees new/change/del notifications (from netlink, sysfs and
#    device removal) of its own netns only.
#  - With devices attached, lro.ko unloads.
# What the family and sysfs refuse, and dumps longer than one reply, are
# control_limits.sh's; devices stacked on others are uppers.sh's.
#
# debug-kernel: no (make coverage: of the kmod lines it ran under the debug
# kernel, 32 no other test ran, all in what is control_limits.sh's now; it
# took 532 s there, control_limits.sh about a third of it)

source "$(dirname "$0")/lib.sh"
source "$SELFTESTS/lib_control.sh"
need_root
control_need_tools

INJECT=$BUILD/selftests/tools/lroadm_inject.so
tmp=$(mktemp -d)
defer rm -rf "$tmp"
# The monitors the test starts (monitor section), killed at exit; then
# what else runs in the background is waited for.
mon_pids=()
monitors_kill() {
	local pid

	for pid in "${mon_pids[@]}"; do
		kill "$pid" 2>/dev/null
	done
	wait 2>/dev/null
}
# Stops alias (autoload) loading of lro.ko, for one check.
BLACKLIST=/etc/modprobe.d/lro-selftest-control.conf

# lroadm as nobody, with no capabilities at all
nobody_adm() {
	in_srv setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$tmp/lroadm" "$@"
}

mark=$(log_mark)

#
# Without the module
#
lro_unload
check "lroadm help without the module" \
	out_is "Usage: lroadm [ OPTIONS ] COMMAND" sh -c "'$LROADM' help | head -n1"
check "lroadm help exits 0" sh -c "'$LROADM' help >/dev/null"
check "lroadm help does not load the module" test ! -e /sys/module/lro
# When the family is not there even after the kernel tried to load it.
defer rm -f "$BLACKLIST"
echo "blacklist lro" > "$BLACKLIST"
check "lroadm without the module, which cannot be autoloaded" \
	refused_with '^Error: the lro module is not loaded \(modprobe lro\)\.$' "$LROADM" show
rm -f "$BLACKLIST"
check "lroadm show autoloads lro.ko" out_is "" "$LROADM" show
check "/sys/module/lro after lroadm show" test -d /sys/module/lro

veth_pair_setup
defer monitors_kill
ip -n "$NS_SRV" link add dummy0 type dummy
ip -n "$NS_SRV" link set dummy0 up

#
# set / show / enable / disable / del
#
check "show: nothing attached" out_is "" adm show
check "show -j: nothing attached" out_is "[]" adm -j show
check "show on a device LRO is not attached to" \
	refused_with '^Error: LRO is not attached to veth-srv\.$' adm show veth-srv
check "set attaches with a full config" \
	adm set veth-srv max_aggr 32 max_desc 64 features napi flush_timeout_us 0
check "show after set" out_is "$(line veth-srv enabled 64 32 napi 0)" adm show veth-srv
check "set max_aggr changes only max_aggr" adm set veth-srv max_aggr 16
check "show after set max_aggr" out_is "$(line veth-srv enabled 64 16 napi 0)" adm show veth-srv
check "set features evict,extract_vlan_id flush_timeout_us 200" \
	adm set veth-srv features evict,extract_vlan_id flush_timeout_us 200
check "show after set features" \
	out_is "$(line veth-srv enabled 64 16 extract_vlan_id,evict 200)" adm show veth-srv
check "set features none" adm set veth-srv features none
check "show after features none" out_is "$(line veth-srv enabled 64 16 none 200)" adm show veth-srv
check "set features as a number" adm set veth-srv features 0x5
check "show -j" jq_is '[{"ifindex":'"$(srv_ifindex veth-srv)"',"ifname":"veth-srv","enabled":true,"max_desc":64,"max_aggr":16,"features":["napi","evict"],"flush_timeout_us":200,"max_held_bytes":'"$(modparam max_held_bytes)"'}]' \
	. adm -j show veth-srv
check "show -j -p is the same JSON" jq_is "$(adm -j show | jq -c .)" . adm -j -p show
check "show -j -p is pretty" test "$(adm -j -p show veth-srv | wc -l)" -gt 5
check "disable" adm disable veth-srv
check "show after disable" out_is "$(line veth-srv disabled 64 16 napi,evict 200)" adm show veth-srv
check "enable" adm enable veth-srv
check "show after enable" out_is "$(line veth-srv enabled 64 16 napi,evict 200)" adm show veth-srv
check "del" adm del veth-srv
check "show after del" refused_with '^Error: LRO is not attached to veth-srv\.$' adm show veth-srv
check "sysfs directory gone after del" ip netns exec "$NS_SRV" test ! -e $SYSFS
check "del again" refused_with '^Error: LRO is not attached to veth-srv\.$' adm del veth-srv
check "disable does not attach" \
	refused_with '^Error: LRO is not attached to veth-srv\.$' adm disable veth-srv
check "still not attached after disable" out_is "" adm show
# disable changes LRO only where it is attached, in one request: a detach
# (lroadm_inject.so) before each of its netlink requests in turn, family
# lookups included, or after them all, leaves LRO detached.
check "lroadm_inject.so is built" test -e "$INJECT"
for n in 1 2 3 4; do
	adm set veth-srv
	rm -f "$tmp/fired"
	env LD_PRELOAD="$INJECT" \
		LROADM_INJECT_SEND="$n '$LROADM' del veth-srv && touch '$tmp/fired'" \
		"$LROADM" -n "$NS_SRV" disable veth-srv >/dev/null 2>&1
	[ -e "$tmp/fired" ] || adm del veth-srv
	check "disable, a detach before its request $n: LRO stays detached" \
		refused_with '^Error: LRO is not attached to veth-srv\.$' adm show veth-srv
	[ -e "$tmp/fired" ] || break	# after its last request
done
# set is a dev-set, or a dev-add where LRO is not attached; when another
# lroadm attaches or detaches it in between, the other request follows.
desc_aggr() { jq_is "$1" '[.[0].max_desc, .[0].max_aggr]' adm -j show veth-srv; }
env LD_PRELOAD="$INJECT" LROADM_INJECT_SEND="3 '$LROADM' set veth-srv max_aggr 7" \
	"$LROADM" -n "$NS_SRV" set veth-srv max_desc 32
check "set, attached by another before its dev-add: then changed" desc_aggr '[32,7]'
env LD_PRELOAD="$INJECT" LROADM_INJECT_SEND="2 '$LROADM' del veth-srv" \
	"$LROADM" -n "$NS_SRV" set veth-srv max_desc 33
check "set, detached by another before its dev-set: attached again" \
	desc_aggr "[33,$(cat /sys/module/lro/parameters/default_max_aggr)]"
adm del veth-srv
check "enable attaches" adm enable veth-srv
defaults=$(defaults_line veth-srv)
check "enable attached with the module's defaults" out_is "$defaults" adm show veth-srv
check "default features match the module parameter" \
	test "$(adm -j show veth-srv | jq '[.[0].features[] | {napi: 1, extract_vlan_id: 2, evict: 4, adaptive: 8}[.]] | add // 0')" \
	= "$(modparam features)"
check "set on an attached device with nothing to change" adm set veth-srv
check "show unchanged" out_is "$defaults" adm show veth-srv
adm del veth-srv
check "set with no values attaches with the defaults" adm set veth-srv
check "show after bare set" out_is "$defaults" adm show veth-srv
check "set max_aggr 8 on the second device" adm set dummy0 max_aggr 8
check "dump lists both devices, in ifindex order" \
	out_is "$(adm show veth-srv)"$'\n'"$(adm show dummy0)" adm show
check "dump -j lists both devices" jq_is '["veth-srv","dummy0"]' '[.[].ifname]' adm -j show

#
# What the checks below compare against ($before), and dummy1, unattached.
#
adm set veth-srv max_desc 64 max_aggr 16 features napi flush_timeout_us 0
before=$(adm show veth-srv)
ip -n "$NS_SRV" link add dummy1 type dummy
idx=$(srv_ifindex veth-srv)

#
# Missing devices, other netns
#
check "unknown device name" fails_with '^Error: cannot find device "nosuch"\.$' adm show nosuch
check "unknown device name in set" fails_with '^Error: cannot find device "nosuch"\.$' \
	adm set nosuch max_aggr 4
check "attach in the client netns" cli_adm set veth-cli max_aggr 4
check "the client netns sees its device only" out_is "$(line veth-cli enabled \
	"$(modparam max_desc)" 4 "$(cli_adm -j show veth-cli | jq -r '.[0].features | if length == 0 then "none" else join(",") end')" \
	"$(modparam flush_timeout_us)")" cli_adm show
check "the server netns does not see it" out_is "$(adm show veth-srv)"$'\n'"$(adm show dummy0)" adm show
check "a device of another netns is not found by name" \
	fails_with '^Error: cannot find device "veth-cli"\.$' adm show veth-cli
check "lroadm -n NETNS is lroadm in that netns" out_is "$(in_srv "$LROADM" show)" adm show
check "lroadm -n with a missing netns" \
	fails_with '^Error: cannot open network namespace "nosuch": No such file or directory\.$' \
	"$LROADM" -n nosuch show
check "lroadm -n without a name" \
	fails_with '^Error: -n needs a network namespace name\.$' "$LROADM" -n
check "the init netns sees no device" out_is "" "$LROADM" show
check "the init netns does not find veth-srv by name" \
	fails_with '^Error: cannot find device "veth-srv"\.$' "$LROADM" show veth-srv
if ! ip -o link show | grep -q "^$idx:"; then
	check "nor by ifindex" \
		out_is "error 19 msg \"no device with ifindex $idx in this network namespace\" offset 20" \
		$LRO_NL dev-get ifindex=u32:$idx
else
	echo "SKIP: ifindex $idx exists in the init netns too: no ifindex check"
fi
check "nor can it change it by ifindex" same "$before" "$(adm show veth-srv)"

#
# Permissions
#
cp "$LROADM" "$tmp/lroadm" && chmod 755 "$tmp" "$tmp/lroadm"
check "nobody can show" out_is "$before" nobody_adm show veth-srv
check "nobody can dump" out_is "$(adm show)" nobody_adm show
check "nobody can read stats" jq_is "$NSTATS" '.[0].stats | length' nobody_adm -j stats veth-srv
for cmd in "set veth-srv max_aggr 4" "enable veth-srv" "disable veth-srv" "del veth-srv" \
	   "stats veth-srv reset" "set dummy1"; do
	check "nobody cannot $cmd" \
		refused_with '^Error: permission denied \(CAP_NET_ADMIN needed\)\.$' nobody_adm $cmd
done
check "nothing changed after nobody's attempts" same "$before" "$(adm show veth-srv)"
check "nobody cannot dev-add" \
	out_is 'error 1' in_srv setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all $LRO_NL dev-add ifindex=u32:$(srv_ifindex dummy1)
check "nobody attached nothing" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm show dummy1
# GENL_UNS_ADMIN_PERM: root of a user namespace manages its own netns.
# (Skipped on a kernel built without user namespaces.)
if [ -e /proc/self/ns/user ] && unshare --user true 2>/dev/null; then
	check "root of a user namespace can set LRO on its own devices" \
		jq_is '[{"ifname":"d0","max_aggr":4}]' '[.[] | {ifname, max_aggr}]' \
		unshare --user --map-root-user --net sh -c \
			"ip link add d0 type dummy && '$LROADM' set d0 max_aggr 4 && '$LROADM' -j show"
else
	echo "# SKIP: root of a user namespace: this kernel has no user namespaces"
fi
check "nobody cannot write sysfs" \
	ip netns exec "$NS_SRV" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all sh -c "! echo 4 > $SYSFS/max_aggr" 2>/dev/null
check "nothing changed after nobody's sysfs write" same "$before" "$(adm show veth-srv)"

#
# Statistics
#
stat() { adm -j stats veth-srv | jq ".[0].stats.$1"; }
check "stream 1 MB through LRO" stream_tcp 1
check "stats show pkts_in" test "$(stat pkts_in)" -gt 0
check "stats show aggregated" test "$(stat aggregated)" -gt 0
check "stats has every counter" jq_is "$NSTATS" '.[0].stats | length' adm -j stats veth-srv
check "stats: human output" out_is "veth-srv:" sh -c "ip netns exec $NS_SRV $LROADM stats veth-srv | head -n1"
check "stats: human counters" grep -Eq '^    pkts_in [1-9][0-9]*$' <(adm stats veth-srv)
check "stats dump covers both devices" jq_is '["veth-srv","dummy0"]' '[.[].ifname]' adm -j stats
check "stats reset" adm stats veth-srv reset
check "aggregated is 0 after reset" test "$(stat aggregated)" = 0
check "flushed is 0 after reset" test "$(stat flushed)" = 0
check "stream again" stream_tcp 1
check "counting again" test "$(stat aggregated)" -gt 0
# Disabled, LRO keeps its rx_handler and takes nothing: every segment
# passes (rx.c, lro_handle_frame()).
adm disable veth-srv >/dev/null
adm stats veth-srv reset >/dev/null
check "disabled: a stream passes" stream_tcp 1
check "disabled: LRO took nothing" test "$(stat pkts_in)" = 0
adm enable veth-srv >/dev/null
# Detached with a packet held, LRO sends it up on its way out, after its
# rx_handler is gone (device.c, __lro_dev_detach()): the stack receives it
# as one packet. The lroadm that reads held_segs and detaches is started
# before the segments are sent and given both commands right after: under
# the debug kernel a process started then would come after the 1 s hold.
adm set veth-srv flush_timeout_us 1000000 >/dev/null
mkfifo "$tmp/batch"
for try in 1 2 3; do
	adm -b - < "$tmp/batch" > "$tmp/batch.out" 2>&1 &
	exec 7> "$tmp/batch"
	in0=$(ip_in_receives "$NS_SRV")
	craft --segs 3 --sport $((47000 + try))
	printf 'stats veth-srv\ndel veth-srv\n' >&7
	exec 7>&-
	wait $!
	held=$(sed -n 's/^ *held_segs \([0-9]*\)$/\1/p' "$tmp/batch.out")
	[ "$held" = 3 ] && break
	echo "# try $try: ${held:-no} segments held at the detach; again"
	read -r _ _ cfg <<< "$before"
	adm set veth-srv $cfg >/dev/null
done
check "a detach with 3 segments held" eq "$held" 3
check "... sends them up, one packet" eq "$(ip_in_receives "$NS_SRV")" $((in0 + 1))
read -r _ _ cfg <<< "$before"
check "attached again as before" adm set veth-srv $cfg
check "stats reset of every device" adm stats reset
check "aggregated is 0 after reset of all" test "$(stat aggregated)" = 0
check "stats of a device LRO is not attached to" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm stats dummy1
check "stats reset of a device LRO is not attached to" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm stats dummy1 reset
ip -n "$NS_SRV" link add reset type dummy
adm set reset >/dev/null
check "stats dev reset: the device named reset" \
	jq_is '["reset"]' '[.[].ifname]' adm -j stats dev reset
check "stats dev reset reset: its counters reset" adm stats dev reset reset
check "stats dev dummy1 reset: not attached" \
	refused_with '^Error: LRO is not attached to dummy1\.$' adm stats dev dummy1 reset
ip -n "$NS_SRV" link del reset
check "nothing changed by the stats commands" same "$before" "$(adm show veth-srv)"

# The monitor's events start from a config whose every setting differs
# from the module's defaults.
adm set veth-srv max_desc 128 max_aggr 24 features napi,extract_vlan_id \
	flush_timeout_us 500 max_held_bytes 1048576

#
# monitor
#
ip netns exec "$NS_SRV" "$LROADM" -j monitor > "$tmp/mon.json" 2>&1 &
mon_pids+=($!)
ip netns exec "$NS_SRV" "$LROADM" monitor > "$tmp/mon.txt" 2>&1 &
mon_pids+=($!)
ip netns exec "$NS_CLI" "$LROADM" -j monitor > "$tmp/mon-cli.json" 2>&1 &
mon_pids+=($!)
"$LROADM" -n "$NS_SRV" -t monitor > "$tmp/mon-t.txt" 2>&1 &
mon_pids+=($!)
"$LROADM" -n "$NS_SRV" -t -j monitor > "$tmp/mon-t.json" 2>&1 &
mon_pids+=($!)
# Until every monitor has joined: poke (max_aggr 30, left out below) and look.
for _ in $(seq 100); do
	adm set veth-srv max_aggr 30
	cli_adm set veth-cli max_aggr 30
	grep -q . "$tmp/mon.json" && grep -q . "$tmp/mon.txt" &&
		grep -q . "$tmp/mon-cli.json" && grep -q . "$tmp/mon-t.txt" &&
		grep -q . "$tmp/mon-t.json" && break
	sleep 0.1
done
adm set veth-srv max_aggr 12
adm del veth-srv
adm set veth-srv max_aggr 13 max_desc 32
sysfs_write max_aggr 14 >/dev/null
adm enable dummy1
ip -n "$NS_SRV" link del dummy1
adm stats veth-srv reset
cli_adm set veth-cli max_aggr 5
# Wait for the last events expected in each netns.
for _ in $(seq 100); do
	[ "$(jq -r 'select(.ifname == "dummy1") | .event' "$tmp/mon.json" | tail -n1)" = del ] &&
		grep -q 'del dummy1:' "$tmp/mon.txt" &&
		grep -q '"max_aggr":5,' "$tmp/mon-cli.json" && break
	sleep 0.1
done
for pid in "${mon_pids[@]}"; do
	kill "$pid" 2>/dev/null
done
wait 2>/dev/null
mon_pids=()
events() { # events FILE DEV: "event max_aggr" per line, without the pokes
	jq -r "select(.ifname == \"$2\") | \"\\(.event) \\(.max_aggr)\"" "$1" |
		{ grep -v '^change 30$' || true; }
}
check "monitor -j: one JSON object per line" \
	test "$(jq -c . "$tmp/mon.json" | wc -l)" = "$(wc -l < "$tmp/mon.json")"
check "monitor -j: veth-srv events" out_is "change 12
del 12
new 13
change 14" events "$tmp/mon.json" veth-srv
check "monitor -j: enable and device removal" out_is "new $(modparam max_aggr)
del $(modparam max_aggr)" events "$tmp/mon.json" dummy1
check "monitor -j: the new event carries the config" \
	jq_is '{"event":"new","ifname":"veth-srv","enabled":true,"max_desc":32,"max_aggr":13}' \
	'select(.event == "new" and .ifname == "veth-srv") | {event, ifname, enabled, max_desc, max_aggr}' \
	cat "$tmp/mon.json"
check "monitor -j: events carry stats" \
	jq_is "$NSTATS" 'select(.event == "new" and .ifname == "veth-srv") | .stats | length' cat "$tmp/mon.json"
check "monitor: human lines" \
	grep -Eq '^del veth-srv: enabled max_desc 128 max_aggr 12 features napi,extract_vlan_id flush_timeout_us 500 max_held_bytes [0-9]+$' \
	"$tmp/mon.txt"
check "monitor: the same events as -j" \
	out_is "$(jq -r 'select(.max_aggr != 30) | "\(.event) \(.ifname) \(.max_aggr)"' "$tmp/mon.json")" \
	sed -n -E '/ max_aggr 30 /d; s/^([a-z]+) ([^:]+): .* max_aggr ([0-9]+) .*/\1 \2 \3/p' "$tmp/mon.txt"
check "monitor: nothing from the other netns" out_is "" events "$tmp/mon.json" veth-cli
check "monitor in the other netns: its own events only" \
	out_is "change 5" events "$tmp/mon-cli.json" veth-cli
check "monitor in the other netns: no server events" \
	out_is "veth-cli" sh -c "jq -r .ifname '$tmp/mon-cli.json' | sort -u"
# -t: "Timestamp: Sat Dec  5 00:15:26 2026 123456 usec" before each event
check "-t monitor: Timestamp lines and events, one each in turn" \
	awk '(NR % 2 == 1) != ($0 ~ /^Timestamp: /) { bad = 1 } END { exit bad || NR < 2 || NR % 2 }' \
	"$tmp/mon-t.txt"
check "-t monitor: ip -t monitor's format" \
	grep -Eq '^Timestamp: [A-Z][a-z]{2} [A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]{4} [0-9]{1,6} usec$' \
	"$tmp/mon-t.txt"
check "-t -j monitor: a number member timestamp first in each event" \
	jq_is true '(length > 0) and ([.[] | (keys_unsorted[0] == "timestamp") and (.timestamp | type == "number")] | all)' \
	jq -s . "$tmp/mon-t.json"

#
# Unload with devices attached
#
check "rmmod with LRO attached" rmmod lro
check "lroadm without the module, autoload again" out_is "" adm show
check "autoloaded" test -d /sys/module/lro
lro_unload
check "kernel log is clean" log_clean_since "$mark"
exit $RET
