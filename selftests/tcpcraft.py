#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Send hand-made TCP segments over IPv4 or IPv6 out of an interface (AF_PACKET).

Used by the selftests to put exactly known segments in front of LRO: a
flow paused mid-aggregate, segments without PSH, several interleaved flows.
The receiver needs no socket: LRO sits below IP.

  tcpcraft.py --dev veth-cli --dst-mac MAC --src 10.77.0.1 --dst 10.77.0.2 \
              --flows 3 --segs 4 --mss 1000 [--psh-last] [--ts] [--fin] \
              [--gap-ms MS] [--qdisc-bypass]

IPv6 when the addresses are (--src fd77::1 --dst fd77::2): a fixed
header, no extension headers, hop limit 64, flow label 0.
"""
import argparse
import socket
import struct
import time


SOL_PACKET = 263  # linux/socket.h
PACKET_QDISC_BYPASS = 20  # linux/if_packet.h


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def segment(a, sport, seq, payload, flags, ip_id):
    opts = b""
    if a.ts:
        opts = struct.pack("!BBBBII", 1, 1, 8, 10, 1000, 2000)
    doff = (20 + len(opts)) // 4
    tcp = struct.pack("!HHIIBBHHH", sport, a.dport, seq, a.ack, doff << 4,
                      flags, 502, 0, 0) + opts + payload
    if a.v6:
        src = socket.inet_pton(socket.AF_INET6, a.src)
        dst = socket.inet_pton(socket.AF_INET6, a.dst)
        pseudo = src + dst + struct.pack("!IxxxB", len(tcp), 6)
    else:
        src = socket.inet_aton(a.src)
        dst = socket.inet_aton(a.dst)
        pseudo = src + dst + struct.pack("!BBH", 0, 6, len(tcp))
    tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
    if a.v6:
        return struct.pack("!IHBB16s16s", 6 << 28, len(tcp), 6, 64,
                           src, dst) + tcp
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), ip_id, 0x4000,
                     64, 6, 0, src, dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return ip + tcp


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dev", required=True)
    p.add_argument("--dst-mac", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--sport", type=int, default=40000)
    p.add_argument("--dport", type=int, default=9)
    p.add_argument("--flows", type=int, default=1)
    p.add_argument("--segs", type=int, default=4)
    p.add_argument("--mss", type=int, default=1000)
    p.add_argument("--seq", type=int, default=1000)
    p.add_argument("--ack", type=int, default=1)
    p.add_argument("--ts", action="store_true", help="timestamp option")
    p.add_argument("--psh-last", action="store_true")
    p.add_argument("--fin", action="store_true", help="end with a FIN")
    p.add_argument("--gap-ms", type=float, default=0,
                   help="pause between rounds of segments")
    p.add_argument("--qdisc-bypass", action="store_true",
                   help="skip the device's qdisc (one that shapes other "
                   "traffic, and would refuse frames once full)")
    a = p.parse_args()
    a.v6 = ":" in a.dst

    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    if a.qdisc_bypass:
        s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
    s.bind((a.dev, 0))
    src_mac = open("/sys/class/net/%s/address" % a.dev).read().strip()
    eth = (bytes.fromhex(a.dst_mac.replace(":", "")) +
           bytes.fromhex(src_mac.replace(":", "")) +
           (b"\x86\xdd" if a.v6 else b"\x08\x00"))
    ACK, PSH, FIN = 0x10, 0x08, 0x01
    # Without --gap-ms every frame is built before the first is sent: the
    # segments must reach LRO within its hold time even where Python is
    # slow (the debug kernel). With it, each round is built just before it
    # goes: the gap separates rounds anyway, and building a long paced
    # train first (30,000 rounds in the policy test) took a minute there.
    def round_frames(i):
        frames = []
        for f in range(a.flows):
            flags = ACK
            if a.psh_last and i == a.segs - 1:
                flags |= PSH
            payload = bytes((a.seq + i * a.mss + k) & 0xFF
                            for k in range(a.mss))
            frames.append(eth + segment(a, a.sport + f, a.seq + i * a.mss,
                                        payload, flags, i + 1))
        return frames

    rounds = (round_frames(i) for i in range(a.segs))
    if not a.gap_ms:
        rounds = list(rounds)
    fins = []
    if a.fin:
        fins = [eth + segment(a, a.sport + f, a.seq + a.segs * a.mss,
                              b"", ACK | FIN, a.segs + 1)
                for f in range(a.flows)]
    for i, frames in enumerate(rounds):
        for frame in frames:
            s.send(frame)
        if a.gap_ms and i < a.segs - 1:
            time.sleep(a.gap_ms / 1000)
    for frame in fins:
        s.send(frame)


if __name__ == "__main__":
    main()
