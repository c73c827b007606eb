#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall and make dkms-install / make dkms-uninstall
# into the guest's own root (the guest's tmpfs overlay: nothing reaches the
# host), with the defaults (PREFIX=/usr, the running kernel):
#
#  - before: no lro.ko where modprobe looks, modprobe lro fails;
#  - make install-files (install without building: the build is the
#    host's): lro.ko in /lib/modules/$(uname -r)/updates/, lroadm in
#    /usr/sbin, lroadm.8 where man finds it, the bash completion, which
#    completes; modprobe lro loads that lro.ko (its version is lroadm -V's);
#    with lro unloaded, lroadm show loads it (the genl family's alias);
#  - make uninstall: each of those files gone, modprobe lro fails again;
#  - DESTDIR stages the same files under it, and nothing else;
#  - make dkms-install: DKMS builds lro.ko in the guest from the copied
#    sources against the running kernel's build tree and installs it,
#    modprobe loads it; make dkms-uninstall: gone (Debian's kernel only).
#
# depmod over the host's whole module tree takes 80 s in the guest (9p),
# and the test runs it four times: the test mounts a tmpfs over
# /lib/modules/$(uname -r) holding only the kernel's module lists and its
# build tree (lro.ko needs no other module), and puts the real one back at
# the end.
#
# debug-kernel: no (what it runs of kmod, module load and autoload, control.sh
# and module_load.sh run too: 173 lines, none its own, in make coverage)

source "$(dirname "$0")/lib.sh"
need_root

KVER=$(uname -r)
MODDIR=/lib/modules/$KVER
TMP=$(mktemp -d)
defer rm -rf "$TMP"

command -v dkms > /dev/null || { echo "FAIL: no dkms (make deps)"; exit $ksft_fail; }
# The build's version (what lroadm -V and lro.ko say), and the tree's,
# which DKMS builds from (the same after make; not if files changed since).
VERSION=$(modinfo -F version "$BUILD/kmod/lro.ko")
TREE_VERSION=$("$TOP/scripts/version.sh")
check "lro.ko has a version ($VERSION)" test -n "$VERSION"
lro_unload

# The small module tree (see above).
build=$(readlink -f "$MODDIR/build")
check "the kernel's build tree is there ($build)" test -f "$build/Makefile" || exit $RET
mkdir -p "$TMP/moddir"
cp "$MODDIR"/modules.{order,builtin,builtin.modinfo} "$TMP/moddir/"
mount --bind "$TMP/moddir" "$MODDIR" && defer umount "$MODDIR"
# Before the tree goes: what DKMS installed in it, and the module loaded
# from it.
dkms_remove() { dkms remove "lro/$TREE_VERSION" --all > /dev/null 2>&1; }
defer dkms_remove
defer quiet lro_unload
ln -s "$build" "$MODDIR/build"
depmod "$KVER"
check "before: modprobe lro fails" bash -c '! modprobe lro 2> /dev/null'

# mk TARGET...: make in the checkout, its output in $TMP/out (shown when
# the check fails: check's own line must not go there too).
mk() { make -C "$TOP" --no-print-directory BUILD="$BUILD" KERNELRELEASE="$KVER" "$@" > "$TMP/out" 2>&1; }
files=("$MODDIR/updates/lro.ko" /usr/sbin/lroadm /usr/share/man/man8/lroadm.8
       /usr/share/bash-completion/completions/lroadm)
all_there() { local f; for f in "${files[@]}"; do [ -e "$1$f" ] || { echo "    no $1$f"; return 1; }; done; }
none_there() { local f; for f in "${files[@]}"; do [ ! -e "$1$f" ] || { echo "    $1$f"; return 1; }; done; }

# --- make install ------------------------------------------------------------
check "make install-files" mk install-files || cat "$TMP/out"
check "every file installed" all_there ""
check "modprobe lro" modprobe lro
check "it is the installed one: version $VERSION" \
	eq "$(cat /sys/module/lro/version)" "$(modinfo -F version "$MODDIR/updates/lro.ko")"
check "/usr/sbin/lroadm -V names both" \
	eq "$(/usr/sbin/lroadm -V | tr '\n' ' ')" "lroadm $VERSION lro.ko $VERSION "
lro_unload
check "lroadm show autoloads lro (genl family alias)" /usr/sbin/lroadm show
check "... lro is loaded" test -d /sys/module/lro
lro_unload
check "man finds lroadm.8" eq "$(man -w lroadm)" /usr/share/man/man8/lroadm.8
# What the completion offers after "lroadm s".
completes() {
	bash -c 'source /usr/share/bash-completion/bash_completion
		 source /usr/share/bash-completion/completions/lroadm
		 COMP_WORDS=(lroadm s); COMP_CWORD=1; COMP_LINE="lroadm s"; COMP_POINT=8
		 _lroadm lroadm s lroadm; echo "${COMPREPLY[*]}"'
}
check "bash completion: lroadm s<TAB> offers set show stats" eq "$(completes)" "set show stats"

check "make uninstall" mk uninstall || cat "$TMP/out"
check "every file removed" none_there ""
check "after: modprobe lro fails" bash -c '! modprobe lro 2> /dev/null'

# --- DESTDIR -------------------------------------------------------------------
check "make install-files DESTDIR=..." mk install-files DESTDIR="$TMP/stage" ||
	cat "$TMP/out"
check "every file staged" all_there "$TMP/stage"
check "nothing else staged" eq "$(find "$TMP/stage" -type f | wc -l)" ${#files[@]}
check "make uninstall DESTDIR=..." mk uninstall DESTDIR="$TMP/stage" ||
	cat "$TMP/out"
check "no file left in DESTDIR" eq "$(find "$TMP/stage" -type f | wc -l)" 0

# --- DKMS ------------------------------------------------------------------------
#
# Not under the debug kernel: DKMS compiles lro.ko in the guest, which took
# over 20 minutes there (gcc under TCG, with a kernel that checks every
# access), and its code is the same build as above; what the debug kernel
# checks, lro.ko at run time, the part above has loaded and unloaded.
if [ "$LRO_DEBUG_KERNEL" = 1 ]; then
	echo "DKMS: not under the debug kernel"
	exit $RET
fi
check "make dkms-install (builds lro.ko in the guest)" mk dkms-install ||
	tail -n 30 "$TMP/out" /var/lib/dkms/lro/"$TREE_VERSION"/build/make.log
ko=$(modinfo -n lro 2> /dev/null)
check "modprobe finds DKMS's lro.ko ($ko)" eq "$ko" "$MODDIR/updates/dkms/lro.ko"
check "dkms status: installed" grep -q "^lro/$TREE_VERSION, $KVER, .*: installed" <(dkms status lro)
check "modprobe lro" modprobe lro
check "its version is $TREE_VERSION" eq "$(cat /sys/module/lro/version)" "$TREE_VERSION"
lro_unload
check "make dkms-uninstall" mk dkms-uninstall || tail -n 30 "$TMP/out"
check "dkms status: nothing" eq "$(dkms status lro)" ""
check "no lro.ko left" eq "$(find "$MODDIR" -name 'lro*' | wc -l)" 0
check "no sources left in /usr/src" eq "$(ls -d /usr/src/lro-* 2> /dev/null | wc -l)" 0
check "after: modprobe lro fails" bash -c '! modprobe lro 2> /dev/null'
exit $RET
