#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tools/ah-scenario (docs/scenario.md), in KTAP.

    /usr/bin/python3 tests/unit/test_scenario.py

The tool is imported as a module; its traces are checked by a validator
that follows userspace/common/trace.c (trace(5)) rule by rule, without
needing the C code built.  Exits 1 if any test fails.
"""
import contextlib
import gzip
import io
import math
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
import ktap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.normpath(os.path.join(HERE, "..", "..", "tools",
                                     "ah-scenario"))

TRACE_MAX_STEPS = 100000
TRACE_MAX_TIME_MS = 7 * 24 * 3600 * 1000
TRACE_MAX_ENTRIES = 65536
TRACE_LINE_MAX = 1 << 20


ahs = ktap.load_tool("ah_scenario", TOOL)


# ---- a trace(5) validator after userspace/common/trace.c ----------------


class TraceError(Exception):
    """A trace the C parser would refuse: "LINE: message"."""


def parse_time(tok):
    """time_parse(): seconds with at most 3 fraction digits, as ms."""
    v, frac = 0, -1
    for c in tok:
        if c == "." and frac < 0:
            frac = 0
            continue
        if not "0" <= c <= "9" or frac == 3:
            return None
        v = v * 10 + int(c)
        if frac >= 0:
            frac += 1
        if v > TRACE_MAX_TIME_MS:
            return None
    if frac == 0:
        return None
    v *= 10 ** (3 - max(frac, 0))
    return v if v <= TRACE_MAX_TIME_MS else None


def parse_mac(tok):
    """mac_parse(): six hex pairs with one separator, ':' or '-'."""
    hexd = "0123456789abcdefABCDEF"
    if len(tok) != 17 or tok[2] not in ":-":
        return None
    for i in range(6):
        pair = tok[3 * i:3 * i + 2]
        if not all(c in hexd for c in pair):
            return None
        if i < 5 and tok[3 * i + 2] != tok[2]:
            return None
    return bytes(int(tok[3 * i:3 * i + 2], 16) for i in range(6))


def parse_loss(tok):
    """mac_loss_parse(): 1 to 3 digits, 0..100."""
    if not 1 <= len(tok) <= 3 or not tok.isdigit() or not tok.isascii():
        return None
    v = int(tok)
    return v if v <= 100 else None


def parse_entry(tok, n):
    """One MAC or MAC/LOSS entry: (mac bytes, loss or None)."""
    mac_s, slash, loss_s = tok.partition("/")
    mac = parse_mac(mac_s)
    if mac is None:
        raise TraceError(f"{n}: '{mac_s}' is not a MAC address")
    if mac[0] & 1:
        raise TraceError(f"{n}: {mac_s} is a multicast address")
    loss = None
    if slash:
        loss = parse_loss(loss_s)
        if loss is None:
            raise TraceError(f"{n}: loss '{loss_s}' is not a percentage")
    return mac, loss


def parse_line(line, n, steps):
    """line_parse(): one step appended to steps, or nothing."""
    toks = [t for t in line.split("#", 1)[0].replace("\t", " ")
            .replace("\r", " ").split(" ") if t]
    if not toks:
        return
    ms = parse_time(toks[0])
    if ms is None:
        raise TraceError(f"{n}: '{toks[0]}' is not a time")
    if steps and ms < steps[-1][0]:
        raise TraceError(f"{n}: time {toks[0]} is before the previous step's")
    if len(steps) >= TRACE_MAX_STEPS:
        raise TraceError(f"{n}: more than {TRACE_MAX_STEPS} steps")
    entries, dash = [], False
    for tok in toks[1:]:
        if dash or (tok == "-" and entries):
            raise TraceError(f"{n}: '-' stands alone")
        if tok == "-":
            dash = True
            continue
        if len(entries) >= TRACE_MAX_ENTRIES:
            raise TraceError(f"{n}: too many entries in one step")
        entries.append(parse_entry(tok, n))
    if not dash and not entries:
        raise TraceError(f"{n}: a step needs entries, or '-' for none")
    macs = [m for m, _ in entries]
    if len(set(macs)) != len(macs):
        raise TraceError(f"{n}: a MAC appears twice in one step")
    steps.append((ms, entries))


def validate_trace(text):
    """trace_parse_buf(): the steps [(ms, [(mac, loss)])] or TraceError."""
    steps = []
    for n, line in enumerate(text.split("\n"), 1):
        if len(line) > TRACE_LINE_MAX:
            raise TraceError(f"{n}: line too long")
        if "\0" in line:
            raise TraceError(f"{n}: NUL byte in the file")
        parse_line(line, n, steps)
    if not steps:
        raise TraceError("no step")
    return steps


# ---- helpers ------------------------------------------------------------


TWO_FIXED = """
name = "two"
duration = 10
range = 250
edge = 200
time_scale = 1
[[node]]
name = "A"
position = [0, 0]
[[node]]
name = "B"
position = [{d}, 0]
"""

PASSING = """
name = "pass"
duration = 120
range = 250
edge = 250
time_scale = 10
step = 0.5
[[node]]
name = "A"
position = [0, 0]
[[node]]
name = "B"
waypoints = [[-500, 0], [500, 0]]
speed_kmh = 36
"""


def run_text(text, source="test.toml"):
    """The simulated run of a scenario given as TOML text."""
    return ahs.simulate(ahs.load_text(text, source))


def step_lines(trace):
    """The step lines of a trace text (no comments)."""
    return [ln for ln in trace.splitlines() if ln and not ln.startswith("#")]


def expect(cond, what):
    """Fail the current test with what unless cond."""
    if not cond:
        raise AssertionError(what)


def cmu_traces(outdir, overrides=None):
    """Write the cmu traces to outdir; the run."""
    run = ahs.simulate(ahs.load("cmu", overrides))
    ahs.write_traces(run, outdir)
    return run


def read(path):
    """A file's text."""
    with open(path, encoding="utf-8") as f:
        return f.read()


