#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hand-made DSR packets (RFC 4728, IP protocol 48) for the bad-input tests.

  dsrcraft.py bad IFACE SRC_MAC DST_MAC SRC_IP DST_IP CLASS[,CLASS...] COUNT
  dsrcraft.py flood IFACE SRC_MAC COUNT [PPS [TTL]] (Route Requests,
                                             new initiators; PPS a second;
                                             IP TTL, 255 by default)
  dsrcraft.py forge IFACE SRC_MAC DST_MAC SRC_IP DST_IP COUNT
                                             (valid, empty DSR headers: a
                                             frame that claims SRC_IP)
  dsrcraft.py neighs IFACE DST_MAC DST_IP COUNT
                                             (one such frame from each of
                                             COUNT stations: MAC
                                             02:00:01:00:HH:LL, address
                                             10.0.100+J/250.1+J%250)
  dsrcraft.py classes                        (the names of CLASS)
  dsrcraft.py rreqdata IFACE SRC_MAC SRC_IP TARGET ID PORT TEXT
                                             (a broadcast Route Request
                                             that carries a UDP datagram)
  dsrcraft.py paddedfrag IFACE SRC_MAC DST_MAC SRC_IP DST_IP PAD
                                             (a DSR packet that carries an
                                             IP fragment in IP-in-IP, then
                                             PAD bytes more, in a paged
                                             skb: PACKET_VNET_HDR)
  dsrcraft.py ackreq IFACE SRC_MAC DST_MAC SRC_IP DST_IP
                                             (an Acknowledgement Request
                                             with an Acknowledgement)
  dsrcraft.py salvaged IFACE SRC_MAC DST_MAC ORIG DST SALVAGE HOP...
                                             (a UDP datagram from ORIG to
                                             DST, salvaged: Address[1..]
                                             = HOP..., sent by the first)
  dsrcraft.py rerrs PCAP                     (each Route Error captured:
                                             "src dst salvage unreachable")
  dsrcraft.py rerrfwd IFACE SRC_MAC DST_MAC SRC DST ESRC EDST UNREACH HOP...
                                             (a Route Error from ESRC to
                                             EDST in a packet from SRC to
                                             DST, Address[1..] = HOP...)
  dsrcraft.py mjoin IFACE SRC_MAC DST_MAC SRC_IP DST_IP SOURCE GROUP LAYERS
              KIND COUNT                     (COUNT multicast joins, each
                                             to a group of its own from
                                             GROUP on, if KIND is "many";
                                             else KIND "ok", "short",
                                             "version" or "tag", the same
                                             join COUNT times; SRC_IP
                                             "ADDR*N": from each of N
                                             neighbours ADDR, ADDR+1...,
                                             taking turns, each "many"
                                             sender's groups after the
                                             one before's)
  dsrcraft.py rerrpkts PCAP                  (each packet with Route
                                             Errors: "ipsrc ipdst" and per
                                             error " | src dst salvage
                                             unreachable")

Each CLASS is one way to be wrong, named after the dsr0 counter it must
raise (ethtool -S dsr0); "unknown_ignore" and "unknown_remove" are valid.
"""
import socket
import struct
import sys
import time

PROTO_DSR = 48


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def ip(src, dst, payload, ttl=64, ident=1):
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, 0,
                    ttl, PROTO_DSR, 0, socket.inet_aton(src),
                    socket.inet_aton(dst))
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def dsr(opts, nh=59, plen=None, flags=0):
    return struct.pack("!BBH", nh, flags, len(opts) if plen is None else plen) + opts


def addrs(*a):
    return b"".join(socket.inet_aton(x) for x in a)


def srt(hops, segs, salvage=0):
    return struct.pack("!BBH", 96, 2 + 4 * len(hops),
                       (salvage << 6) | segs) + addrs(*hops)


def udp(port, payload):
    return struct.pack("!HHHH", 9, port, 8 + len(payload), 0) + payload


def pad4(o):
    n = (4 - len(o) % 4) % 4
    if n == 1:
        return o + b"\xe0"
    if n:
        return o + bytes([0, n - 2]) + bytes(n - 2)
    return o


def bad(cls, src, dst):
    """The DSR header (and maybe the IP) of a packet of class cls."""
    other = "10.0.0.200"
    if cls == "malformed_truncated":
        return b"\x3b\x00"
    if cls == "malformed_payload_len":
        return dsr(pad4(b""), plen=100)
    if cls == "malformed_flow_state":
        return dsr(b"", flags=0x80)
    if cls == "malformed_opt_len":
        return dsr(b"\x60\x28\x00\x00")
    if cls == "malformed_opt_size":
        return dsr(pad4(b"\xa0\x03\x00\x01\x00"))
    if cls == "malformed_opt_repeat":
        return dsr(srt([other], 1) + srt([other], 1))
    if cls == "malformed_segs_left":
        return dsr(srt([dst], 5))
    if cls == "malformed_unknown_drop":
        return dsr(pad4(b"\x7f\x02\x00\x00"))
    if cls == "malformed_route_loop":
        return dsr(srt([dst, other, dst], 3))
    if cls == "malformed_route_self":
        return dsr(srt([dst, src], 2))
    if cls == "malformed_route_oversize":
        return dsr(srt([dst] + ["10.1.%d.%d" % (i // 200, 1 + i % 200)
                                for i in range(39)], 40))
    if cls == "malformed_route_multicast":
        return dsr(srt([dst, "224.0.0.9"], 2))
    if cls == "unknown_ignore":		# ignore class, then a PadN
        return dsr(b"\x05\x02\xaa\xbb")
    if cls == "unknown_remove":
        return dsr(b"\x25\x02\xaa\xbb")
    raise SystemExit("unknown class " + cls)


CLASSES = ["malformed_truncated", "malformed_payload_len",
           "malformed_flow_state", "malformed_opt_len", "malformed_opt_size",
           "malformed_opt_repeat", "malformed_segs_left",
           "malformed_unknown_drop", "malformed_route_loop",
           "malformed_route_self", "malformed_route_oversize",
           "malformed_route_multicast", "unknown_ignore", "unknown_remove"]


def mac(m):
    return bytes(int(x, 16) for x in m.split(":"))


def sendall(iface, frames, pps=0):
    """Send frames, at most pps a second when pps is given."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    t0 = time.monotonic()
    for i, f in enumerate(frames):
        if pps and i % 10 == 0:
            delay = t0 + i / pps - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        while True:
            try:
                s.send(f)
                break
            except OSError as e:
                if e.errno != 105:	# ENOBUFS: the queue is full, retry
                    raise


def rerrs(path):
    """The Route Errors in a pcap file of Ethernet frames."""
    for _, errs in rerr_packets(path):
        yield from errs


def rerr_packets(path):
    """(ip source and destination, [Route Error]) per packet with any."""
    with open(path, "rb") as f:
        data = f.read()
    off = 24
    while off + 16 <= len(data):
        caplen = struct.unpack("<I", data[off + 8:off + 12])[0]
        frame = data[off + 16:off + 16 + caplen]
        off += 16 + caplen
        if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[23] != 48:
            continue
        dh = frame[14 + (frame[14] & 15) * 4:]
        if len(dh) < 4:
            continue
        opts = dh[4:4 + struct.unpack("!H", dh[2:4])[0]]
        errs = []
        i = 0
        while i < len(opts):
            t = opts[i]
            if t == 224:
                i += 1
                continue
            if i + 2 > len(opts):
                break
            n = opts[i + 1]
            o = opts[i:i + 2 + n]
            if t == 3 and len(o) >= 16:
                errs.append("%s %s %d %s" % (socket.inet_ntoa(o[4:8]),
                                             socket.inet_ntoa(o[8:12]),
                                             o[3] & 15,
                                             socket.inet_ntoa(o[12:16])))
            i += 2 + n
        if errs:
            yield "%s %s" % (socket.inet_ntoa(frame[26:30]),
                             socket.inet_ntoa(frame[30:34])), errs


def mjoin(source, group, layers, kind="ok"):
    """A multicast join (kmod/dsr/mjoin.h): the payload of Next Header 253."""
    tag_layers = 0 if kind == "tag" else 8
    b = struct.pack("!BBBB4s4sHBBI", 9 if kind == "version" else 1, layers,
                    0, tag_layers, socket.inet_aton(source),
                    socket.inet_aton(group), 0, 0, 0, 0)
    return b[:10] if kind == "short" else b


def main():
    if sys.argv[1] == "mjoin":
        iface, smac, dmac, sip, dip, source, group, layers, kind, count = \
            sys.argv[2:12]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        g0 = struct.unpack("!I", socket.inet_aton(group))[0]
        sip, _, nsrc = sip.partition("*")
        s0 = struct.unpack("!I", socket.inet_aton(sip))[0]
        nsrc = int(nsrc or 1)
        count = int(count)
        frames = []
        for i in range(count):
            for k in range(nsrc):
                g = socket.inet_ntoa(struct.pack("!I", g0 + k * count + i)) \
                    if kind == "many" else group
                src = socket.inet_ntoa(struct.pack("!I", s0 + k))
                pkt = dsr(b"", nh=253) + mjoin(source, g, int(layers), kind)
                frames.append(eth + ip(src, dip, pkt, ident=5000 + i))
        sendall(iface, frames)
        return
    if sys.argv[1] == "classes":
        print(" ".join(CLASSES))
        return
    if sys.argv[1] == "bad":
        iface, smac, dmac, sip, dip, classes, count = sys.argv[2:9]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        sendall(iface, [eth + ip(sip, dip, bad(cls, sip, dip))
                        for cls in classes.split(",")
                        for _ in range(int(count))])
        return
    if sys.argv[1] == "forge":
        iface, smac, dmac, sip, dip, count = sys.argv[2:8]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        sendall(iface, [eth + ip(sip, dip, dsr(b""), ident=1000 + i)
                        for i in range(int(count))])
        return
    if sys.argv[1] == "neighs":
        iface, dmac, dip, count = sys.argv[2:6]
        frames = []
        for j in range(int(count)):
            smac = "02:00:01:00:%02x:%02x" % (j >> 8, j & 255)
            sip = "10.0.%d.%d" % (100 + j // 250, 1 + j % 250)
            frames.append(mac(dmac) + mac(smac) + b"\x08\x00" +
                          ip(sip, dip, dsr(b""), ident=j))
        sendall(iface, frames)
        return
    if sys.argv[1] == "flood":
        iface, smac, count = sys.argv[2], sys.argv[3], int(sys.argv[4])
        pps = float(sys.argv[5]) if len(sys.argv) > 5 else 0
        ttl = int(sys.argv[6]) if len(sys.argv) > 6 else 255
        eth = b"\xff" * 6 + mac(smac) + b"\x08\x00"
        frames = []
        for i in range(count):
            init = "10.%d.%d.%d" % (1 + i // 65536, (i // 256) % 256,
                                    1 + i % 250)
            rreq = struct.pack("!BBH", 1, 6, i & 0xFFFF) + \
                socket.inet_aton("10.99.0.1")
            frames.append(eth + ip(init, "255.255.255.255",
                                   dsr(pad4(rreq)), ttl=ttl, ident=i))
        sendall(iface, frames, pps)
        return
    if sys.argv[1] == "rreqdata":
        iface, smac, sip, target, ident, port, text = sys.argv[2:9]
        eth = b"\xff" * 6 + mac(smac) + b"\x08\x00"
        rreq = struct.pack("!BBH", 1, 6, int(ident)) + socket.inet_aton(target)
        pkt = dsr(pad4(rreq), nh=17) + udp(int(port), text.encode())
        sendall(iface, [eth + ip(sip, "255.255.255.255", pkt,
                                 ident=int(ident))])
        return
    if sys.argv[1] == "paddedfrag":
        iface, smac, dmac, sip, dip, pad = sys.argv[2:8]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        # the inner packet: 8 bytes of a fragment with More Fragments set
        inner = bytearray(ip(sip, dip, b"fragment"))
        inner[6:8] = struct.pack("!H", 0x2000)
        inner[9] = 17
        inner[10:12] = b"\0\0"
        inner[10:12] = struct.pack("!H", csum(bytes(inner[:20])))
        pkt = dsr(b"", nh=4) + bytes(inner) + bytes(int(pad))
        frame = eth + ip(sip, dip, pkt, ident=4713)
        # struct virtio_net_hdr: no offloads, the first 64 bytes in the
        # head; the rest of a frame over a page goes into page fragments
        # (packet_alloc_skb())
        vnet = struct.pack("<BBHHHH", 0, 0, 64, 0, 0, 0)
        s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        s.setsockopt(263, 15, 1)	# SOL_PACKET, PACKET_VNET_HDR
        s.bind((iface, 0))
        s.send(vnet + frame)
        return
    if sys.argv[1] == "ackreq":
        iface, smac, dmac, sip, dip = sys.argv[2:7]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        ack = struct.pack("!BBH", 32, 10, 7) + addrs(sip, dip)
        areq = struct.pack("!BBH", 160, 2, 4242)
        sendall(iface, [eth + ip(sip, dip, dsr(ack + areq), ident=77)])
        return
    if sys.argv[1] == "salvaged":
        iface, smac, dmac, orig, dst, salvage = sys.argv[2:8]
        hops = sys.argv[8:]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        opts = srt(hops, len(hops) - 1, int(salvage))
        pkt = dsr(opts, nh=17) + udp(9, b"salvaged")
        sendall(iface, [eth + ip(orig, dst, pkt, ident=4711)])
        return
    if sys.argv[1] == "rerrfwd":
        iface, smac, dmac, src, dst, esrc, edst, unreach = sys.argv[2:10]
        hops = sys.argv[10:]
        eth = mac(dmac) + mac(smac) + b"\x08\x00"
        rerr = struct.pack("!BBBB", 3, 14, 1, 0) + addrs(esrc, edst, unreach)
        pkt = dsr(srt(hops, len(hops)) + rerr)
        sendall(iface, [eth + ip(src, dst, pkt, ident=4712)])
        return
    if sys.argv[1] == "rerrpkts":
        for ips, errs in rerr_packets(sys.argv[2]):
            print(ips + "".join(" | " + e for e in errs))
        return
    if sys.argv[1] == "rerrs":
        for line in rerrs(sys.argv[2]):
            print(line)
        return
    raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
