#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send one hand-made request to the lro generic netlink family.

    lro_nl.py COMMAND [ATTR=TYPE:VALUE ...]
    lro_nl.py --serve
    lro_nl.py --dump COMMAND

COMMAND is an operation of uapi/linux/lro.h (dev-get, dev-set, ...); each
ATTR is a name of the dev attribute set (ifindex, max-aggr, ...) or a bare
attribute number, TYPE one of u8, u32, str. Prints what the kernel answered,
on one line:

    error 22 msg "Unknown attribute type" offset 28

("error 0" for success). lroadm only sends well-formed requests; this sends
anything, to test the kernel's strict policy: unknown attribute numbers,
output-only attributes, ifindexes that do not exist.

--serve reads requests, one per line (COMMAND [ATTR=TYPE:VALUE ...], as
a shell would split it), and prints each answer's line: one python for
every request of a test (selftests/lib.sh: server_start).

--dump sends a dump request and reads it with 4 KB buffers, so the kernel
fills small reply skbs and the dump has to resume many times; it prints
"replies N" (the number of reply datagrams) and then "IFINDEX IFNAME" for
each message.

Python standard library only; the numbers come from uapi/linux/lro.h.
"""

import os
import re
import shlex
import socket
import struct
import sys

NETLINK_GENERIC = 16
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLM_F_REQUEST = 0x1
NLM_F_ACK = 0x4
NLM_F_CAPPED = 0x100
NLM_F_ACK_TLVS = 0x200
NLMSG_ERROR = 0x2
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2

UAPI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                    "..", "uapi", "linux", "lro.h")


def uapi_enums():
    """NAME -> value for every enumerator of the uapi header."""
    values = {}
    text = open(UAPI).read()
    for body in re.findall(r"enum[^{]*\{([^}]*)\}", text):
        nxt = 0
        for line in body.splitlines():
            m = re.match(r"\s*(\w+)(?:\s*=\s*([^,]+))?,", line)
            if not m:
                continue
            name, val = m.groups()
            if val is not None:
                val = val.strip()
                nxt = values[val] if val in values else int(val, 0)
            values[name] = nxt
            nxt += 1
    return values


def attr(atype, payload):
    hdr = struct.pack("=HH", 4 + len(payload), atype)
    return hdr + payload + b"\0" * ((4 - len(payload) % 4) % 4)


def parse_attrs(data):
    out = {}
    while len(data) >= 4:
        alen, atype = struct.unpack_from("=HH", data)
        if alen < 4:
            break
        out[atype & 0x3fff] = data[4:alen]
        data = data[(alen + 3) & ~3:]
    return out


class Genl:
    def __init__(self):
        self.sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.sk.bind((0, 0))
        self.sk.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sk.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.sk.settimeout(30)
        self.seq = 0

    def request(self, family, cmd, attrs, version=1):
        """Returns (errno, extack message, extack offset, reply attrs)."""
        self.seq += 1
        body = struct.pack("=BBH", cmd, version, 0) + b"".join(attrs)
        msg = struct.pack("=IHHII", 16 + len(body), family,
                          NLM_F_REQUEST | NLM_F_ACK, self.seq, 0) + body
        self.sk.send(msg)
        reply = {}
        while True:
            data = self.sk.recv(65536)
            while len(data) >= 16:
                mlen, mtype, mflags, _, _ = struct.unpack_from("=IHHII", data)
                m, data = data[:mlen], data[(mlen + 3) & ~3:]
                if mtype != NLMSG_ERROR:
                    reply = parse_attrs(m[20:])
                    continue
                err = -struct.unpack_from("=i", m, 16)[0]
                text, offs = "", None
                if mflags & NLM_F_ACK_TLVS:
                    # error code, then the request: capped to its header,
                    # or whole
                    skip = 4 + 16
                    if not mflags & NLM_F_CAPPED:
                        skip += struct.unpack_from("=I", m, 20)[0] - 16
                    tlvs = parse_attrs(m[16 + ((skip + 3) & ~3):])
                    if NLMSGERR_ATTR_MSG in tlvs:
                        text = tlvs[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
                    if NLMSGERR_ATTR_OFFS in tlvs:
                        offs = struct.unpack("=I", tlvs[NLMSGERR_ATTR_OFFS])[0]
                return err, text, offs, reply

    def family_id(self, name):
        err, text, _, reply = self.request(
            GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
            [attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0")], version=2)
        if err:
            sys.exit(f"lro_nl.py: no genetlink family {name}: {os.strerror(err)}")
        return struct.unpack("=H", reply[CTRL_ATTR_FAMILY_ID][:2])[0]


NLM_F_DUMP = 0x300
NLMSG_DONE = 0x3
LRO_A_DEV_IFNAME = 2


def dump(nl, family, cmd):
    """Print a dump read in 4 KB datagrams."""
    nl.seq += 1
    body = struct.pack("=BBH", cmd, 1, 0)
    nl.sk.send(struct.pack("=IHHII", 16 + len(body), family,
                           NLM_F_REQUEST | NLM_F_DUMP, nl.seq, 0) + body)
    replies, lines = 0, []
    while True:
        data, _, flags, _ = nl.sk.recvmsg(4096)
        if flags & socket.MSG_TRUNC:
            sys.exit("lro_nl.py: dump reply larger than 4 KB")
        replies += 1
        while len(data) >= 16:
            mlen, mtype, _, _, _ = struct.unpack_from("=IHHII", data)
            m, data = data[:mlen], data[(mlen + 3) & ~3:]
            if mtype == NLMSG_DONE:
                print(f"replies {replies}")
                print("\n".join(lines))
                return
            if mtype == NLMSG_ERROR:
                sys.exit(f"lro_nl.py: dump failed: {os.strerror(-struct.unpack_from('=i', m, 16)[0])}")
            a = parse_attrs(m[20:])
            ifindex = struct.unpack("=I", a[1])[0]
            name = a[LRO_A_DEV_IFNAME].rstrip(b"\0").decode()
            lines.append(f"{ifindex} {name}")


def request(enums, args):
    """Send the request of args (COMMAND ATTR=TYPE:VALUE...); its line."""
    cmd = enums.get("LRO_CMD_" + args[0].upper().replace("-", "_"))
    if cmd is None:
        sys.exit(f"lro_nl.py: unknown command {args[0]}")
    attrs = []
    for arg in args[1:]:
        name, _, tv = arg.partition("=")
        atype_s, _, value = tv.partition(":")
        if name.isdigit():
            num = int(name)
        else:
            num = enums["LRO_A_DEV_" + name.upper().replace("-", "_")]
        if atype_s == "u8":
            payload = struct.pack("=B", int(value, 0))
        elif atype_s == "u32":
            payload = struct.pack("=I", int(value, 0))
        elif atype_s == "str":
            payload = value.encode() + b"\0"
        else:
            sys.exit(f"lro_nl.py: bad attribute {arg}")
        attrs.append(attr(num, payload))

    nl = Genl()
    err, text, offs, _ = nl.request(nl.family_id("lro"), cmd, attrs)
    line = f"error {err}"
    if text:
        line += f' msg "{text}"'
    if offs is not None:
        line += f" offset {offs}"
    return line


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    enums = uapi_enums()
    if sys.argv[1] == "--dump":
        # A fresh socket: the kernel sizes dump replies by the largest
        # buffer the socket has read with, and family_id() used 64 KB.
        family = Genl().family_id("lro")
        dump(Genl(), family,
             enums["LRO_CMD_" + sys.argv[2].upper().replace("-", "_")])
        return
    if sys.argv[1] == "--serve":
        for req in sys.stdin:
            try:
                line = request(enums, shlex.split(req))
            except SystemExit as e:	# the message a request ends with
                line = str(e.code)
            except (IndexError, KeyError, ValueError) as e:
                line = f"lro_nl.py: bad request: {e!r}"
            print(line, flush=True)
        return
    print(request(enums, sys.argv[1:]))

if __name__ == "__main__":
    main()