# ---- the tests ----------------------------------------------------------


def test_fixed_distances():
    """Two fixed nodes: heard at 100 m, not at 300 m, 50 % loss at 225 m."""
    cases = ((100, "0 -", "0 -"),
             (300, "0 02:00:00:00:00:02", "0 02:00:00:00:00:01"),
             (225, "0 02:00:00:00:00:02/50", "0 02:00:00:00:00:01/50"))
    for d, want_a, want_b in cases:
        run = run_text(TWO_FIXED.format(d=d))
        a, b = ahs.trace_text(run, 0), ahs.trace_text(run, 1)
        expect(step_lines(a) == [want_a], f"{d} m: A's steps {step_lines(a)}")
        expect(step_lines(b) == [want_b], f"{d} m: B's steps {step_lines(b)}")


def test_loss_model():
    """Loss 0 to edge, linear to range in 10 % steps, 100 from range."""
    want = {0: 0, 200: 0, 202: 0, 203: 10, 205: 10, 225: 50, 240: 80,
            247: 90, 248: 100, 250: 100, 1000: 100}
    for d, loss in want.items():
        got = ahs.link_loss(d, 250, 200)
        expect(got == loss, f"{d} m: loss {got}, want {loss}")
    expect(ahs.link_loss(249.9, 250, 250) == 0, "no edge: heard to range")


def test_moving_past_fixed():
    """A node driving past a fixed one at 10 m/s: steps at the range."""
    run = run_text(PASSING)
    mac_a, mac_b = (n.mac for n in run.scn.nodes)
    # B is 250 m from A at t=25 s (not heard: range is exclusive), in
    # range from 25.5 s, at 250 m again at 75 s; trace time is / 10.
    want_a = ["0 " + mac_b, "2.55 -", "7.5 " + mac_b]
    want_b = ["0 " + mac_a, "2.55 -", "7.5 " + mac_a]
    got_a = step_lines(ahs.trace_text(run, 0))
    got_b = step_lines(ahs.trace_text(run, 1))
    expect(got_a == want_a, f"A: {got_a}")
    expect(got_b == want_b, f"B: {got_b}")
    end = run.positions[-1][1]
    expect(end == (500.0, 0.0), f"B stops at the path's end, not {end}")


def test_validator_rejects():
    """The validator refuses what trace.c refuses (so it can be trusted)."""
    good = "# c\n0 -\n1.5 02:00:00:00:00:01 02-00-00-00-00-02/30\r\n1.5 -\n"
    validate_trace(good)
    bad = ("", "# only a comment\n", "12. -", "1.2345 -", ".-", "x -",
           "5", "0 - 02:00:00:00:00:01", "0 02:00:00:00:00:01 -",
           "0 - -", "2 -\n1 -", "0 01:00:00:00:00:01",
           "0 02:00:00:00:00:01/101", "0 02:00:00:00:00:01/",
           "0 02:00:00:00:00:01 02:00:00:00:00:01",
           "0 02:00:00:00:00:01/10 02-00-00-00-00-01",
           "0 02:00-00:00:00:01", "0 2:00:00:00:00:01", "700000 -")
    for text in bad:
        try:
            validate_trace(text)
        except TraceError:
            continue
        raise AssertionError(f"accepted {text!r}")


def check_header(text, node, scn):
    """The comment lines name the node, its MAC, scenario and scale."""
    head = "\n".join(ln for ln in text.splitlines() if ln.startswith("#"))
    for word in (node.name, node.mac, f"scenario {scn.name}",
                 f"time scale {scn.time_scale:g}"):
        expect(word in head, f"{node.name}: header lacks {word!r}")


