#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of tools/ah-scenario (docs/scenario.md), in KTAP.

    /usr/bin/python3 tests/unit/test_scenario.py

The tool is imported as a module; its traces are checked by a validator
that follows userspace/common/trace.c (trace(5)) rule by rule, without
needing the C code built.  Exits 1 if any test fails.
"""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.normpath(os.path.join(HERE, "..", "..", "tools",
                                     "ah-scenario"))

TRACE_MAX_STEPS = 100000
TRACE_MAX_TIME_MS = 7 * 24 * 3600 * 1000
TRACE_MAX_ENTRIES = 65536
TRACE_LINE_MAX = 1 << 20


def load_tool():
    """tools/ah-scenario as a module (its main() does not run), without
    leaving a __pycache__ behind."""
    sys.dont_write_bytecode = True
    loader = importlib.machinery.SourceFileLoader("ah_scenario", TOOL)
    spec = importlib.util.spec_from_loader("ah_scenario", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


ahs = load_tool()


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


TESTS = (test_fixed_distances, test_loss_model, test_moving_past_fixed,
         test_validator_rejects, test_cmu_traces_valid,
         test_validation_errors, test_cli_errors, test_deterministic,
         test_speed_per_lap, test_cmu_summary)


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
