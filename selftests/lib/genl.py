#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A minimal generic netlink client for the selftests: sends hand-made
(also deliberately malformed) requests and returns errno and extack text,
independently of ahctl and libnl.

After a request, extack is the message, extack_attr the type of the
attribute it points at (None if it points at none), extack_policy that
attribute's policy (NL_POLICY_TYPE_ATTR_* -> int, e.g. the range), and
parts the number of datagrams the answer came in (a dump: one per call of
the kernel's dumpit).  groups maps the family's multicast group names to
ids; join() subscribes to one."""
import os
import socket
import struct

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLM_F_REQUEST = 0x1
NLM_F_MULTI = 0x2
NLM_F_ACK = 0x4
NLM_F_DUMP = 0x300
NLMSG_ERROR = 2
NLMSG_DONE = 3
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
NLMSGERR_ATTR_OFFS = 2
NLMSGERR_ATTR_POLICY = 4
NETLINK_ADD_MEMBERSHIP = 1
CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME = 1
CTRL_ATTR_MCAST_GRP_ID = 2
# enum netlink_policy_type_attr
NL_POLICY_TYPE_ATTR_MIN_VALUE_U = 4
NL_POLICY_TYPE_ATTR_MAX_VALUE_U = 5
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2
NLA_F_NESTED = 0x8000


def attr(typ, data):
    if isinstance(data, str):
        data = data.encode() + b"\0"
    hdr = struct.pack("HH", 4 + len(data), typ)
    return hdr + data + bytes((4 - len(data) % 4) % 4)


def u8(typ, v):
    return attr(typ, struct.pack("B", v))


def u32(typ, v):
    return attr(typ, struct.pack("I", v))


def nest(typ, *attrs):
    return attr(typ | NLA_F_NESTED, b"".join(attrs))


def parse_attrs(buf):
    out = []
    while len(buf) >= 4:
        ln, typ = struct.unpack_from("HH", buf)
        if ln < 4:
            break
        out.append((typ & 0x3FFF, buf[4:ln]))
        buf = buf[(ln + 3) & ~3:]
    return out


class Genl:
    """bufsize: the receive buffer of every recv(); the kernel sizes a
    dump's datagrams after the largest the socket asked for (a small one
    makes a dump take many calls)."""

    def __init__(self, family, bufsize=1 << 20):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.bufsize = bufsize
        self.seq = 1
        err, msgs = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                 attr(CTRL_ATTR_FAMILY_NAME, family))
        if err:
            raise OSError(-err, f"family {family}: {os.strerror(-err)}")
        fam = dict(msgs[0])
        self.family = struct.unpack("H", fam[CTRL_ATTR_FAMILY_ID][:2])[0]
        self.groups = {}
        for _, grp in parse_attrs(fam.get(CTRL_ATTR_MCAST_GROUPS, b"")):
            g = dict(parse_attrs(grp))
            name = g[CTRL_ATTR_MCAST_GRP_NAME].rstrip(b"\0").decode()
            self.groups[name] = struct.unpack("I", g[CTRL_ATTR_MCAST_GRP_ID])[0]

    def join(self, group):
        """Subscribe to a multicast group (OSError if refused)."""
        self.sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
                             self.groups[group])

    def _extack(self, fl, tlvs):
        if not fl & NLM_F_ACK_TLVS:
            return
        tlv = dict(parse_attrs(tlvs))
        if NLMSGERR_ATTR_MSG in tlv:
            self.extack = tlv[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
        if NLMSGERR_ATTR_OFFS in tlv:
            offs = struct.unpack("I", tlv[NLMSGERR_ATTR_OFFS])[0]
            if offs + 4 <= len(self.sent):
                self.extack_attr = struct.unpack_from(
                    "HH", self.sent, offs)[1] & 0x3FFF
        if NLMSGERR_ATTR_POLICY in tlv:
            for typ, val in parse_attrs(tlv[NLMSGERR_ATTR_POLICY]):
                self.extack_policy[typ] = int.from_bytes(val, "little")

    def request(self, ftype, cmd, payload=b"", dump=False, version=1,
                reserved=0, flags=0, on_part=None):
        """reserved: genlmsghdr.reserved; flags: more nlmsg_flags;
        on_part(n, msgs): called after the n-th datagram (from 1) was
        read, with the messages so far."""
        self.seq += 1
        flags |= NLM_F_REQUEST | (NLM_F_DUMP if dump else NLM_F_ACK)
        body = struct.pack("BBH", cmd, version, reserved) + payload
        self.sent = struct.pack("IHHII", 16 + len(body), ftype, flags,
                                self.seq, 0) + body
        self.sock.send(self.sent)
        msgs, err, self.extack = [], 0, ""
        self.extack_attr, self.extack_policy, self.parts = None, {}, 0
        while True:
            data = self.sock.recv(self.bufsize)
            self.parts += 1
            while data:
                ln, typ, fl, seq, _ = struct.unpack_from("IHHII", data)
                msg, data = data[16:ln], data[(ln + 3) & ~3:]
                if typ == NLMSG_ERROR:
                    err = struct.unpack_from("i", msg)[0]
                    # the error, then the request's header (capped)
                    self._extack(fl, msg[4 + 16:])
                    return err, msgs
                if typ == NLMSG_DONE:
                    if len(msg) >= 4:
                        err = struct.unpack_from("i", msg)[0]
                        self._extack(fl, msg[4:])
                    return err, msgs
                msgs.append(parse_attrs(msg[4:]))
            if on_part:
                on_part(self.parts, msgs)

    def do(self, cmd, *attrs, **kw):
        return self.request(self.family, cmd, b"".join(attrs), **kw)

    def dump(self, cmd, *attrs, **kw):
        return self.request(self.family, cmd, b"".join(attrs), dump=True,
                            **kw)