def check_cmu_trace(text, node, run):
    """One cmu trace: valid, from 0, within the run, losses 10..90."""
    steps = validate_trace(text)
    check_header(text, node, run.scn)
    expect(steps[0][0] == 0, f"{node.name}: first step at {steps[0][0]} ms")
    end = run.scn.duration / run.scn.time_scale * 1000
    expect(steps[-1][0] <= end, f"{node.name}: a step after the end")
    for ms, entries in steps:
        for mac, loss in entries:
            expect(loss is None or (10 <= loss <= 90 and loss % 10 == 0),
                   f"{node.name}: loss {loss} at {ms} ms")
            expect(mac != bytes.fromhex(node.mac.replace(":", "")),
                   f"{node.name}: lists itself")
    expect(all(a[1] != b[1] for a, b in zip(steps, steps[1:])),
           f"{node.name}: a step that changes nothing")


def test_cmu_traces_valid():
    """Every cmu trace parses under trace(5)'s rules; nodes.txt, links.tsv."""
    with tempfile.TemporaryDirectory() as d:
        run = cmu_traces(d)
        names = [n.name for n in run.scn.nodes]
        expect(names == ["E1", "E2", "T1", "T2", "T3", "T4", "T5"],
               f"node order {names}")
        for node in run.scn.nodes:
            check_cmu_trace(read(os.path.join(d, node.name + ".trace")),
                            node, run)
        nodes = read(os.path.join(d, "nodes.txt")).split("\n")
        expect(nodes[0] == "E1 02:00:00:00:00:01"
               and nodes[6] == "T5 02:00:00:00:00:07", f"nodes.txt {nodes}")
        check_links(read(os.path.join(d, "links.tsv")), names)


def check_links(text, names):
    """links.tsv: a header, then time-ordered changes of known pairs."""
    lines = text.splitlines()
    expect(lines[0] == "time\ta\tb\tloss", f"links.tsv header {lines[0]!r}")
    last, state = -1, {}
    for ln in lines[1:]:
        t, a, b, loss = ln.split("\t")
        ms = parse_time(t)
        expect(ms is not None and ms >= last, f"links.tsv time {t}")
        expect(a in names and b in names and a != b, f"links.tsv {ln!r}")
        expect(int(loss) % 10 == 0 and state.get((a, b)) != int(loss),
               f"links.tsv {ln!r}: not a change")
        last, state[(a, b)] = ms, int(loss)
    pairs = len(names) * (len(names) - 1) // 2
    expect(len(state) == pairs, f"links.tsv: {len(state)} pairs")


BAD_SCENARIOS = (
    ("rang = 3\n", "'rang'"),
    ("edge = 300\n", "edge"),
    ("mac_base = \"01:00:00:00:00:00\"\n", "mac_base"),
    ("step = \"fast\"\n", "step"),
    ("[[node]]\nname = \"B\"\nwaypoints = [[0, 0], [9, 0]]\n", "speed_kmh"),
    ("[[node]]\nname = \"B\"\ncourse = \"x\"\nspeed_kmh = 3\n", "course"),
    ("[[node]]\nname = \"B\"\nposition = [1, 0]\nsped = 3\n", "'sped'"),
    ("[[node]]\nname = \"A\"\nposition = [1, 0]\n", "name"),
    ("[[node]]\nname = \"B\"\nposition = [1]\n", "position"),
    ("[[node]]\nname = \"B\"\nwaypoints = [[0, 0], [9, 0]]\n"
     "speed_kmh = [40, 20]\n", "speed_kmh"),
    ("[[node]]\nname = \"B\"\nwaypoints = [[0, 0], [9, 0]]\n"
     "speed_kmh = 9\nstart = 1.5\n", "start"),
    ("[course.c]\nwaypoints = [[0, 0], [1, 1]]\nclosed = \"yes\"\n",
     "closed"),
)

BAD_BASE = 'duration = 10\nrange = 250\n'
BAD_NODE = '[[node]]\nname = "A"\nposition = [0, 0]\n'


def bad_text(snippet):
    """A scenario with snippet: top-level keys before the first node."""
    if snippet.startswith("["):
        return BAD_BASE + BAD_NODE + snippet
    return BAD_BASE + snippet + BAD_NODE


def test_validation_errors():
    """Errors in scenario files name the offending key (and node)."""
    for snippet, key in BAD_SCENARIOS:
        try:
            ahs.load_text(bad_text(snippet), "bad.toml")
        except ahs.ScenarioError as e:
            msg = str(e)
            expect(key in msg and msg.startswith("bad.toml: "),
                   f"{snippet!r}: message {msg!r} lacks {key!r}")
            continue
        raise AssertionError(f"{snippet!r} was accepted")
    for missing in ("duration", "range"):
        text = bad_text("").replace(f"{missing} =", "# ")
        try:
            ahs.load_text(text, "bad.toml")
        except ahs.ScenarioError as e:
            expect(f"missing key '{missing}'" in str(e), str(e))
            continue
        raise AssertionError(f"no {missing}: accepted")


