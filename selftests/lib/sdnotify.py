#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""systemd's notify socket, for selftests/dsrd/daemon.sh.

    sdnotify.py SOCKET LOG   bind the AF_UNIX datagram socket SOCKET, write
                             "ready" to LOG, then every datagram as a line
                             of LOG (newlines as spaces), until killed
"""
import socket, sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    print("ready", file=f)
    while True:
        f.write(s.recv(4096).decode().replace("\n", " ") + "\n")
