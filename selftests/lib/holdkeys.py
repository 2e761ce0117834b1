#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hold one socket with receive timestamps on until killed (keys.sh):
the kernel's netstamp_needed_key then stays enabled."""
import signal
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
# SO_TIMESTAMPNS (x86-64, arm64): Python names no constant for it
s.setsockopt(socket.SOL_SOCKET, 35, 1)
signal.signal(signal.SIGTERM, lambda *_: exit(0))
while True:
    signal.pause()