def test_cli_errors():
    """The command line: a bad scenario is one line on stderr, exit 2."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bad.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(bad_text("[[node]]\nname = \"B\"\nposition = 1\n"))
        for args in (["summary", path], ["summary", "no-such-name"],
                     ["traces", "cmu", d, "--time-scale", "0"]):
            p = subprocess.run([sys.executable, TOOL] + args, text=True,
                               capture_output=True, check=False)
            err = p.stderr.strip()
            expect(p.returncode == 2, f"{args}: exit {p.returncode}")
            expect("Traceback" not in err and len(err.splitlines()) == 1,
                   f"{args}: stderr {err!r}")


def test_deterministic():
    """Same seed, same bytes; another seed, other speeds and traces."""
    with tempfile.TemporaryDirectory() as d:
        one, two = os.path.join(d, "1"), os.path.join(d, "2")
        cmu_traces(one)
        cmu_traces(two)
        for f in sorted(os.listdir(one)):
            expect(read(os.path.join(one, f)) == read(os.path.join(two, f)),
                   f"{f} differs between two runs")
        text = ranged_cmu()
        a = ahs.simulate(ahs.load_text(text, "cmu1.toml"))
        b = ahs.simulate(ahs.load_text(text.replace("seed = 1 ", "seed = 2 "),
                                       "cmu2.toml"))
        expect(ahs.trace_text(a, 0).split("\n")[4:]
               != ahs.trace_text(b, 0).split("\n")[4:],
               "seed 2 gives the same E1 trace as seed 1")


def ranged_cmu():
    """The cmu scenario with speeds drawn per lap in 25..40 km/h."""
    text = read(ahs.resolve("cmu"))
    expect("speed_kmh = 30" in text, "cmu.toml: no 'speed_kmh = 30'")
    return text.replace("speed_kmh = 30", "speed_kmh = [25, 40]")


def test_speed_per_lap():
    """A speed range draws one speed per lap, each within the range."""
    scn = ahs.load_text(ranged_cmu(), "cmu-ranged.toml")
    for node in scn.nodes[2:]:
        laps = ahs.Motion(node, scn).laps
        speeds = [v * 3.6 for _, _, v in laps]
        expect(len(laps) >= 5, f"{node.name}: {len(laps)} laps")
        expect(all(25 <= v <= 40 for v in speeds), f"{node.name}: {speeds}")
        expect(len(set(speeds)) > 1, f"{node.name}: one speed")


def test_cmu_summary():
    """cmu: E1 never hears E2, reaches it over 2 or 3 hops, all first hops."""
    run = ahs.simulate(ahs.load("cmu"))
    e1, e2 = run.scn.nodes[0].position, run.scn.nodes[1].position
    dist = ((e1[0] - e2[0]) ** 2 + (e1[1] - e2[1]) ** 2) ** 0.5
    expect(dist > run.scn.range, f"E1-E2 {dist:.1f} m, in range")
    f = ahs.hop_fractions(run, 0, 1)
    expect(f[0] == 0, f"a direct route: {f}")
    expect(f[1] > 0.3 and f[2] > 0.2, f"2 and 3 hops: {f}")
    expect(f[4] < 0.2, f"E1 reaches E2 only {100 - 100 * f[4]:.0f} %")
    first = ahs.first_hops(run, 0, 1)
    expect(sorted(first) == [2, 3, 4, 5, 6], f"first hops {first}")
    text = ahs.summary_text(run)
    expect("E1 -> E2" in text and "trace steps" in text, text)


# ---- movement files, the random waypoint generator ----------------------


NS2_HAND = """\
# a hand-made ns-2 movement file: comments, $god_ lines and Z_ as ns-2's
# setdest writes them; node 0's events are not in time order in the file
#
# nodes: 2, pause: 0.00, max speed: 10.00, max x: 300.00, max y: 300.00
#
$node_(0) set X_ 0.0
$node_(0) set Y_ 0.0
$node_(0) set Z_ 0.000000000000
$node_(1) set X_ 200.0
$node_(1) set Y_ 0
$node_(1) set Z_ 0.0
$god_ set-dist 0 1 1
$ns_ at 15.0 "$node_(0) setdest 50.0 50.0 5.0"
$ns_ at 10.0 "$node_(0) setdest 100.0 0.0 10.0"
$ns_ at 12.5 "$god_ set-dist 0 1 2"
$ns_ at 40 "$node_(0) setdest 50 0 0"
$ns_ at 50.000000000000 "$node_(0) setdest 50 20 3.0"
"""


def ns2_hand_position(t):
    """Node 0 of NS2_HAND in closed form: still until 10 s; east at 10 m/s
    towards (100, 0); redirected at 15 s, from (50, 0), north at 5 m/s to
    (50, 50), there at 25 s; a pause (speed 0 at 40 s changes nothing);
    south at 3 m/s from 50 s to (50, 20), there at 60 s, then still."""
    if t <= 10:
        return (0.0, 0.0)
    if t <= 15:
        return (10.0 * (t - 10), 0.0)
    if t <= 25:
        return (50.0, 5.0 * (t - 15))
    if t <= 50:
        return (50.0, 50.0)
    if t <= 60:
        return (50.0, 50.0 - 3.0 * (t - 50))
    return (50.0, 20.0)


def write(path, text):
    """Write text to path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def close(a, b, tol=1e-9):
    """Two points within tol metres of each other."""
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def test_ns2_positions():
    """ns-2 setdest: positions point by point against a closed form."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "hand.ns")
        write(path, NS2_HAND)
        scn = ahs.load(path, {"range": 250.0, "step": 0.25})
        expect(scn.duration == 60, f"duration {scn.duration} (last arrival"
               " is at 60 s)")
        expect([n.name for n in scn.nodes] == ["n0", "n1"],
               f"names {[n.name for n in scn.nodes]}")
        run = ahs.simulate(scn)
        for t, pos in zip(run.times, run.positions):
            want = ns2_hand_position(t)
            expect(close(pos[0], want), f"n0 at {t} s: {pos[0]}, not {want}")
            expect(pos[1] == (200.0, 0.0), f"n1 moved: {pos[1]} at {t} s")
        track = scn.nodes[0].track
        for t in (0, 9.99, 12.345, 17.3, 24.999, 33.3, 50.5, 59.9, 61, 1e6):
            want = ns2_hand_position(t)
            expect(close(track.position(t), want),
                   f"n0 at {t} s: {track.position(t)}, not {want}")


def test_ns2_traces():
    """An ns-2 file on the command line: traces, nodes.txt, links.tsv."""
    with tempfile.TemporaryDirectory() as d:
        path, out = os.path.join(d, "hand.tcl"), os.path.join(d, "out")
        write(path, NS2_HAND)
        code, err = run_main(["traces", path, out, "--range", "190",
                              "--edge", "150", "--mac-base",
                              "02:00:00:00:01:00", "--time-scale", "2"])
        expect(code == 0, f"exit {code}: {err}")
        files = sorted(os.listdir(out))
        expect(files == ["links.tsv", "n0.trace", "n1.trace", "nodes.txt"],
               f"files {files}")
        expect(read(os.path.join(out, "nodes.txt"))
               == "n0 02:00:00:00:01:01\nn1 02:00:00:00:01:02\n", "nodes.txt")
        check_links(read(os.path.join(out, "links.tsv")), ["n0", "n1"])
        # n1's trace from n0's closed-form distance to (200, 0), sampled
        # every 0.5 s; trace time is scenario time / 2
        want, mac0 = [], bytes.fromhex("020000000101")
        for k in range(121):
            t = k * 0.5
            loss = ahs.link_loss(math.dist(ns2_hand_position(t), (200, 0)),
                                 190.0, 150.0)
            entries = [] if loss == 0 else \
                [(mac0, None if loss == 100 else loss)]
            if not want or want[-1][1] != entries:
                want.append((round(t * 500), entries))
        steps = validate_trace(read(os.path.join(out, "n1.trace")))
        expect(steps == want, f"n1's steps {steps}, want {want}")
        expect(len(steps) > 5, f"{len(steps)} steps")


def bm_write(d, name, text, params=None):
    """A BonnMotion file (gzipped if name ends in .gz) and its .params."""
    path = os.path.join(d, name)
    if name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(text)
    else:
        write(path, text)
    if params is not None:
        base = name.split(".movements")[0]
        write(os.path.join(d, base + ".params"), params)
    return path


def test_bonnmotion_positions():
    """BonnMotion .movements: 2-D, 3-D ('#3D' or z= in .params), gzip."""
    two = "0.0 0.0 0.0 10.0 100.0 0.0 20.0 100.0 50.0\n5 7 7\n"
    three = "0.0 0.0 0.0 1.0 10.0 100.0 0.0 2.0 20.0 100.0 50.0 3.0\n" \
        "5 7 7 0\n"
    want = {0: (0, 0), 2.5: (25, 0), 10: (100, 0), 15: (100, 25),
            20: (100, 50), 99: (100, 50)}
    with tempfile.TemporaryDirectory() as d:
        cases = (bm_write(d, "a.movements", two),
                 bm_write(d, "b.movements.gz", two, "model=RandomWaypoint\n"
                          "duration=30.0\nx=100.0\ny=50.0\n"),
                 bm_write(d, "c.movements", "#3D\n" + three),
                 bm_write(d, "e.movements.gz", three,
                          "x=100.0\ny=50.0\nz=3.0\nduration=30.0\n"))
        for path in cases:
            scn = ahs.load(path, {"range": 250.0})
            name = os.path.basename(path)
            expect(len(scn.nodes) == 2, f"{name}: {len(scn.nodes)} nodes")
            expect(scn.duration == (30 if ".gz" in path else 20),
                   f"{name}: duration {scn.duration}")
            for t, p in want.items():
                got = scn.nodes[0].track.position(t)
                expect(close(got, p), f"{name}: n0 at {t} s: {got}, not {p}")
            for t in (0, 4, 5, 50):
                got = scn.nodes[1].track.position(t)
                expect(got == (7, 7), f"{name}: n1 at {t} s: {got}")


def test_movement_toml():
    """A TOML file naming a movement file (relative to it) plus a fixed
    node; options override its keys."""
    with tempfile.TemporaryDirectory() as d:
        write(os.path.join(d, "hand.ns"), NS2_HAND)
        path = os.path.join(d, "m.toml")
        write(path, 'movement = "hand.ns"\nrange = 250\nedge = 200\n'
              'time_scale = 10\n[[node]]\nname = "E1"\nposition = [0, 300]\n')
        scn = ahs.load(path)
        names = [(n.name, n.mac, n.kind) for n in scn.nodes]
        expect(names == [("n0", "02:00:00:00:00:01", "ns-2"),
                         ("n1", "02:00:00:00:00:02", "ns-2"),
                         ("E1", "02:00:00:00:00:03", "fixed")],
               f"nodes {names}")
        expect(scn.duration == 60 and scn.range == 250, "duration, range")
        scn = ahs.load(path, {"range": 100.0, "edge": 50.0})
        expect(scn.range == 100 and scn.edge == 50, "--range, --edge")
        write(path, 'movement = "hand.txt"\nmovement_format = "ns2"\n'
              'range = 250\nduration = 5\n')
        write(os.path.join(d, "hand.txt"), NS2_HAND)
        expect(ahs.load(path).duration == 5, "movement_format, duration")
        scn = ahs.load("rwp:nodes=3,area=100x100,speed=1-2,duration=20,"
                       "seed=7", {"range": 250.0})
        expect(scn.seed == 7 and len(scn.nodes) == 3 and scn.duration == 20,
               f"rwp: seed {scn.seed}, {len(scn.nodes)} nodes")


NS2_HEAD = "$node_(0) set X_ 1\n$node_(0) set Y_ 2\n"
BAD_MOVEMENTS = (
    ("a.ns", NS2_HEAD + "foo bar\n", 3, "not an ns-2 movement line"),
    ("a.ns", "$node_(x) set X_ 1\n", 1, "is not $node_(i)"),
    ("a.ns", "$node_(0) set W_ 1\n", 1, "set X_|Y_|Z_"),
    ("a.ns", "$node_(0) set X_ abc\n", 1, "'abc' is not a number"),
    ("a.ns", "$node_(0) set X_ nan\n", 1, "'nan' is not a number"),
    ("a.ns", "$node_(0) set X_ 1e999\n", 1, "out of range"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) setdest 3 4"\n', 3,
     "setdest needs X Y SPEED"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) setdest 3 4 5 6"\n', 3,
     "setdest needs X Y SPEED"),
    ("a.ns", NS2_HEAD + '$ns_ at -1 "$node_(0) setdest 3 4 5"\n', 3,
     "negative"),
    ("a.ns", NS2_HEAD + '$ns_ at NaN "$node_(0) setdest 3 4 5"\n', 3,
     "is not a number"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) setdest 3 4 -5"\n', 3,
     "speed -5 is negative"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) setdest 3 y 5"\n', 3,
     "setdest Y: 'y' is not a number"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(1) setdest 3 4 5"\n', 3,
     "$node_(1) moves before its set X_ and set Y_"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) setdest 3 4 5"\n'
     "$node_(1) set X_ 1\n$node_(1) set Y_ 1\n"
     '$ns_ at 0 "$node_(1) setdest 3 4 5"\n', None, None),
    ("a.ns", NS2_HEAD + "$node_(0) set X_ 3\n", 3, "set X_ again (first on "
     "line 1)"),
    ("a.ns", NS2_HEAD + "$node_(1) set X_ 3\n", 3, "$node_(1) has no set Y_"),
    ("a.ns", NS2_HEAD + "$node_(2) set X_ 3\n$node_(2) set Y_ 3\n", 3,
     "no $node_(1)"),
    ("a.ns", NS2_HEAD + "$node_(5000) set X_ 3\n", 3, "out of range"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 "$node_(0) set X_ 5"\n', 3,
     "unknown command"),
    ("a.ns", NS2_HEAD + '$ns_ at 1 $node_(0) setdest 3 4 5\n', 3,
     "one quoted command"),
    ("a.ns", NS2_HEAD + '$ns_ 1 "$node_(0) setdest 3 4 5"\n', 3,
     "$ns_ at TIME"),
    ("a.ns", "# nothing\n", 0, "no nodes"),
    ("b.movements", "0 1 2 5 3 4 1\n", 1, "7 numbers: not a whole number "
     "of time x y triples"),
    ("b.movements", "0 1 2\n0 1 2 5 3 4 3 1 1\n", 2, "time 3 is before "
     "the previous waypoint's (5)"),
    ("b.movements", "0 1 2\n0 1 x\n", 2, "y: 'x' is not a number"),
    ("b.movements", "-1 1 2\n", 1, "time -1 is negative"),
    ("b.movements", "0 1 2\n\n0 1 2\n", 2, "an empty line"),
    ("b.movements", "#3D\n0 1 2 3 4 5\n", 2, "not a whole number of time "
     "x y z quadruples"),
    ("b.movements", "# only a comment\n", 0, "no nodes"),
)


def run_main(args):
    """ah-scenario's main(args) in this process: (exit code, stderr)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(io.StringIO()):
        code = ahs.main(args)
    return code, err.getvalue()


