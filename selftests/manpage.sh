#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userspace/lroadm.8 against what lroadm knows. Needs no root and no module.
#
#   * man(1) and groff print no warning formatting it;
#   * each command, in lroadm's usage ("lroadm help") and in its command
#     table (cmds[] in userspace/lroadm.c), has an entry in COMMANDS;
#   * each setting of the usage's "set", and of set's own list of the
#     settings it takes (its "unknown setting" error), has one in SETTINGS,
#     with the range the usage gives; each feature has one there too;
#   * each counter of kmod/stats-list.h has one in COUNTERS;
#   * each option of the usage (its OPTIONS and its Usage: lines) has one
#     in OPTIONS, short and long;
#   * every keyword of the usage's COMMAND block is in the SYNOPSIS.
#
# An entry is a .TP paragraph whose tag starts with the name, in that
# section of the page (not inside .RS), so a name mentioned in passing
# elsewhere does not count. Each check names what is missing.
#
# debug-kernel: no (no kmod line: userspace only)

source "$(dirname "$0")/lib.sh"
# Nothing here touches the kernel, and the debug kernel made it take 150 s
# (its hundred-odd short processes) instead of 2.
[ "$LRO_DEBUG_KERNEL" != 1 ] || skip "checks no kernel code: Debian's kernel only"

PAGE=$TOP/userspace/lroadm.8

# shellcheck disable=SC2317 # run by check()
tools() { command -v man > /dev/null && command -v groff > /dev/null; }
check "man and groff are installed (make deps: man-db)" tools || exit "$RET"
check "lroadm is built ($LROADM)" test -x "$LROADM" || exit "$RET"
check "$PAGE exists" test -f "$PAGE" || exit "$RET"

# Warnings: anything man or groff print on stderr, and a failed run.
# (man's --warnings alone asks for groff's "mac" warnings only: an unknown
# macro, not an unknown font or escape; groff -ww asks for all of them.)
indent() { sed 's/^/    /'; }
warn=$(man --warnings -E UTF-8 -l -Tutf8 -Z "$PAGE" 2>&1 > /dev/null) ||
	warn="man failed: $warn"
check "man --warnings prints nothing" test -z "$warn" || indent <<< "$warn"
warn=$(groff -man -ww -z "$PAGE" 2>&1) || warn="groff failed: $warn"
check "groff -man -ww prints nothing" test -z "$warn" || indent <<< "$warn"

