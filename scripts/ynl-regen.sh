#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ynl-regen.sh [--check]
#
# Regenerates the files made from the netlink spec
# Documentation/netlink/specs/lro.yaml with the kernel's own YNL generator
# (tools/net/ynl/ynl-gen-c.py), the way the kernel's ynl-regen.sh does:
#
#   uapi/linux/lro.h        --mode uapi   --header
#   kmod/netlink-gen.h      --mode kernel --header
#   kmod/netlink-gen.c      --mode kernel --source
#   Documentation/netlink/lro.rst   (ynl-gen-rst.py: the family's reference,
#                                    as the kernel's documentation has one)
#   the list of settings, and where the documents list them:
#   kmod/settings-gen.h, userspace/settings-gen.h, userspace/stats-gen.h,
#   userspace/lroadm.8's blocks, Documentation/control.md's sysfs table
#                                   (scripts/settings-gen.py)
#
# The generator, and the genetlink schema it validates the spec against, are
# extracted once from Debian's kernel source tarball ($LINUX_SRC_TAR,
# /usr/src/linux-source-6.12.tar.xz from the linux-source-6.12 package) into
# build/ynl/, which is laid out like a kernel tree so the generator finds
# the schema and writes the spec's path relative to it.
#
# One local change to the schema: commands may carry the flag
# uns-admin-perm (GENL_UNS_ADMIN_PERM: CAP_NET_ADMIN in the user namespace
# owning the request's network namespace). The kernel's genetlink-legacy
# schema allows it; the plain genetlink schema of 6.12 only lists
# admin-perm (CAP_NET_ADMIN in the initial user namespace), which is wrong
# for a per-netns device setting.
#
# --check regenerates into a temporary directory and fails if any committed
# file differs from what the spec gives.
#
# Needs python3 with the yaml and jsonschema modules (Debian:
# python3-yaml python3-jsonschema).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
LINUX_SRC_TAR=${LINUX_SRC_TAR:-/usr/src/linux-source-6.12.tar.xz}
PYTHON=${PYTHON:-python3}
# The same for both kernels (make KERNEL=debug sets BUILD to build/debug).
ynl=$top/build/ynl
spec=Documentation/netlink/specs/lro.yaml
gen=$ynl/tools/net/ynl/ynl-gen-c.py
schema=$ynl/Documentation/netlink/genetlink.yaml

die() { echo "ynl-regen: $*" >&2; exit 1; }

check=
case "${1:-}" in
--check) check=1 ;;
"") ;;
*) die "usage: ynl-regen.sh [--check]" ;;
esac

"$PYTHON" -c 'import yaml, jsonschema' 2>/dev/null ||
	die "$PYTHON lacks the yaml or jsonschema module (apt-get install python3-yaml python3-jsonschema)"

if [ ! -f "$gen" ] || [ ! -f "$schema" ]; then
	[ -r "$LINUX_SRC_TAR" ] ||
		die "no kernel source tarball at $LINUX_SRC_TAR (apt-get install linux-source-6.12)"
	echo "  EXTRACT tools/net/ynl from $LINUX_SRC_TAR"
	rm -rf "$ynl"
	mkdir -p "$ynl"
	tar -xJf "$LINUX_SRC_TAR" -C "$ynl" --strip-components=1 \
		--wildcards '*/tools/net/ynl/' '*/Documentation/netlink/genetlink.yaml'
	sed -i 's/^\( *enum: \[ admin-perm\) \]$/\1, uns-admin-perm ]/' "$schema"
	grep -q 'enum: \[ admin-perm, uns-admin-perm \]' "$schema" ||
		die "could not add uns-admin-perm to $schema"
	# The generator finds the top of the tree by its MAINTAINERS file.
	: > "$ynl/MAINTAINERS"
fi
mkdir -p "$ynl/$(dirname "$spec")"
cp "$top/$spec" "$ynl/$spec"

out=$top
if [ -n "$check" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	mkdir -p "$out/uapi/linux" "$out/kmod" "$out/Documentation/netlink"
fi

regen() { # regen MODE header|source FILE
	[ -n "$check" ] || echo "  GEN     $1 $2	$3"
	"$PYTHON" "$gen" --cmp-out --mode "$1" "--$2" --spec "$ynl/$spec" -o "$out/$3"
}
regen uapi header uapi/linux/lro.h
regen kernel header kmod/netlink-gen.h
regen kernel source kmod/netlink-gen.c
[ -n "$check" ] || echo "  GEN     rst	Documentation/netlink/lro.rst"
"$PYTHON" "$ynl/tools/net/ynl/ynl-gen-rst.py" -i "$ynl/$spec" \
	-o "$out/Documentation/netlink/lro.rst"

if [ -n "$check" ]; then
	rc=0
	"$PYTHON" "$top/scripts/settings-gen.py" "$top/$spec" "$top" --check || rc=1
	for f in uapi/linux/lro.h kmod/netlink-gen.h kmod/netlink-gen.c \
		 Documentation/netlink/lro.rst; do
		if ! cmp -s "$out/$f" "$top/$f"; then
			echo "ynl-regen: $f is not what $spec generates (run 'make generate')" >&2
			diff -u "$top/$f" "$out/$f" >&2 || true
			rc=1
		fi
	done
	[ $rc -eq 0 ] && echo "ynl-regen: generated files are up to date"
	exit $rc
fi
"$PYTHON" "$top/scripts/settings-gen.py" "$top/$spec" "$top"
