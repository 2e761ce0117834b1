#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/demo-metrics.py (the MANET metrics of `make demo
SCENARIO=... NODES=N`), in KTAP.

    /usr/bin/python3 tests/unit/test_demo_metrics.py

Captures are built here frame by frame (Ethernet, IPv4, the DSR options
header of RFC 4728), so the byte accounting is checked against numbers
worked out by hand.  Exits 1 if any test fails.
"""
import json
import os
import struct
import sys
import tempfile

sys.dont_write_bytecode = True
import ktap  # noqa: E402
from ktap import eq  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.normpath(os.path.join(HERE, "..", "..", "scripts",
                                     "demo-metrics.py"))

dm = ktap.load_tool("demo_metrics", TOOL)

# ---- frames ----------------------------------------------------------------


def frame(proto, payload, nh=None, optlen=0, ethertype=0x0800):
    """Ethernet + IPv4 (+ a DSR options header of optlen option bytes
    when proto is 48) + payload"""
    body = b""
    if proto == 48:
        body = struct.pack("!BBH", nh, 0, optlen) + b"\x01" * optlen
    body += payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(body), 1, 0, 64,
                     proto, 0, b"\x0a\0\0\x01", b"\x0a\0\0\x02")
    eth = b"\x02\0\0\0\0\x02" + b"\x02\0\0\0\0\x01" + \
        struct.pack("!H", ethertype)
    return eth + ip + body


def pcap(frames, snap=96, big_endian=False):
    e = ">" if big_endian else "<"
    out = struct.pack(e + "IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, snap, 1)
    for f in frames:
        cap = f[:snap]
        out += struct.pack(e + "IIII", 1, 0, len(cap), len(f)) + cap
    return out


# ---- tests -----------------------------------------------------------------

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def near(what, got, want, tol=1e-9):
    if got is None or abs(got - want) > tol:
        raise AssertionError(f"{what}: got {got!r}, want {want!r}")


@test
def pairs_are_valid_and_seeded():
    """pairs: sources distinct while nodes last, dst != src, in range,
    the same for a seed, others for another"""
    p = dm.pairs(10, 10, 1)
    eq("count", len(p), 10)
    eq("distinct sources", len({s for s, _ in p}), 10)
    for s, d in p:
        if s == d or not 1 <= s <= 10 or not 1 <= d <= 10:
            raise AssertionError(f"bad pair {s} {d}")
    eq("same seed", dm.pairs(10, 10, 1), p)
    if dm.pairs(10, 10, 2) == p:
        raise AssertionError("seed 2 gave the same pairs")
    p = dm.pairs(3, 7, 5)
    eq("more flows than nodes", len(p), 7)
    eq("every node a source first", {s for s, _ in p[:3]}, {1, 2, 3})
    for bad in ((1, 1), (5, 0)):
        try:
            dm.pairs(bad[0], bad[1], 1)
        except ValueError:
            continue
        raise AssertionError(f"pairs{bad} accepted")


@test
def percentile_nearest_rank():
    v = list(range(1, 101))
    eq("p50 of 1..100", dm.percentile(v, 50), 50)
    eq("p95", dm.percentile(v, 95), 95)
    eq("p99", dm.percentile(v, 99), 99)
    eq("p100", dm.percentile(v, 100), 100)
    eq("p50 of one", dm.percentile([7], 50), 7)
    eq("p95 of 3 1 2", dm.percentile([3, 1, 2], 95), 3)
    eq("empty", dm.percentile([], 50), None)


@test
def medium_bytes_by_kind():
    """control packets count whole (IP header + DSR header), data
    packets their DSR header only; other frames apart; a snaplen shorter
    than the frame does not matter"""
    frames = [
        frame(48, b"", nh=59, optlen=12),		# RREQ-like: 20+4+12
        frame(48, b"\0" * 540, nh=17, optlen=16),	# data: 4+16
        frame(48, b"", nh=59, optlen=6),		# ACK-like: 20+4+6
        frame(17, b"\0" * 30),				# plain UDP
        frame(48, b"", nh=59, optlen=0, ethertype=0x0806),	# not IP
    ]
    for big in (False, True):
        m = dm.medium(pcap(frames, snap=64, big_endian=big))
        eq("frames", m["frames"], 5)
        eq("control packets", m["control_pkts"], 2)
        eq("control bytes", m["control_bytes"], 36 + 30)
        eq("data packets", m["data_pkts"], 1)
        eq("DSR header bytes of data", m["data_dsr_bytes"], 20)
        eq("other", m["other_pkts"], 2)
    try:
        dm.medium(b"\0" * 40)
    except ValueError:
        return
    raise AssertionError("a file that is no pcap was read")


@test
def metrics_of_a_run():
    """delivery ratio, overhead, load, delays, hops from cbr.py's file
    and a capture"""
    cbr = ["S 0 10 1", "S 1 10 0",
           "R 0 0 1000 64", "R 0 1 2000 63", "R 0 2 3000 63",
           "R 1 0 4000 62", "R 1 5 100000 -1"]
    frames = [frame(48, b"", nh=59, optlen=12)] * 3 + \
        [frame(48, b"\0" * 540, nh=17, optlen=16)] * 10
    r = dm.metrics(cbr, pcap(frames), {"n0": [1000, 3000], "n1": []},
                   size=512)
    eq("sent", r["sent"], 20)
    eq("refused", r["refused"], 1)
    eq("delivered", r["delivered"], 5)
    near("pdr", r["pdr"], 0.25)
    eq("p50 ms", r["delay_ms"]["p50"], 3.0)
    eq("p99 ms", r["delay_ms"]["p99"], 100.0)
    near("hops: the unknown TTL left out", r["hops_mean"], (1 + 2 + 2 + 3) / 4)
    eq("hops max", r["hops_max"], 3)
    near("overhead", r["overhead"], (3 * 36 + 10 * 20) / (5 * 512))
    near("routing load", r["routing_load"], 3 / 5)
    near("n0 mean", r["replay"]["n0"]["mean_ms"], 2.0)
    eq("n0 p95", r["replay"]["n0"]["p95_ms"], 3.0)
    eq("n1 no steps", r["replay"]["n1"]["steps"], 0)
    near("all", r["replay_all"]["mean_ms"], 2.0)
    r = dm.metrics(["S 0 4 0"], None, {})
    eq("nothing delivered: no delay", r["delay_ms"]["p50"], None)
    eq("nothing delivered: pdr", r["pdr"], 0.0)
    eq("no capture: no overhead", r.get("overhead"), None)


@test
def cpu_busy_share():
    a = "cpu  100 0 100 1000 0 0 0 0 0 0"
    b = "cpu  150 0 150 1100 0 0 0 0 0 0"
    near("busy", dm.cpu_busy(a, b), 100 / 200)
    b = "cpu  100 0 100 1100 100 0 0 0 0 0"
    near("iowait is idle", dm.cpu_busy(a, b), 0.0)


@test
def connectivity_over_time():
    """a-b joined all the time, a-c through b only while b-c is up
    (0..4 of 10 s), a-d never"""
    links = dm.read_links(["time\ta\tb\tloss",
                           "0\ta\tb\t0", "0\tb\tc\t50", "0\ta\tc\t100",
                           "4\tb\tc\t100", "7\ta\tb\t30"])
    got = dm.connected(links, [("a", "b"), ("a", "c"), ("c", "a"),
                               ("a", "d")], 10)
    for what, g, w in zip(("a-b", "a-c", "c-a", "a-d"), got,
                          (1.0, 0.4, 0.4, 0.0)):
        near(what, g, w)
    near("shorter run", dm.connected(links, [("a", "c")], 2)[0], 1.0)


@test
def report_of_a_directory():
    """report reads a run's files, prints and writes metrics.json"""
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "cbr.txt"), "w") as f:
            f.write("S 0 4 0\nR 0 0 1500 63\nR 0 1 2500 63\n")
        with open(os.path.join(d, "hub.pcap"), "wb") as f:
            f.write(pcap([frame(48, b"", nh=59, optlen=12)]))
        with open(os.path.join(d, "replay.json"), "w") as f:
            json.dump({"nodes": [{"name": "n0", "late_us": [500, 1500]},
                                 {"name": "n1", "late_us": [2000]}]}, f)
        with open(os.path.join(d, "cpu.before"), "w") as f:
            f.write("cpu 0 0 0 100 0 0 0 0\n")
        with open(os.path.join(d, "cpu.after"), "w") as f:
            f.write("cpu 30 0 10 160 0 0 0 0\n")
        os.mkdir(os.path.join(d, "traces"))
        with open(os.path.join(d, "traces", "links.tsv"), "w") as f:
            f.write("time\ta\tb\tloss\n0\tn0\tn1\t0\n5\tn0\tn1\t100\n")
        with open(os.path.join(d, "flows.txt"), "w") as f:
            f.write("x-1 x-2 10.0.0.2 5001 n0 n1\n")
        out = open(os.devnull, "w")
        stdout, sys.stdout = sys.stdout, out
        try:
            dm.report(d, 512, 20)
        finally:
            sys.stdout = stdout
            out.close()
        with open(os.path.join(d, "metrics.json")) as f:
            r = json.load(f)
    near("pdr", r["pdr"], 0.5)
    near("overhead", r["overhead"], 36 / 1024)
    near("replay mean over every step", r["replay_all"]["mean_ms"],
         4000 / 3 / 1000)
    near("cpu", r["cpu_busy"], 40 / 100)
    near("connected", r["connected"], 0.25)


if __name__ == "__main__":
    sys.exit(ktap.main(TESTS))
