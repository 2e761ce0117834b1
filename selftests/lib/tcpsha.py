#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""An exact TCP transfer (selftests/dsr/chain.sh): random bytes, hashed at
both ends; each end prints "BYTES SHA256".

    tcpsha.py recv             accept one connection on port 5003, read it
                               to EOF
    tcpsha.py send DST BYTES   BYTES random bytes to DST port 5003 (retried
                               for 10 s until the receiver listens)
"""
import hashlib
import os
import socket
import sys
import time


def recv():
    """Accept one connection on port 5003; its bytes and hash."""
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("", 5003)); s.listen(1); c, _ = s.accept(); h = hashlib.sha256(); n = 0
    while True:
        b = c.recv(65536)
        if not b: break
        h.update(b); n += len(b)
    print(n, h.hexdigest())


def send():
    """Random bytes to sys.argv[1]:5003; their count and hash."""
    d = os.urandom(int(sys.argv[2]))
    for i in range(100):		# until the receiver listens
        try:
            s = socket.create_connection((sys.argv[1], 5003), 30)
            break
        except ConnectionRefusedError:
            time.sleep(0.1)
    s.sendall(d); s.shutdown(socket.SHUT_WR); s.recv(1)
    print(len(d), hashlib.sha256(d).hexdigest())


if __name__ == "__main__":
    # the arguments after the command keep the places they had when
    # this was inline Python (sys.argv[1] is the first)
    {"recv": recv, "send": send}[sys.argv.pop(1)]()
