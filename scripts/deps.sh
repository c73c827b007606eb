#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything this project needs on a Debian 12 (bookworm) machine,
# from Debian's own archive only. Idempotent: when every package is already
# present it only checks and returns in about a second.
set -euo pipefail

BACKPORTS=/etc/apt/sources.list.d/bookworm-backports.sources

# From bookworm-backports: the 6.12 target kernel, its build tree (with a
# BTF vmlinux for module BTF), the kernel source (checkpatch, debug kernel),
# and a BPF toolchain new enough for open-coded iterators.
BPO_PKGS="linux-image-amd64 linux-headers-amd64 linux-source-6.12
	bpftool libbpf-dev clang-19 llvm-19"

# From bookworm itself.
PKGS="build-essential pkg-config qemu-system-x86 busybox-static dwarves
	libnl-3-dev libnl-genl-3-dev libelf-dev zlib1g-dev
	iproute2 ethtool iperf3 socat tcpdump nftables sparse xz-utils cpio kmod
	bc flex bison libssl-dev python3 gnuplot-nox
	jq python3-yaml python3-jsonschema man-db dkms bash-completion"

missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed$' || echo "$p"
	done
}

if [ "$(id -u)" != 0 ]; then
	# shellcheck disable=SC2086
	[ -z "$(missing $BPO_PKGS $PKGS)" ] && exit 0
	echo "deps: packages missing; run 'make deps' as root" >&2
	exit 1
fi

if [ ! -f "$BACKPORTS" ]; then
	uris=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null |
	       grep -v security | head -n1)
	: "${uris:=http://deb.debian.org/debian}"
	cat > "$BACKPORTS" <<EOT
Types: deb
URIs: $uris
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	rm -f /var/lib/apt/lists/lock
	need_update=1
fi

# shellcheck disable=SC2086
todo_bpo=$(missing $BPO_PKGS)
# shellcheck disable=SC2086
todo=$(missing $PKGS)
if [ -z "$todo_bpo$todo" ]; then
	echo "deps: all packages present"
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
if [ -n "${need_update:-}" ] || ! apt-cache policy linux-headers-amd64 | grep -q bookworm-backports; then
	apt-get update -qq
fi
# shellcheck disable=SC2086
[ -z "$todo" ] || apt-get install -y -qq --no-install-recommends $todo
# shellcheck disable=SC2086
[ -z "$todo_bpo" ] || apt-get install -y -qq --no-install-recommends -t bookworm-backports $todo_bpo
echo "deps: done"
