#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A packet tap that holds what it captures (selftests/dsr/chain.sh).

    tap.py DEV SECS   an AF_PACKET socket on DEV for every protocol, with
                      a receive buffer that holds them all
                      (SO_RCVBUFFORCE), left unread until SIGTERM (or SECS
                      seconds at most): each frame DEV receives meanwhile
                      is shared with the clone the socket keeps.  Prints
                      "ready" once bound, then, at the end, "held N" (the
                      frames it had queued).
"""
import signal, socket, sys, time

ETH_P_ALL = 0x0003
SO_RCVBUFFORCE = 33

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
s.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 64 << 20)
s.bind((sys.argv[1], ETH_P_ALL))
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
print("ready", flush=True)
try:
    time.sleep(float(sys.argv[2]))
except SystemExit:
    pass
s.setblocking(False)
held = 0
while True:
    try:
        s.recv(65536)
    except BlockingIOError:
        break
    held += 1
print("held", held, flush=True)
