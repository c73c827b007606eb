#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh [--kdir | --env | --dir]
#
# Builds (once) the debug kernel that 'make check KERNEL=debug' boots:
# Debian's linux-source-6.12 configured from nothing: allnoconfig with
# exactly the options of scripts/debug-kernel.config turned on (the guest's
# devices, BPF, KASAN, lockdep, kmemleak, gcov, ...). The tree,
# built in place, is also the KDIR lro.ko is built against.
#
# The build lives outside the checkout, in $DEBUG_KERNEL_CACHE/<key>/
# (default /var/cache/lro-debug-kernel), where <key> hashes the fragment,
# the linux-source-6.12 package version and the compiler and pahole
# versions: a second call returns at once, a changed fragment builds anew.
# The two most recently used builds are kept (DEBUG_KERNEL_KEEP).
#
#   (no option)  build if needed; progress on stdout, full log in build.log
#   --kdir       print the tree's path (whether built or not)
#   --dir        print the cache directory for the current key
#   --env        print the built kernel's shell variables (DEBUG_KDIR,
#                DEBUG_KVER, DEBUG_VMLINUZ, DEBUG_MODULES, ...); fails when
#                it is not built yet
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
fragment=$top/scripts/debug-kernel.config
tarball=/usr/src/linux-source-6.12.tar.xz
srcpkg=linux-source-6.12
cache=${DEBUG_KERNEL_CACHE:-/var/cache/lro-debug-kernel}
keep=${DEBUG_KERNEL_KEEP:-2}
# Compiler flags for the kernel's own objects (not for modules built
# against the tree later). Variable tracking makes DWARF location lists for
# local variables: neither BTF nor KASAN's reports (stack traces, file and
# line) use them, and they cost about a fifth of every compile.
kcflags=-fno-var-tracking

die() { echo "debug-kernel: $*" >&2; exit 1; }
say() { echo "debug-kernel: $*"; }
mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

[ -r "$fragment" ] || die "missing $fragment"
pkgver=$(dpkg-query -W -f='${Version}' "$srcpkg" 2>/dev/null) ||
	die "package $srcpkg is not installed (run 'make deps')"
[ -r "$tarball" ] || die "missing $tarball (reinstall $srcpkg)"

key=$({
	cat "$fragment"
	echo "$srcpkg $pkgver"
	echo "KCFLAGS=$kcflags"
	gcc --version 2>/dev/null | head -n1
	pahole --version 2>/dev/null
} | sha256sum | cut -c1-16)
dir=$cache/$key
tree=$dir/linux

case ${1:-} in
--kdir) echo "$tree"; exit 0 ;;
--dir) echo "$dir"; exit 0 ;;
--env)
	[ -s "$dir/kernel.env" ] ||
		die "not built for the current scripts/debug-kernel.config; run 'make debug-kernel'"
	touch "$dir/last-used"
	cat "$dir/kernel.env"
	exit 0
	;;
"") ;;
*) die "usage: debug-kernel.sh [--kdir | --env | --dir]" ;;
esac

if [ -s "$dir/kernel.env" ]; then
	touch "$dir/last-used"
	# shellcheck disable=SC1091
	. "$dir/kernel.env"
	say "$DEBUG_KVER is built ($dir)"
	exit 0
fi

for t in gcc make bc flex bison pahole xz; do
	command -v $t >/dev/null || die "$t missing (run 'make deps')"
done

mkdir -p "$dir" || die "cannot create $dir (DEBUG_KERNEL_CACHE chooses another place)"
exec 9> "$dir/lock"
if ! flock -n 9; then
	say "another build of $dir is running, waiting for it"
	flock 9
	if [ -s "$dir/kernel.env" ]; then
		. "$dir/kernel.env"
		say "$DEBUG_KVER is built ($dir)"
		exit 0
	fi
fi