def test_movement_errors():
    """Bad movement files: 'FILE:LINE: message', exit 2, OUTDIR empty."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        os.mkdir(out)
        for name, text, line, msg in BAD_MOVEMENTS:
            path = os.path.join(d, name)
            write(path, text)
            code, err = run_main(["traces", path, out, "--range", "250",
                                  "--duration", "10"])
            if msg is None:
                expect(code == 0, f"{text!r}: exit {code}: {err}")
                for f in os.listdir(out):
                    os.remove(os.path.join(out, f))
                continue
            expect(os.listdir(out) == [], f"{text!r}: wrote {os.listdir(out)}")
            where = f"{path}:{line}: " if line else f"{path}: "
            expect(code == 2, f"{text!r}: exit {code}")
            expect(err.startswith("ah-scenario: " + where) and msg in err
                   and len(err.splitlines()) == 1,
                   f"{text!r}: {err!r}, want {where!r} and {msg!r}")


BAD_OPTIONS = (
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9"], "--range METRES is "
     "required"),
    (["rwp:nodes=2,area=9,speed=1-2,duration=9", "--range", "9"],
     "area: '9' is not WIDTHxHEIGHT"),
    (["rwp:nodes=2,area=9x9,speed=0-2,duration=9", "--range", "9"],
     "speed: '0-2'"),
    (["rwp:nodes=2,area=9x9,speed=3-2,duration=9", "--range", "9"],
     "speed: '3-2'"),
    (["rwp:nodes=2,area=9x9,speed=1-2,pause=-1-3,duration=9", "--range",
      "9"], "pause: '-1-3'"),
    (["rwp:nodes=0,area=9x9,speed=1-2,duration=9", "--range", "9"],
     "nodes: '0'"),
    (["rwp:nodes=2,area=9x9,speed=1-2", "--range", "9"],
     "missing key 'duration'"),
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9,sed=1", "--range", "9"],
     "'sed=1' is not KEY=VALUE"),
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9,seed=x", "--range", "9"],
     "seed: 'x'"),
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9", "--range", "9",
      "--edge", "10"], "edge"),
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9", "--range", "-9"],
     "--range: -9 must be a number > 0"),
    (["rwp:nodes=2,area=9x9,speed=1-2,duration=9", "--range", "9",
      "--mac-base", "01:00:00:00:00:00"], "mac_base"),
)


def test_movement_option_errors():
    """rwp: specs and the radio options: one line, exit 2, nothing written."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        for args, msg in BAD_OPTIONS:
            code, err = run_main(["traces", args[0], out] + args[1:])
            expect(code == 2 and msg in err and len(err.splitlines()) == 1,
                   f"{args}: exit {code}, {err!r} lacks {msg!r}")
            expect(not os.path.exists(out), f"{args}: wrote {out}")
        write(os.path.join(d, "still.ns"), NS2_HEAD)
        code, err = run_main(["summary", os.path.join(d, "still.ns"),
                              "--range", "9"])
        expect(code == 2 and "--duration" in err, f"no motion: {err!r}")


