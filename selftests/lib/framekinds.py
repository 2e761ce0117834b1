#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Link-layer frames of several kinds from one source, built once by scapy
(selftests/macfilter/frames.sh).

    framekinds.py SRC KIND...   prints "KIND HEX" for each KIND of
                                broadcast, multicast, vlan, qinq, runt
"""
import logging, sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)
from scapy.all import Ether, Dot1Q, Dot1AD, IP, UDP, Raw
src = sys.argv[1]
bcast = "ff:ff:ff:ff:ff:ff"
frames = {
    "broadcast": Ether(src=src, dst=bcast) / IP(src="10.0.0.9", dst="10.0.0.255") / UDP(dport=9),
    "multicast": Ether(src=src, dst="01:00:5e:00:00:fb") / IP(src="10.0.0.9", dst="224.0.0.251") / UDP(dport=5353),
    "vlan": Ether(src=src, dst=bcast) / Dot1Q(vlan=42) / IP(src="10.0.0.9", dst="10.0.0.1") / UDP(dport=9),
    "qinq": Ether(src=src, dst=bcast) / Dot1AD(vlan=7) / Dot1Q(vlan=42) / IP(src="10.0.0.9", dst="10.0.0.1") / UDP(dport=9),
    "runt": Ether(src=src, dst=bcast, type=0x88b5) / Raw(b"x"),
}
for kind in sys.argv[2:]:
    print(kind, bytes(frames[kind]).hex())
