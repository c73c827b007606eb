# SPDX-License-Identifier: GPL-2.0
#
# lib.sh's assertion part: what a check compares (exit status and stderr,
# output, JSON fields, numbers). Sourced by lib.sh.

# has_line REGEX TEXT: a line of TEXT matches REGEX (ERE), as grep -Eq
# would say, without starting a process
has_line() {
	local line
	while IFS= read -r line; do
		[[ $line =~ $1 ]] && return 0
	done <<< "$2"
	return 1
}

# exits_with STATUS REGEX COMMAND...: COMMAND exits with STATUS and a line
# of its stderr matches REGEX (ERE). fails_with: lroadm refuses COMMAND
# itself, status 1 (its grammar, a value, a device it cannot find);
# refused_with: the kernel refuses it, or cannot be reached, status 2.
exits_with() {
	local status=$1 pattern=$2 rc err
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq "$status" ] && has_line "$pattern" "$err" && return 0
	echo "    exit status $rc (want $status), stderr:"
	[ -z "$err" ] || printf '    | %s\n' "${err//$'\n'/$'\n'    | }"
	echo "    wanted: $pattern"
	return 1
}
fails_with() { exits_with 1 "$@"; }
refused_with() { exits_with 2 "$@"; }

# out_is EXPECTED CMD...: CMD succeeds and prints exactly EXPECTED
out_is() {
	local expected=$1 out
	shift
	out=$("$@" 2>&1) || { echo "    exit status $? from: $*"; echo "$out" | sed 's/^/    | /'; return 1; }
	[ "$out" = "$expected" ] && return 0
	echo "    expected: $expected"
	echo "$out" | sed 's/^/    got:      /'
	return 1
}

# output_says OUTPUT TEXT [NOTE]: OUTPUT (of bpftool, say) holds TEXT; if
# not, says so (with NOTE) and shows OUTPUT's last lines but the verifier's
# lines of BPF source (";")
output_says() {
	grep -qF -- "$2" <<< "$1" && return 0
	echo "    (${3:+$3, }no \"$2\" in:)"
	grep -v '^;' <<< "$1" | tail -n 5 | sed 's/^/    /'
	return 1
}

# same A B: two captured outputs are equal
same() {
	[ "$1" = "$2" ] && return 0
	echo "    before: $1"
	echo "    after:  $2"
	return 1
}

# jq_is EXPECTED FILTER CMD...: CMD's JSON output, through jq -c FILTER
jq_is() {
	local expected=$1 filter=$2 out
	shift 2
	out=$("$@" | jq -c "$filter" 2>&1)
	[ "$out" = "$expected" ] && return 0
	echo "    jq '$filter': expected $expected, got $out"
	return 1
}

# Integer comparisons that print what they compared when they fail.
fails() { ! "$@" 2>/dev/null; } # fails COMMAND...: it fails (stderr hidden)
ge() { [ "$1" -ge "$2" ] || { echo "    ($1 < $2)"; return 1; }; }
le() { [ "$1" -le "$2" ] || { echo "    ($1 > $2)"; return 1; }; }
eq() { [ "$1" = "$2" ] || { echo "    ($1 != $2)"; return 1; }; }