RWP = "rwp:nodes=20,area=1000x200,speed=2-10,pause=5-20,duration=2000,seed={}"


def test_rwp_deterministic():
    """rwp: the same seed gives the same bytes, another seed others; a
    longer run starts as the shorter one."""
    with tempfile.TemporaryDirectory() as d:
        outs = []
        for n, seed in enumerate((1, 1, 2)):
            outs.append(os.path.join(d, str(n)))
            code, err = run_main(["traces", RWP.format(seed), outs[-1],
                                  "--range", "250", "--duration", "300"])
            expect(code == 0, f"seed {seed}: exit {code}: {err}")
        files = sorted(os.listdir(outs[0]))
        expect(len(files) == 22, f"{len(files)} files")
        texts = [{f: read(os.path.join(o, f)) for f in files} for o in outs]
        expect(texts[0] == texts[1], "seed 1 twice: files differ")
        other = [texts[0][f] == texts[2][f] for f in files
                 if f.endswith(".trace")]
        expect(not any(other), "seed 2: a trace like seed 1's")
    long_ = ahs.generate_rwp(RWP.format(3))[0]
    short = ahs.generate_rwp(RWP.format(3).replace("2000", "500"))[0]
    for a, b in zip(long_, short):
        for t in range(0, 501, 5):
            expect(close(a.position(t), b.position(t), 1e-6), f"{t} s: "
                   "2000 s run differs from 500 s run")


