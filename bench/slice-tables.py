#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The tables of bench/slice.sh, from its results directory (build/
bench-slice): markdown, seed 003's numbers beside ours, and which targets
this run met.

    slice-tables.py DIR

DIR/meta: "key value" lines (the settings); DIR/t2: "rep config point
Mbit/s CPU%"; DIR/t3: "rep config hogs JSON"; DIR/t4: "rep config load%
delivered-Mbit/s JSON" (JSON: selftests/lib/stamps.py's).  Every cell is
the median and [lowest-highest] of the runs; every ratio is of medians
of this run."""
import json
import os
import statistics
import sys

LABEL = {
    "native": "native",
    "map": "map",
    "move": "move",
    "ipvlan": "ipvlan l3",
    "bridge": "veth+bridge",
}
KINDS = [
    ("tap_recv", "receive, from arrival at node 1's eth0 (packet socket) to the read"),
    ("recv", "receive, SO_TIMESTAMPING software receive stamp to the read"),
    ("tap_send", "send, from before send() to leaving node 1's eth0 (packet socket)"),
    ("send", "send, from before send() to the first SO_TIMESTAMPING software transmit stamp"),
]
STATS = ["median", "mean", "p90"]

# seed 003 (Mobile PlanetLab node; Q9300, 1 GbE cross cable)
SEED_T2 = [  # system, UDP Mbit/s, CPU %, TCP Mbit/s, CPU %
    ("native Ubuntu", 954, 11, 926, 24),
    ("Ubuntu in VMware", 793, 112, 525, 160),
    ("PlanetLab in VMware (the node's design)", 876, 204, 398, 200),
]
SEED_T3 = {  # CPU-bound processes 0..5
    ("send", "mean"): [62, 59, 62, 61, 56, 60],
    ("send", "median"): [61, 55, 58, 57, 56, 56],
    ("send", "p90"): [74, 65, 72, 69, 66, 66],
    ("recv", "mean"): [163, 171, 229, 206, 239, 653],
    ("recv", "median"): [156, 147, 158, 155, 157, 159],
    ("recv", "p90"): [200, 189, 227, 199, 205, 209],
}
SEED_T4_LOAD = [0, 100, 200, 300, 400, 500]  # Mbit/s of UDP on 1 GbE
SEED_T4 = {
    ("send", "mean"): [62, 49, 62, 55, 49, 46],
    ("send", "median"): [61, 38, 45, 44, 40, 35],
    ("send", "p90"): [74, 73, 93, 79, 69, 54],
    ("recv", "mean"): [163, 178, 205, 293, 276, 278],
    ("recv", "median"): [156, 137, 168, 217, 214, 232],
    ("recv", "p90"): [200, 246, 323, 449, 424, 500],
}

T2_TARGET = 0.95
RECV_TARGET = 1.25
LOAD_TARGET = 1.5


def num(s):
    try:
        return float(s)
    except (TypeError, ValueError):
        return None


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def fmt(v, nd=1):
    if v is None:
        return "-"
    if nd == 0 or abs(v) >= 100:
        return "%.0f" % v
    return "%.*f" % (nd, v)


def cell(vals, nd=1):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "-"
    m = statistics.median(vals)
    if len(vals) == 1:
        return fmt(m, nd)
    return "%s [%s-%s]" % (fmt(m, nd), fmt(min(vals), nd), fmt(max(vals), nd))


def ratio(a, b):
    return a / b if a is not None and b else None


def rfmt(r):
    return "-" if r is None else "%.2f" % r


def row(*cols):
    print("| " + " | ".join(str(c) for c in cols) + " |")


def header(cols, align):
    row(*cols)
    print("|" + "|".join(align) + "|")


def read_meta(d):
    meta = {}
    with open(os.path.join(d, "meta")) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition(" ")
            meta[k] = v
    return meta


def read_lines(d, name, nfix):
    """rows: NFIX fields and the rest of the line (JSON, or fields)"""
    out = []
    path = os.path.join(d, name)
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            f_ = line.rstrip("\n").split(" ", nfix)
            if len(f_) != nfix + 1:
                continue
            out.append(f_)
    return out


def js(s):
    try:
        return json.loads(s)
    except ValueError:
        return {}


def lat(j, kind, stat):
    v = j.get(kind)
    return v.get(stat) if isinstance(v, dict) else None


def point_label(p, meta):
    rate = p.startswith("rate-")
    q = p[5:] if rate else p
    proto, _, d = q.partition("-")
    s = "%s %s" % (proto.upper(), "slice→peer" if d == "tx" else "peer→slice")
    return s + (", medium at %s" % meta.get("rate", "?") if rate else ", frames (CPU-bound)")


def table2(d, meta, configs, targets):
    rows = read_lines(d, "t2", 3)
    points = meta.get("points", "").split()
    if not rows or not points:
        return
    mb, cpu = {}, {}
    for r in rows:
        rest = r[3].split()
        mb.setdefault((r[1], r[2]), []).append(num(rest[0]) if rest else None)
        cpu.setdefault((r[1], r[2]), []).append(num(rest[1]) if len(rest) > 1 else None)
    print("### Table 2: throughput, Mbit/s received (iperf3 %s s; median [lowest-highest] of %s runs)"
          % (meta.get("secs"), meta.get("reps")))
    print()
    print("Seed 003, 1 GbE, Mbit/s received (CPU %, 100 = one core):")
    print()
    header(["system", "UDP", "TCP", "UDP / native", "TCP / native"],
           ["---", "---:", "---:", "---:", "---:"])
    for name, u, uc, t, tc in SEED_T2:
        row(name, "%d (%d %%)" % (u, uc), "%d (%d %%)" % (t, tc),
            "%.2f" % (u / SEED_T2[0][1]), "%.2f" % (t / SEED_T2[0][3]))
    print()
    others = [c for c in configs if c != "native"]
    print("This run (%s):" % meta.get("kernel", "?"))
    print()
    header(["point"] + [LABEL.get(c, c) for c in configs] +
           ["%s / native" % LABEL.get(c, c) for c in others],
           ["---"] + ["---:"] * (len(configs) + len(others)))
    for p in points:
        base = med(mb.get(("native", p), []))
        row(point_label(p, meta), *([cell(mb.get((c, p), []), 2) for c in configs] +
                                    [rfmt(ratio(med(mb.get((c, p), [])), base)) for c in others]))
    print()
    print("The guest's CPU over the run, %% (both ends; %s00 = every vCPU), median:"
          % meta.get("ncpu", "2"))
    print()
    header(["point"] + [LABEL.get(c, c) for c in configs], ["---"] + ["---:"] * len(configs))
    for p in points:
        row(point_label(p, meta), *[fmt(med(cpu.get((c, p), [])), 0) for c in configs])
    print()
    for p in points:
        if not p.startswith("rate-"):
            continue
        r = ratio(med(mb.get(("map", p), [])), med(mb.get(("native", p), [])))
        targets.append(("throughput where the medium is the limit, map / native, %s"
                        % point_label(p, meta), rfmt(r), "≥ %.2f" % T2_TARGET,
                        None if r is None else r >= T2_TARGET))


def lat_rows(data, configs, cols, kind):
    """rows of a latency table: config x stat, columns COLS"""
    for c in configs:
        for s in STATS:
            row(LABEL.get(c, c), s,
                *[cell([lat(j, kind, s) for j in data.get((c, k), [])]) for k in cols])


def table3(d, meta, configs, targets):
    rows = read_lines(d, "t3", 3)
    hogs = meta.get("hogs", "").split()
    if not rows or not hogs:
        return
    data = {}
    for r in rows:
        data.setdefault((r[1], r[2]), []).append(js(r[3]))
    print("### Table 3: latency under CPU load, µs (a datagram every %s ms for %s s to an "
          "echo on node 2; each run's median, mean and 90th percentile; median "
          "[lowest-highest] of %s runs)" % (meta.get("interval_ms"), meta.get("lat_secs"),
                                             meta.get("reps")))
    print()
    pin = meta.get("pin", "none")
    print("Columns: busy loops (`while :; do :; done`, on any vCPU) running in the guest "
          "(%s vCPUs) meanwhile; the application and the echo %s. Seed 003: ping with "
          "timestamps, one a second for 300 s, between the virtual mapper and the "
          "application in the VM." % (meta.get("ncpu", "2"),
                                      "pinned to vCPU %s" % pin if pin != "none" else "not pinned"))
    for kind, title in KINDS:
        print()
        print("**%s**" % title)
        print()
        header(["configuration", ""] + ["%s hogs" % k for k in hogs],
               ["---", "---"] + ["---:"] * len(hogs))
        sk = "recv" if "recv" in kind else "send"
        for s in STATS:
            row("seed 003 (VMware)", s,
                *[str(SEED_T3[(sk, s)][int(k)]) if k.isdigit() and int(k) <= 5 else "-"
                  for k in hogs])
        lat_rows(data, configs, hogs, kind)
    print()
    print("Where the stamps were taken (median over every run and hog level):")
    print()
    header(["configuration", "software transmit stamps per datagram",
            "receive stamp - arrival at eth0, µs", "answered / sent, lowest"],
           ["---", "---:", "---:", "---:"])
    for c in configs:
        js_ = [j for k in hogs for j in data.get((c, k), [])]
        ans = [j["answered"] / j["sent"] for j in js_ if j.get("sent")]
        row(LABEL.get(c, c), fmt(med([j.get("tx_stamps") for j in js_]), 2),
            fmt(med([j.get("rx_vs_tap") for j in js_])),
            "%.3f" % min(ans) if ans else "-")
    print()
    notes(data, configs, hogs, meta)
    if "map" not in configs or "native" not in configs:
        return
    # the mapper's receive path, per datagram: from the arrival at eth0
    # to the stamp netif_rx() takes again on the slice's eth0
    path = med([j.get("rx_vs_tap") for k in hogs for j in data.get(("map", k), [])])
    for k in hogs[:1]:
        n = med([lat(j, "tap_recv", "median") for j in data.get(("native", k), [])])
        r = ratio(path, n)
        targets.append(("map's receive path per datagram, eth0 to the slice's eth0 (an upper "
                        "bound of what map adds, free of scheduling), / native's median "
                        "receive latency, %s hogs" % k,
                        "%s (%s / %s µs)" % (rfmt(r), fmt(path), fmt(n)),
                        "≤ %.2f" % (RECV_TARGET - 1),
                        None if r is None else r <= RECV_TARGET - 1))
    for kind, what in (("tap_recv", "from eth0: comparable, the mapper included"),
                       ("recv", "from the receive stamp: map's is taken after the mapper")):
        for k in hogs:
            m = med([lat(j, kind, "median") for j in data.get(("map", k), [])])
            n = med([lat(j, kind, "median") for j in data.get(("native", k), [])])
            r = ratio(m, n)
            targets.append(("median receive latency, map / native, %s hogs (%s)" % (k, what),
                            "%s (%s / %s µs)" % (rfmt(r), fmt(m), fmt(n)),
                            "≤ %.2f" % RECV_TARGET,
                            None if r is None else r <= RECV_TARGET))


def notes(data, configs, hogs, meta):
    """what the stamps mean in this run, from where they were taken"""
    restamped, firsts = [], []
    for c in configs:
        js_ = [j for k in hogs for j in data.get((c, k), [])]
        off = med([j.get("rx_vs_tap") for j in js_])
        if off is not None and off > 1:
            restamped.append("%s %s µs" % (LABEL.get(c, c), fmt(off)))
        n = med([j.get("tx_stamps") for j in js_])
        if n is not None:
            firsts.append((LABEL.get(c, c), n))
    print("Reading Table 3 and 4: the eth0 rows start (receive) or end (send) at the same "
          "place in every configuration, node 1's eth0, as the seed's did at its mapper "
          "(for map: before the mapper, so they include it); compare those. The "
          "SO_TIMESTAMPING rows do not: a software receive stamp is cleared where the skb "
          "crosses into another namespace (skb_scrub_packet()) and taken again by the next "
          "netif_rx()", end="")
    if restamped:
        print(" — in this run the receive stamp came after the arrival at eth0 by (median) "
              + ", ".join(restamped), end="")
    print("; every veth the datagram leaves through stamps it again while the skb keeps its "
          "socket (node 1's eth0, the hub's port, and for veth+bridge first the slice's "
          "veth: %s stamps), and the send rows take the first."
          % ", ".join("%s %s" % (c, fmt(n, 0)) for c, n in firsts), end="")
    if meta.get("tap", "1") == "1":
        print(" The packet socket on eth0 costs every datagram a clone there, in every "
              "configuration (on the way out before the driver's transmit stamp, on the way "
              "in after the receive stamp at eth0 but before a stamp taken again later).")
    else:
        print()
    print()


def table4(d, meta, targets):
    rows = read_lines(d, "t4", 4)
    loads = meta.get("loads", "").split()
    cfgs = meta.get("load_configs", "").split()
    if not rows or not loads or not cfgs:
        return
    data, got = {}, {}
    for r in rows:
        data.setdefault((r[1], r[2]), []).append(js(r[4]))
        got.setdefault((r[1], r[2]), []).append(num(r[3]))
    print("### Table 4: latency under another slice's load, µs (as Table 3, no hogs)")
    print()
    print("Columns: UDP that node 2 sends to the other slice over its own link (node 1's "
          "eth1, %s), in %% of that link's capacity. Seed 003 (columns Mbit/s of UDP on "
          "the same 1 GbE interface):" % meta.get("load_rate", "?"))
    print()
    header(["seed 003", ""] + ["%d Mbit/s" % m for m in SEED_T4_LOAD],
           ["---", "---"] + ["---:"] * len(SEED_T4_LOAD))
    for (sk, s), v in SEED_T4.items():
        row(sk, s, *v)
    print()
    print("(seed 003's 90th percentile of receive latency at 500 Mbit/s / at 0: %.2f)"
          % (SEED_T4[("recv", "p90")][-1] / SEED_T4[("recv", "p90")][0]))
    for kind, title in KINDS:
        print()
        print("**%s**" % title)
        print()
        header(["configuration", ""] + ["%s %%" % l for l in loads],
               ["---", "---"] + ["---:"] * len(loads))
        if kind == KINDS[0][0]:
            for c in cfgs:
                row(LABEL.get(c, c), "load received, Mbit/s",
                    *[cell(got.get((c, l), []), 2) if l != "0" else "0" for l in loads])
        lat_rows(data, cfgs, loads, kind)
    print()
    if "0" not in loads:
        return
    for c in cfgs:
        if c == "native":
            continue	# the reference: no slice
        for kind, what in (("tap_recv", "from eth0"), ("recv", "from the receive stamp")):
            p0 = med([lat(j, kind, "p90") for j in data.get((c, "0"), [])])
            for l in loads:
                if l == "0":
                    continue
                pl = med([lat(j, kind, "p90") for j in data.get((c, l), [])])
                r = ratio(pl, p0)
                targets.append(("90th percentile of %s's receive latency, %s %% load on the "
                                "other slice / none (%s)" % (LABEL.get(c, c), l, what),
                                "%s (%s / %s µs)" % (rfmt(r), fmt(pl), fmt(p0)),
                                "≤ %.2f" % LOAD_TARGET,
                                None if r is None else r <= LOAD_TARGET))


def main():
    d = sys.argv[1]
    meta = read_meta(d)
    configs = meta.get("configs", "").split()
    targets = []
    print()
    print("## Slices (kmod/slice) against native, ipvlan and veth+bridge (seed 003, issue 18)")
    print()
    print("Kernel %s, %s vCPUs; %s runs; %s s of guest time."
          % (meta.get("kernel"), meta.get("ncpu"), meta.get("reps"), meta.get("elapsed", "?")))
    print()
    table2(d, meta, configs, targets)
    table3(d, meta, configs, targets)
    table4(d, meta, targets)
    if not targets:
        return
    print("### Targets")
    print()
    header(["target", "this run", "wanted", "met"], ["---", "---:", "---:", "---"])
    for what, got, want, ok in targets:
        row(what, got, want, "not measured" if ok is None else ("met" if ok else "**not met**"))
    print()
    ok = [t[3] for t in targets if t[3] is not None]
    print("%d of %d targets met, %d not measured." % (sum(ok), len(ok), len(targets) - len(ok)))


if __name__ == "__main__":
    main()