# The kernel's make must not see this project's make variables
# (KERNEL=debug, V=1, T=..., a jobserver) nor a toolchain choice from the
# environment: the tree is built with the gcc its cache key names.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES KDIR BUILD KERNEL O M V W C \
	ARCH CROSS_COMPILE LLVM KBUILD_OUTPUT KCFLAGS KBUILD_EXTMOD
jobs=$(nproc)
log=$dir/build.log
kmake() { make -C "$tree" -j"$jobs" KCFLAGS="$kcflags" "$@"; }
start=$(date +%s)
say "building a debug kernel ($srcpkg $pkgver + scripts/debug-kernel.config) in $dir"

# 1. Source: a fresh copy of Debian's tarball (the build is in place).
if [ ! -f "$dir/.stamp-extract" ]; then
	say "[1/6] extracting $tarball"
	rm -rf "$tree" "$dir/extract"
	mkdir -p "$dir/extract"
	tar -xJf "$tarball" -C "$dir/extract"
	mv "$dir/extract/linux-source-6.12" "$tree"
	rmdir "$dir/extract"
	touch "$dir/.stamp-extract"
fi

# 2. Configuration: allnoconfig with the fragment's lines forced
# (KCONFIG_ALLCONFIG), then check that every line of the fragment survived
# (an unmet dependency drops an option silently).
if [ ! -f "$dir/.stamp-config" ]; then
	say "[2/6] make allnoconfig KCONFIG_ALLCONFIG=scripts/debug-kernel.config"
	kmake allnoconfig KCONFIG_ALLCONFIG="$fragment" > "$log" 2>&1 ||
		{ tail -n 30 "$log"; die "allnoconfig failed"; }
	cp "$fragment" "$dir/debug-kernel.config"
fi
bad=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -e "$line" "$tree/.config" ||
			bad+=("$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$tree/.config" || echo "${line%%=*} not present"))")
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		! grep -q "^$opt=" "$tree/.config" || bad+=("$line (got: $(grep "^$opt=" "$tree/.config"))")
		;;
	esac