def test_rwp_bounds():
    """rwp: inside the area, speeds and pauses within their ranges."""
    tracks, duration, seed = ahs.generate_rwp(RWP.format(5))
    expect(len(tracks) == 20 and duration == 2000 and seed == 5,
           f"{len(tracks)} tracks, {duration} s, seed {seed}")
    speeds, pauses = [], []
    for tr in tracks:
        expect(tr.times[0] == 0 and tr.times[-1] == 2000,
               f"track from {tr.times[0]} to {tr.times[-1]}")
        expect(all(0 <= x <= 1000 and 0 <= y <= 200 for x, y in tr.points),
               "a waypoint outside the area")
        for i in range(len(tr.times) - 1):
            (t0, a), (t1, b) = (tr.times[i], tr.points[i]), \
                (tr.times[i + 1], tr.points[i + 1])
            expect(t1 > t0, f"time goes back or jumps at {t0}")
            if a != b:
                speeds.append(math.dist(a, b) / (t1 - t0))
            elif t1 < 2000 and i > 0:
                pauses.append(t1 - t0)
            elif i == 0:
                expect(5 <= t1 - t0 <= 20, f"first pause {t1 - t0}")
    expect(all(2 - 1e-9 <= v <= 10 + 1e-9 for v in speeds),
           f"speeds {min(speeds)}..{max(speeds)}")
    expect(all(5 - 1e-9 <= p <= 20 + 1e-9 for p in pauses),
           f"pauses {min(pauses)}..{max(pauses)}")
    expect(len(speeds) > 100 and len(pauses) > 100,
           f"{len(speeds)} legs, {len(pauses)} pauses")
    expect(max(speeds) - min(speeds) > 6 and max(pauses) - min(pauses) > 10,
           "speeds or pauses hardly vary")
    run = ahs.simulate(ahs.load(RWP.format(5), {"range": 250.0}))
    expect(all(0 <= x <= 1000 and 0 <= y <= 200
               for pos in run.positions for x, y in pos), "a sample outside")


