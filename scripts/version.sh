#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# version.sh: the version of this tree, which lro.ko (MODULE_VERSION,
# /sys/module/lro/version) and lroadm -V report. In a git checkout: the
# release in VERSION, "+g" and the commit, "-dirty" when files differ from
# it ("0.1+g1a2b3c4d5e6f-dirty"). Elsewhere (a release tarball, the DKMS
# source tree, where make dkms-install writes the full string into
# VERSION): VERSION as it is.
top=$(cd "$(dirname "$0")/.." && pwd)
v=$(cat "$top/VERSION") || exit 1
if [ -e "$top/.git" ] && h=$(git -C "$top" rev-parse --short=12 HEAD 2>/dev/null); then
	v=$v+g$h
	# (without refreshing the index: no index.lock beside a git commit)
	git --no-optional-locks -C "$top" diff --quiet HEAD -- 2>/dev/null || v=$v-dirty
fi
echo "$v"
