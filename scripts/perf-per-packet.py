#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Busy CPU per packet, by symbol and by kind of work, from `perf script`.

    perf-per-packet.py [--top N] MODE:PACKETS:FILE [MODE:PACKETS:FILE ...]

FILE is `perf script -F comm,ip,sym` of a `perf record -a -g -e cpu-clock
-F HZ` run that moved PACKETS packets; the runs of one MODE are pooled
(their samples over their packets).  A sample whose innermost frame is
the idle loop is idle; every other sample is 1/HZ of busy CPU.  Printed,
in microseconds per packet (HZ from --hz, 1000 by default), for each MODE
side by side: the busy total, kinds of work (by the innermost function;
whole call chains for copies), and the symbols that cost the most
(self time).  The first MODE is the reference the others are compared
with (docs/benchmarks.md, issue 17).
"""
import argparse
import collections
import re
import sys

IDLE = {"native_safe_halt", "default_idle", "acpi_idle_do_entry",
        "intel_idle", "mwait_idle", "poll_idle"}
QDISC = {"__qdisc_run", "sch_direct_xmit", "dev_qdisc_enqueue",
         "dequeue_skb", "__dev_xmit_skb", "_raw_spin_trylock"}
LOCKS = {"_raw_spin_lock", "_raw_spin_unlock", "_raw_spin_lock_bh",
         "_raw_spin_unlock_bh", "native_queued_spin_lock_slowpath"}
IP = re.compile(r"(fib|__fib|ip_route|ip_forward|ip_rcv|ip_finish|nf_|nft_|"
                r"ip_skb_dst|ipv4_mtu|ip_output|__ip_local|ip_send_check)")


def samples(path):
    """(comm, [innermost symbol first ...]) per sample."""
    comm, stack = None, []
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if comm is not None:
                    yield comm, stack
                comm, stack = None, []
            elif line[0] not in " \t":
                comm = line.split()[0] if line.split() else "?"
            else:
                parts = line.split()
                sym = parts[1] if len(parts) > 1 else "?"
                stack.append(sym.split("+")[0])
    if comm is not None:
        yield comm, stack


def kind(stack):
    leaf = stack[0] if stack else "?"
    if "pskb_expand_head" in stack:
        return "copies (pskb_expand_head)"
    if leaf.startswith(("dsr_", "trace_", "dsrprio_")) or "dsr" in leaf:
        return "DSR's own code and tracepoints"
    if leaf in QDISC:
        return "qdisc on the slave"
    if IP.match(leaf):
        return "IP routing and forwarding"
    if leaf in LOCKS:
        return "spinlocks"
    return "the rest (sockets, bridge, veth, skb)"


def profile(paths, packets, hz):
    us = 1e6 / hz / packets
    busy, kinds, syms = 0.0, collections.Counter(), collections.Counter()
    for path in paths:
        for _, stack in samples(path):
            if not stack or stack[0] in IDLE:
                continue
            busy += us
            kinds[kind(stack)] += us
            syms[stack[0]] += us
    return busy, kinds, syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hz", type=int, default=1000)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("runs", nargs="+", help="MODE:PACKETS:FILE")
    a = ap.parse_args()
    pooled = {}
    for r in a.runs:
        mode, packets, path = r.split(":", 2)
        if int(packets) <= 0:
            sys.exit(f"perf-per-packet: {mode}: no packets")
        paths, total = pooled.get(mode, ([], 0))
        pooled[mode] = (paths + [path], total + int(packets))
    runs = [(mode, profile(paths, total, a.hz))
            for mode, (paths, total) in pooled.items()]
    modes = [m for m, _ in runs]
    ref = runs[0][1]
    print("| µs per packet | " + " | ".join(modes) +
          "".join(f" | {m} − {modes[0]}" for m in modes[1:]) + " |")
    print("|---" + "|---:" * (2 * len(modes) - 1) + "|")

    def row(name, vals):
        print(f"| {name} | " + " | ".join(f"{v:.1f}" for v in vals) +
              "".join(f" | {v - vals[0]:+.1f}" for v in vals[1:]) + " |")
    row("busy, all CPUs", [p[0] for _, p in runs])
    names = set()
    for _, p in runs:
        names |= set(p[1])
    for k in sorted(names, key=lambda k: -max(p[1][k] for _, p in runs)):
        row(k, [p[1][k] for _, p in runs])
    print()
    last = runs[-1][1][2]
    top = sorted(set(last) | set(ref[2]),
                 key=lambda s: -abs(last[s] - ref[2][s]))[:a.top]
    print(f"| symbol (self), largest differences | " + " | ".join(modes) + " |")
    print("|---" + "|---:" * len(modes) + "|")
    for s in top:
        print(f"| `{s}` | " + " | ".join(f"{p[2][s]:.2f}" for _, p in runs) +
              " |")


if __name__ == "__main__":
    main()