def test_export_roundtrip():
    """export: rwp as ns-2 and BonnMotion files reads back the same."""
    spec = RWP.format(9).replace("2000", "600")
    tracks = ahs.generate_rwp(spec)[0]
    with tempfile.TemporaryDirectory() as d:
        for name in ("r.ns", "r.movements", "r.movements.gz"):
            path = os.path.join(d, name)
            code, err = run_main(["export", spec, path])
            expect(code == 0, f"{name}: exit {code}: {err}")
            scn = ahs.load(path, {"range": 250.0})
            expect(len(scn.nodes) == 20 and abs(scn.duration - 600) < 1e-6,
                   f"{name}: {len(scn.nodes)} nodes, {scn.duration} s")
            for tr, node in zip(tracks, scn.nodes):
                for t in range(0, 601, 3):
                    expect(close(tr.position(t), node.track.position(t),
                                 1e-6), f"{name}: {t} s: "
                           f"{tr.position(t)} != {node.track.position(t)}")
        text = read(os.path.join(d, "r.ns"))
        expect(text.count("set X_") == 20 and "setdest" in text, "r.ns")


TESTS = (test_fixed_distances, test_loss_model, test_moving_past_fixed,
         test_validator_rejects, test_cmu_traces_valid,
         test_validation_errors, test_cli_errors, test_deterministic,
         test_speed_per_lap, test_cmu_summary, test_ns2_positions,
         test_ns2_traces, test_bonnmotion_positions, test_movement_toml,
         test_movement_errors, test_movement_option_errors,
         test_rwp_deterministic, test_rwp_bounds, test_export_roundtrip)


def run_test(n, test):
    """Run one test, print its KTAP result; True if it passed."""
    desc = test.__doc__.split("\n")[0].rstrip(".")
    try:
        test()
    except Exception as e:  # noqa: BLE001 - any failure is a "not ok"
        for line in f"{type(e).__name__}: {e}".splitlines():
            print(f"# {line}")
        print(f"not ok {n} {desc}")
        return False
    print(f"ok {n} {desc}")
    return True


def main():
    """KTAP: the plan, one result per test; exit 1 if any failed."""
    print("KTAP version 1")
    print(f"1..{len(TESTS)}")
    results = [run_test(n, t) for n, t in enumerate(TESTS, 1)]
    failed = results.count(False)
    print(f"# {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
