#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitrd.sh KVER OUT.cpio.gz
#
# A minimal initramfs for the test guest: static busybox plus the modules
# needed to mount the host's root over 9p and stack a tmpfs overlay on it.
# Its /init hands over to scripts/vm-init inside the host root.
# MODDIR is the kernel's module tree (default /lib/modules/KVER); modules
# it lacks are taken to be built in.
set -euo pipefail

kver=$1
out=$2
moddir=${MODDIR:-/lib/modules/$kver}
mods="netfs 9pnet 9pnet_virtio 9p overlay"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp"/{bin,dev,proc,sys,newroot,host,rw,lib/modules}
cp /bin/busybox "$tmp/bin/busybox"
for a in sh mount mkdir insmod switch_root poweroff cat echo sleep; do
	ln -s busybox "$tmp/bin/$a"
done

for m in $mods; do
	f=$(find "$moddir/kernel" -name "$m.ko*" 2>/dev/null | head -n1 || true)
	# Built into a kernel (the debug kernel has them all built in).
	[ -n "$f" ] || continue
	case $f in
	*.xz) xz -dc "$f" > "$tmp/lib/modules/$m.ko" ;;
	*.zst) zstd -qdc "$f" > "$tmp/lib/modules/$m.ko" ;;
	*) cp "$f" "$tmp/lib/modules/$m.ko" ;;
	esac
done

cat > "$tmp/init" <<'EOT'
#!/bin/sh
# Stage 1: mount the host root read-only over 9p, put a tmpfs overlay on
# top so the guest can write anywhere, and switch into it.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in netfs 9pnet 9pnet_virtio 9p overlay; do
	[ -f /lib/modules/$m.ko ] && insmod /lib/modules/$m.ko
done
fail() { echo "vm-init: $*"; poweroff -f; }
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /host ||
	fail "cannot mount host root"
mount -t tmpfs -o size=75% tmpfs /rw || fail "cannot mount tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work /newroot ||
	fail "cannot mount overlay"
mkdir -p /newroot/run/vm
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 vmout /newroot/run/vm ||
	fail "cannot mount result share"
init=$(cat /newroot/run/vm/init-path)
exec switch_root /newroot /bin/bash "$init"
EOT
chmod +x "$tmp/init"

(cd "$tmp" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
