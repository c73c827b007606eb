#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo (make demo: scripts/demo.sh) as a new user sees it. Runs it,
# shows what it printed, and checks that:
#
#   * it exits 0;
#   * its table has a row for each receiver it compares (no offload,
#     kernel GRO, LRO at its defaults), each with four numbers: Mbit/s, IP
#     receives, segments per packet and CPU per MB;
#   * LRO's IP receives are fewer than no offload's;
#   * its "lroadm descs" snapshot has at least one flow in it (a row of
#     the table, not its header alone);
#   * the picture whose path it prints is there and is a valid PNG.
#
# Tests presentation, not kernel code: skipped under the debug kernel,
# where the demo's streams would take a quarter of an hour.
# debug-kernel: no (what it executes of kmod, datapath.sh and others do)

source "$(dirname "$0")/lib.sh"
need_root
[ "$LRO_DEBUG_KERNEL" != 1 ] || skip "tests the demo's output, not kernel code: Debian's kernel only"

DIR=$(mktemp -d)
defer rm -rf "$DIR"
OUT=$DIR/out

start=$(date +%s)
"$TOP/scripts/demo.sh" "$DIR" > "$OUT" 2>&1
rc=$?
secs=$(($(date +%s) - start))
sed 's/^/    /' "$OUT"
echo "the demo took ${secs}s in this guest"
check "the demo exits 0" eq "$rc" 0

# row NAME: the demo's table row NAME as "MBITS IPRX SEGS CPU", if all
# four are numbers
row() {
	awk -v name="$1" '
		function num(s) { return s ~ /^[0-9]+(\.[0-9]+)?$/ }
		$1 == name && NF == 5 && num($2) && num($3) && num($4) && num($5) {
			print $2, $3, $4, $5; exit }' "$OUT"
}
for r in no-offload kernel-GRO LRO-defaults; do
	check "row $r present, its four numbers parsed ($(row $r))" test -n "$(row $r)"
done
off_rx=$(row no-offload | cut -d' ' -f2)
lro_rx=$(row LRO-defaults | cut -d' ' -f2)
check "LRO's IP receives ($lro_rx) fewer than no offload's ($off_rx)" \
	test -n "$off_rx" -a -n "$lro_rx" -a "${lro_rx:-0}" -lt "${off_rx:-0}"

# The lines of the section on lroadm descs (from its "== " heading to the
# next), and of them the table's rows: a device name, a CPU number, then
# address:port twice.
descs=$(awk '/^== / { on = /lroadm descs/ } on' "$OUT")
flows=$(awk '$2 ~ /^[0-9]+$/ && $3 ~ /:[0-9]+$/ && $4 ~ /:[0-9]+$/' <<< "$descs" | wc -l)
check "the lroadm descs snapshot shows at least one flow ($flows)" ge "$flows" 1

# The demo's last lines name the picture it wrote (into $DIR, as asked).
png=$(grep -o '/[^ ]*\.png$' "$OUT" | tail -n 1)
check "the demo names a picture (${png:-none})" test -n "$png"
# A valid PNG: the signature, every chunk's CRC, IHDR first with a size,
# IEND last, and image data that inflates to exactly the rows IHDR says.
# shellcheck disable=SC2317 # run by check()
png_valid() {
	[ -n "$1" ] && python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
i, chunks, idat = 8, [], b""
while i < len(d):
    n, t = struct.unpack(">I4s", d[i:i + 8])
    body = d[i + 8:i + 8 + n]
    crc, = struct.unpack(">I", d[i + 8 + n:i + 12 + n])
    assert zlib.crc32(t + body) == crc, f"bad CRC in {t}"
    chunks.append(t)
    if t == b"IHDR":
        w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
    if t == b"IDAT":
        idat += body
    i += 12 + n
assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND", f"chunks {chunks}"
assert w > 0 and h > 0 and interlace == 0, f"IHDR {w}x{h} interlace {interlace}"
bits = depth * {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
raw = zlib.decompress(idat)
assert len(raw) == h * (1 + (w * bits + 7) // 8), "image data does not fill the image"
print(f"    {sys.argv[1]}: {w}x{h} PNG, {len(d)} bytes")
EOF
}
check "the picture is there and is a valid PNG" png_valid "$png"
exit "$RET"
