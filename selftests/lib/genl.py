#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A minimal generic netlink client for the selftests: sends hand-made
(also deliberately malformed) requests and returns errno and extack text,
independently of ahctl and libnl."""
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
    def __init__(self, family):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.bind((0, 0))
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.seq = 1
        err, msgs = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                 attr(CTRL_ATTR_FAMILY_NAME, family))
        if err:
            raise OSError(-err, f"family {family}: {os.strerror(-err)}")
        self.family = struct.unpack("H", dict(msgs[0])[CTRL_ATTR_FAMILY_ID][:2])[0]

    def request(self, ftype, cmd, payload=b"", dump=False, version=1):
        self.seq += 1
        flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else NLM_F_ACK)
        body = struct.pack("BBH", cmd, version, 0) + payload
        self.sock.send(struct.pack("IHHII", 16 + len(body), ftype, flags,
                                   self.seq, 0) + body)
        msgs, err, self.extack = [], 0, ""
        while True:
            data = self.sock.recv(1 << 20)
            while data:
                ln, typ, fl, seq, _ = struct.unpack_from("IHHII", data)
                msg, data = data[16:ln], data[(ln + 3) & ~3:]
                if typ == NLMSG_ERROR:
                    err = struct.unpack_from("i", msg)[0]
                    if fl & NLM_F_ACK_TLVS:
                        tlv = dict(parse_attrs(msg[4 + 16:]))
                        if NLMSGERR_ATTR_MSG in tlv:
                            self.extack = tlv[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
                    return err, msgs
                if typ == NLMSG_DONE:
                    if len(msg) >= 4:
                        err = struct.unpack_from("i", msg)[0]
                    return err, msgs
                msgs.append(parse_attrs(msg[4:]))

    def do(self, cmd, *attrs):
        return self.request(self.family, cmd, b"".join(attrs))

    def dump(self, cmd, *attrs):
        return self.request(self.family, cmd, b"".join(attrs), dump=True)
