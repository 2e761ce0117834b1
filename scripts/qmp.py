#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Run human monitor commands on a QEMU through its QMP socket.

    qmp.py SOCKET COMMAND...

Each COMMAND is one HMP command line ("info registers -a", "nmi"); its
output is printed.  scripts/vm.sh uses it when a guest stops making
progress.  Exits 1 if the socket does not answer within 10 seconds.
"""
import json
import socket
import sys


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    try:
        s.connect(sys.argv[1])
    except OSError as e:
        sys.exit(f"qmp: {sys.argv[1]}: {e}")
    f = s.makefile("rw")

    def call(execute, **arguments):
        msg = {"execute": execute}
        if arguments:
            msg["arguments"] = arguments
        f.write(json.dumps(msg) + "\n")
        f.flush()
        while True:
            reply = json.loads(f.readline())
            if "event" in reply:
                continue
            return reply

    try:
        json.loads(f.readline())            # the greeting
        call("qmp_capabilities")
        for cmd in sys.argv[2:]:
            reply = call("human-monitor-command", **{"command-line": cmd})
            print(f"(qemu) {cmd}")
            print(reply.get("return", reply.get("error")), end="", flush=True)
            print()
    except (OSError, ValueError) as e:
        sys.exit(f"qmp: {e}")


if __name__ == "__main__":
    main()