done < "$fragment"
if [ ${#bad[@]} -gt 0 ]; then
	rm -f "$dir/.stamp-config"
	echo "debug-kernel: allnoconfig did not keep these lines of scripts/debug-kernel.config" >&2
	echo "debug-kernel: (a dependency is missing or the option does not exist):" >&2
	printf 'debug-kernel:   %s\n' "${bad[@]}" >&2
	exit 1
fi
touch "$dir/.stamp-config"
say "      all $(grep -c '^CONFIG_\|^# CONFIG_' "$fragment") options of the fragment are in .config ($(grep -c '=y$' "$tree/.config") options on)"

# 3. Build: bzImage and vmlinux (with BTF: module BTF is split against
# it); the configuration builds no module of its own. Quiet kbuild output goes to
# build.log; a progress line is printed every minute.
if [ ! -f "$dir/.stamp-build" ]; then
	say "[3/6] make -j$jobs bzImage modules (about 14 minutes on 2 idle cores; log: $log)"
	bstart=$(date +%s)
	(
		TIMEFORMAT='debug-kernel: cpu %U user %S sys'
		time kmake bzImage modules
	) >> "$log" 2>&1 &
	pid=$!
	trap 'kill $pid 2>/dev/null' EXIT INT TERM
	while kill -0 $pid 2>/dev/null; do
		for _ in $(seq 60); do
			sleep 1
			kill -0 $pid 2>/dev/null || break
		done
		kill -0 $pid 2>/dev/null || break
		n=$(grep -c '^  CC ' "$log" || true)
		say "      $(mmss $(($(date +%s) - bstart))): $n files compiled, at: $(tail -n1 "$log" | cut -c1-70)"
	done
	rc=0
	wait $pid || rc=$?
	trap - EXIT INT TERM
	if [ $rc -ne 0 ]; then
		grep -E -B2 -A8 'error|Error' "$log" | tail -n 40 >&2 || tail -n 40 "$log" >&2
		die "kernel build failed (exit $rc); full log: $log"
	fi
	echo $(($(date +%s) - bstart)) > "$dir/build-seconds"
	sed -n 's/^debug-kernel: cpu //p' "$log" | tail -n1 > "$dir/build-cpu"
	touch "$dir/.stamp-build"
fi
kver=$(cat "$tree/include/config/kernel.release")
cpu=$(cat "$dir/build-cpu" 2>/dev/null || true)
say "      built $kver in $(mmss "$(cat "$dir/build-seconds")")${cpu:+ (cpu: $cpu)}"

# 4. The modules tree the guest runner indexes with depmod (modules.builtin
# and the few =m modules), and what out-of-tree builds need.
if [ ! -f "$dir/.stamp-install" ]; then
	say "[4/6] make modules_prepare modules_install INSTALL_MOD_PATH=$dir/modules"
	rm -rf "$dir/modules"
	{
		kmake modules_prepare &&
		make -C "$tree" modules_install INSTALL_MOD_PATH="$dir/modules" INSTALL_MOD_STRIP=1 &&
		# Everything is built in: no kernel/ to install, but
		# scripts/vmrun's module index links to it.
		mkdir -p "$dir/modules/lib/modules/$(cat "$tree/include/config/kernel.release")/kernel"
	} >> "$log" 2>&1 || { tail -n 30 "$log"; die "modules_install failed"; }
	touch "$dir/.stamp-install"
fi

# 5. Self-check: vmlinux has BTF and an out-of-tree module built against
# the tree gets its own .BTF section.
say "[5/6] checking vmlinux and out-of-tree module BTF"
# Not "readelf | grep -q": grep stops at the first match, readelf dies of
# SIGPIPE, and pipefail fails the check on a file that has the section.
has_btf() { readelf -S "$1" | grep -c '\.BTF' > /dev/null; }
has_btf "$tree/vmlinux" || die "$tree/vmlinux has no .BTF section"
probe=$dir/btf-probe
rm -rf "$probe"
mkdir -p "$probe"
cat > "$probe/probe.c" <<'EOT'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
struct btf_probe { int a; long b; };
static struct btf_probe probe;
static int __init probe_init(void) { return probe.a; }
module_init(probe_init);
MODULE_LICENSE("GPL");
EOT
echo 'obj-m := probe.o' > "$probe/Kbuild"
make -C "$tree" M="$probe" modules >> "$log" 2>&1 || { tail -n 30 "$log"; die "probe module build failed"; }
has_btf "$probe/probe.ko" ||
	die "a module built with 'make -C $tree M=...' has no .BTF section"
rm -rf "$probe"

# 6. Done: the variables the Makefile and scripts/vmrun use.
say "[6/6] writing $dir/kernel.env"
cat > "$dir/kernel.env.tmp" <<EOT
DEBUG_KERNEL_DIR=$dir
DEBUG_KDIR=$tree
DEBUG_KVER=$kver
DEBUG_VMLINUZ=$tree/arch/x86/boot/bzImage
DEBUG_MODULES=$dir/modules/lib/modules/$kver
DEBUG_BUILD_SECONDS=$(cat "$dir/build-seconds")
EOT
mv "$dir/kernel.env.tmp" "$dir/kernel.env"
touch "$dir/last-used"
say "$kver ready after $(mmss $(($(date +%s) - start))) ($(du -sh "$dir" | cut -f1) in $dir)"

# Keep the $keep most recently used builds (each is about 5 GB); a build
# that never finished counts as used when it started.
n=0
for old in $(for d in "$cache"/*/lock; do
		d=${d%/lock}
		stamp=$d/last-used
		[ -e "$stamp" ] || stamp=$d/lock
		echo "$(stat -c %Y "$stamp") $d"
	done | sort -rn | cut -d' ' -f2-); do
	n=$((n + 1))
	[ $n -gt "$keep" ] || continue
	[ "$old" != "$dir" ] || continue
	(
		flock -n 9 || exit 0
		say "removing the older build $old"
		rm -rf "$old"
	) 9>> "$old/lock"
done