# tags SECTION: the first line of each top-level .TP tag in SECTION, font
# escapes and quotes removed, \- as -.
tags() {
	awk -v want="$1" '
		/^\.SH/ { sec = $0; sub(/^\.SH +/, "", sec); gsub(/"/, "", sec)
			  depth = 0; tp = 0; next }
		/^\.RS/ { depth++; next }
		/^\.RE/ { depth--; next }
		/^\.TP/ { tp = 1; next }
		tp { tp = 0
		     if (sec != want || depth) next
		     l = $0; sub(/^\.[A-Z]+ */, "", l)
		     gsub(/\\-/, "-", l); gsub(/\\f[BIRP]/, "", l); gsub(/"/, " ", l)
		     print l }' "$PAGE"
}
# Whole tags of SECTION at any depth (for the features under features).
tags_all() {
	awk -v want="$1" '
		/^\.SH/ { sec = $0; sub(/^\.SH +/, "", sec); gsub(/"/, "", sec); next }
		/^\.TP/ { tp = 1; next }
		tp { tp = 0; if (sec != want) next
		     l = $0; sub(/^\.[A-Z]+ */, "", l)
		     gsub(/\\-/, "-", l); gsub(/\\f[BIRP]/, "", l); gsub(/"/, " ", l)
		     print l }' "$PAGE"
}
first_words() { awk '{ print $1 }'; }
# The SYNOPSIS as words.
synopsis=$(awk '/^\.SH/ { s = ($2 == "SYNOPSIS"); next } s' "$PAGE" |
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/^\.[A-Za-z]* *//' -e 's/\\c$//' |
	tr -s ' "[]{}|,.' '\n')

# missing LIST HAVE: the words of LIST not among the lines of HAVE.
missing() {
	local w out=
	for w in $1; do
		grep -qxF -e "$w" <<< "$2" || out+=" $w"
	done
	echo "${out# }"
}
# has_all WHAT LIST HAVE: one check line, naming what HAVE lacks.
has_all() {
	local miss
	miss=$(missing "$2" "$3")
	check "$1${miss:+ (missing: $miss)}" test -z "$miss"
}
nonempty() { # nonempty WHAT LIST: a list that parsed to nothing checks nothing
	check "$1 found ($(grep -c . <<< "$2"))" test -n "$2"
}

usage=$("$LROADM" help) || { check "lroadm help" false; exit "$RET"; }

# COMMAND := { set DEV [ ... ] | enable DEV | ... }: at bracket depth 1,
# the word after "{" or "|" is a command; every other lowercase word is a
# keyword (the words of "set" that open a "[", up to the next "|" at depth
# 1, are its settings, but for the keyword dev before its device: a word
# further in, as none in [ policy { NAME | none } ], is a value).
read -r -d '' parse_usage <<'EOF'
/^COMMAND :=/ { on = 1; sub(/^COMMAND :=/, "") }
/^[A-Z]+ :=/ && !/^COMMAND :=/ { on = 0 }
on { for (i = 1; i <= NF; i++) {
	t = $i
	opened = (prev == "["); prev = t
	if (t == "{" || t == "[") { depth++; if (t == "{") next_cmd = 1; continue }
	if (t == "}" || t == "]") { depth--; continue }
	if (t == "|") { if (depth == 1) next_cmd = 1; continue }
	if (t !~ /^[a-z_]+$/) { next_cmd = 0; continue }
	if (next_cmd) { cmd = t; next_cmd = 0; if (what == "commands") print t; continue }
	if (what == "keywords") print t
	if (what == "settings" && cmd == "set" && opened && t != "dev") print t
} }
EOF
usage_cmds=$(awk -v what=commands "$parse_usage" <<< "$usage")
keywords=$(awk -v what=keywords "$parse_usage" <<< "$usage")
usage_settings=$(awk -v what=settings "$parse_usage" <<< "$usage")
table_cmds=$(sed -n 's/^[[:space:]]*{ "\([a-z_]*\)",[[:space:]]*cmd_[a-z_]*,.*/\1/p' \
	"$TOP/userspace/lroadm.c")
# set's own list, from its error for an unknown setting (no device looked up)
err_settings=$("$LROADM" set lroadm-manpage-nodev lroadm-manpage-bogus 1 2>&1 |
	sed -n 's/.*unknown setting "[^"]*" (\(.*\)).*/\1/p' | tr -s ', ' '\n')
features=$(sed -n 's/^FEATURE := { \(.*\) }$/\1/p' <<< "$usage" | tr -s '| ' '\n')
options=$(sed -n 's/^OPTIONS := { \(.*\) }$/\1/p' <<< "$usage" |
	grep -o -- '-[A-Za-z]\[[a-z]*\]' | sed 's/^\(-[A-Za-z]\)\[\([a-z]*\)\]$/\1 \1\2/')
# and those of the Usage: lines above the first empty one (-b, -force)
usage_options=$(sed '/^$/q' <<< "$usage" |
	grep -o -- '-[A-Za-z]\[[a-z]*\]' | sed 's/^\(-[A-Za-z]\)\[\([a-z]*\)\]$/\1 \1\2/')
counters=$(sed -n 's/^LRO_STAT([A-Z_0-9]*,[[:space:]]*\([a-z_0-9]*\),.*/\1/p' \
	"$TOP/kmod/stats-list.h")

nonempty "commands in lroadm help" "$usage_cmds"
nonempty "commands in lroadm.c's table" "$table_cmds"
nonempty "settings in lroadm help" "$usage_settings"
nonempty "settings in set's error" "$err_settings"
nonempty "features in lroadm help" "$features"
nonempty "options in lroadm help" "$options"
nonempty "options in lroadm help's Usage: lines" "$usage_options"
nonempty "counters in kmod/stats-list.h" "$counters"
check "every option of the usage parsed" eq "$(wc -l <<< "$options")" \
	"$(sed -n 's/^OPTIONS := { \(.*\) }$/\1/p' <<< "$usage" | tr '|' '\n' | grep -c .)"
check "kmod/stats-list.h: one name per LRO_STAT line" \
	eq "$(wc -w <<< "$counters")" "$(grep -c '^LRO_STAT(' "$TOP/kmod/stats-list.h")"
has_all "lroadm help names every command of lroadm.c's table" "$table_cmds" "$usage_cmds"

cmd_tags=$(tags COMMANDS | first_words)
set_tags=$(tags SETTINGS | first_words)
has_all "COMMANDS has an entry for every command" \
	"$(sort -u <<< "$usage_cmds"$'\n'"$table_cmds")" "$cmd_tags"
has_all "SETTINGS has an entry for every setting" \
	"$(sort -u <<< "$usage_settings"$'\n'"$err_settings")" "$set_tags"
has_all "SETTINGS has an entry for every feature" "$features" \
	"$(tags_all SETTINGS | first_words)"
has_all "COUNTERS has an entry for every counter of kmod/stats-list.h" \
	"$counters" "$(tags COUNTERS | first_words)"
has_all "OPTIONS has an entry for every option, short and long" "$options $usage_options" \
	"$(tags OPTIONS | tr -s ' ,' '\n')"
has_all "SYNOPSIS has every keyword of lroadm's usage" "$keywords" "$synopsis"

# "Limits: max_desc 1..65536, ...": each range in its setting's entry.
ranges=$(tr '\n' ' ' <<< "$usage" | grep -o '[a-z_]* [0-9][0-9]*\.\.[0-9][0-9]*')
nonempty "ranges in lroadm help" "$ranges"
bad=
while read -r name range; do
	awk -v name="$name" -v range="$range" '
		/^\.SH/ { s = ($2 == "SETTINGS"); next }
		s && /^\.TP/ { tp = 1; next }
		s && tp { tp = 0; cur = ($2 == name) }
		s && cur && index($0, range) { found = 1 }
		END { exit !found }' "$PAGE" || bad+=" $name:$range"
done < <(grep -o '[a-z_]* [0-9]*\.\.[0-9]*' <<< "$ranges")
check "each range of lroadm's usage is in its setting's entry${bad:+ (missing:$bad)}" \
	test -z "$bad"

exit "$RET"
