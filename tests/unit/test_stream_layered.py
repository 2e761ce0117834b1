#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the layered video multicast of selftests/lib/stream.py
(layered-send, layered-recv, flood-relay), in KTAP.

    /usr/bin/python3 tests/unit/test_stream_layered.py

The packetisation, the frames' levels, the adaptation, flood-relay's
duplicate detection and join_to_first_ms are pure functions, checked
against numbers worked out by hand.  A unicast layered-send to a
layered-recv --join on 127.0.0.1 needs no namespace; the multicast one
sends and receives on the loopback of a network namespace of its own
(unshare -rn: no root needed where user namespaces are allowed; skipped
where they are not).  flood-relay itself (an AF_PACKET socket) is not
run here.  Exits 1 if any test fails.
"""
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
import ktap  # noqa: E402
from ktap import Skip, eq  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.normpath(os.path.join(HERE, "..", "..", "selftests", "lib"))
TOOL = os.path.join(LIB, "stream.py")

st = ktap.load_tool("stream", TOOL, LIB)     # stream.py imports udp


def book_of(rows):
    """a FrameBook fed (frame, layer, index, count) rows of 100 bytes"""
    b = st.FrameBook()
    for fno, layer, idx, count in rows:
        b.add(fno, layer, idx, count, 100)
    return b


def whole(fno, layer, count):
    return [(fno, layer, i, count) for i in range(count)]


# ---- sender -----------------------------------------------------------------


def test_rates():
    """RATES: one value for every layer, or one per layer"""
    eq("one for all", st.layer_rates("100000", 3), [100000.0] * 3)
    eq("per layer", st.layer_rates("64000,128000", 2), [64000.0, 128000.0])
    for bad, n in (("1,2", 3), ("1,2,3", 2), ("0", 2), ("100,-1", 2)):
        try:
            st.layer_rates(bad, n)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} for {n} layers accepted")


def test_packetise():
    """a (frame, layer) cut into datagrams of at most 1200 bytes"""
    # 100 kbit/s at 15 frames/s: 833 bytes a frame, one datagram
    eq("100k", st.packetise(round(100000 / 8 / 15)), [833])
    # 1 Mbit/s: 8333 bytes, six full and 1133
    eq("1M", st.packetise(round(1e6 / 8 / 15)), [1200] * 6 + [1133])
    # a multiple of 1200: no empty tail
    eq("9600", st.packetise(9600), [1200] * 8)
    eq("1201", st.packetise(1201), [1200, st.LHDR.size])
    # never shorter than the header
    eq("tiny", st.packetise(3), [st.LHDR.size])
    eq("header", st.LHDR.size, 18)


def test_frame_sizes():
    """per-frame bytes: constant without a seed, log-normal with one"""
    sz = st.layer_frame_sizes([120000, 240000], 15, 4)
    eq("cbr", sz, [[1000, 2000]] * 4)
    a = st.layer_frame_sizes([120000, 240000], 15, 300, seed=7)
    b = st.layer_frame_sizes([120000, 240000], 15, 300, seed=7)
    eq("seeded: the same twice", a, b)
    if a == st.layer_frame_sizes([120000, 240000], 15, 300, seed=8):
        raise AssertionError("seeds 7 and 8 alike")
    mean = sum(f[0] for f in a) / len(a)
    if not 950 <= mean <= 1050:
        raise AssertionError(f"seeded mean {mean}, want about 1000")
    for f in a:     # every layer scaled alike
        if abs(f[1] - 2 * f[0]) > 1:
            raise AssertionError(f"layers scaled apart: {f}")


def test_schedule():
    """a frame's datagrams: every layer's, each spread over the frame"""
    # layers of 1, 2 and 4 datagrams
    sched = st.frame_schedule([800, 2000, 4400])
    eq("datagrams", len(sched), 7)
    eq("order", [(lv, i) for lv, i, _, _ in sched],
       [(0, 0), (1, 0), (2, 0), (2, 1), (1, 1), (2, 2), (2, 3)])
    for layer, size in enumerate([800, 2000, 4400]):
        mine = [r for r in sched if r[0] == layer]
        eq(f"layer {layer} counts", {r[2] for r in mine}, {len(mine)})
        eq(f"layer {layer} bytes", sum(r[3] for r in mine), size)
        if max(r[3] for r in mine) > 1200:
            raise AssertionError(f"layer {layer}: a datagram over 1200")


def test_header():
    """the tag byte at offset 0, the layer in its low 7 bits"""
    pkt = st.layer_packet(299, 5, 2, 3, 1200, 123456789)
    eq("length", len(pkt), 1200)
    eq("tag", pkt[0] & 0x7f, 5)
    eq("header", st.layer_header(pkt), (299, 5, 2, 3, 123456789))
    eq("layer 127", st.layer_packet(0, 127, 0, 1, 18, 0)[0], 127)
    eq("short", st.layer_header(pkt[:17]), None)
    bad = bytes([6]) + pkt[1:]
    eq("tag and layer differ", st.layer_header(bad), None)
    eq("index past count",
       st.layer_header(st.layer_packet(1, 0, 3, 3, 18, 0)), None)


# ---- receiver ---------------------------------------------------------------


def test_levels():
    """a frame's level: its whole layers from 0 up"""
    rows = []
    rows += whole(0, 0, 2) + whole(0, 1, 3) + whole(0, 2, 1)   # level 3
    rows += whole(1, 1, 3) + whole(1, 2, 1)     # no base layer: 0
    rows += whole(2, 0, 2) + whole(2, 1, 3)[:2] + whole(2, 2, 1)  # gap: 1
    rows += whole(3, 0, 2)[1:]                  # base layer short: 0
    rows += whole(4, 0, 2) + whole(4, 1, 3)     # level 2
    b = book_of(rows)
    eq("levels", [st.frame_level(b.frames[f]) for f in range(5)],
       [3, 0, 1, 0, 2])
    s = b.summary()
    eq("frames_seen", s["frames_seen"], 5)
    eq("frames_decodable", s["frames_decodable"], 3)
    eq("levels", s["levels"], {"0": 2, "1": 1, "2": 1, "3": 1})
    eq("highest", s["highest_layer"], 2)
    json.dumps(s)


def test_duplicates():
    """a datagram that arrives twice counts once, and as a duplicate"""
    rows = whole(0, 0, 2) + whole(0, 0, 2) + [(0, 1, 0, 1)] * 3
    b = book_of(rows)
    s = b.summary()
    eq("received", s["received"], 3)
    eq("bytes", s["bytes"], 300)
    eq("duplicates", s["duplicates"], 4)
    eq("per layer", s["per_layer"],
       [{"layer": 0, "packets": 2, "bytes": 200},
        {"layer": 1, "packets": 1, "bytes": 100}])
    eq("level", st.frame_level(b.frames[0]), 2)
    # a duplicate does not make a short layer whole
    b = book_of([(1, 0, 0, 2), (1, 0, 0, 2)])
    eq("short with a duplicate", st.frame_level(b.frames[1]), 0)


def test_empty():
    """nothing received"""
    s = st.FrameBook().summary()
    eq("empty", s, {"received": 0, "bytes": 0, "duplicates": 0,
                    "per_layer": [], "frames_seen": 0,
                    "frames_decodable": 0, "levels": {},
                    "highest_layer": -1, "last_frame": -1})
    eq("period", st.FrameBook().period(2), (0, 0))


def test_period_loss():
    """a period's loss: the headers' counts, a lost (frame, layer) as its
    layer's last, a lost frame whole; judged once 3 later frames came"""
    rows = []
    for f in (10, 11, 13, 14, 15, 16):      # frame 12 lost whole
        rows += whole(f, 0, 2) + whole(f, 1, 3)
    rows.remove((11, 1, 1, 3))              # one of layer 1 lost
    rows = [r for r in rows if r[:2] != (14, 1)]    # all of 14's layer 1
    b = book_of(rows)
    # newest 16: frames 10..13 judged, over layers 0 and 1
    eq("period", b.period(2), (4 * 5, 5 + 4 + 0 + 5))
    eq("judged", b.judged, 13)
    # nothing new: nothing judged
    eq("again", b.period(2), (0, 0))
    for r in whole(17, 0, 2) + whole(17, 1, 3):
        b.add(*r, 100)
    # frame 14: layer 1 expected with 3 (its last count), none came
    eq("layer lost", b.period(2), (5, 2))
    # over layer 0 only, a later frame
    b.add(18, 0, 0, 2, 100)
    eq("base only", b.period(1), (2, 2))
    # a layer never seen is expected with one datagram a frame
    eq("unknown layer", st.frame_loss({0: (2, {0, 1})}, 3, {0: 2}), (4, 2))


def test_adapt_step():
    """algorithm_adapt: loss above 5 % drops one, 3 clean periods add one"""
    eq("drop", st.adapt_step(4, 0.06, 2, 1, 8), (3, 0))
    eq("5 % exactly holds", st.adapt_step(4, 0.05, 2, 1, 8), (4, 0))
    eq("small loss resets", st.adapt_step(4, 0.01, 2, 1, 8), (4, 0))
    eq("not below 1", st.adapt_step(1, 0.9, 0, 1, 8), (1, 0))
    eq("clean 1", st.adapt_step(4, 0.0, 0, 1, 8), (4, 1))
    eq("clean 2", st.adapt_step(4, 0.0, 1, 1, 8), (4, 2))
    eq("clean 3 raises", st.adapt_step(4, 0.0, 2, 1, 8), (5, 0))
    eq("not above max", st.adapt_step(8, 0.0, 2, 1, 8), (8, 3))


def test_adapter():
    """the receiver's level over periods: no judging right after a change
    or without datagrams expected"""
    a = st.Adapter(3, 4)
    eq("clean", [a.period(10, 10) for _ in range(3)], [None, None, 4])
    eq("settling", a.period(10, 0), None)       # not judged
    eq("at max", [a.period(10, 10) for _ in range(4)], [None] * 4)
    eq("loss", a.period(100, 90), 3)
    eq("settling again", a.period(100, 50), None)
    eq("loss again", a.period(100, 50), 2)
    a.period(1, 1)
    eq("loss", a.period(100, 50), 1)
    a.period(1, 1)
    eq("floor", a.period(100, 0), None)
    eq("level", a.level, 1)
    eq("nothing expected", a.period(0, 0), None)
    eq("clean kept", a.clean, 0)
    eq("start clamped", st.Adapter(9, 4).level, 4)


# ---- both ends on a loopback ------------------------------------------------


NETNS_SCRIPT = r"""
set -e
ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo
"$PY" "$TOOL" layered-recv 239.7.7.7 5004 12 1 --dev lo \
    --source 127.0.0.1 --layers 1 --max-layers 2 \
    --adapt "sh -c 'echo {layers} >> $D/adapt'" > "$D/recv" &
r1=$!
"$PY" "$TOOL" layered-recv 239.7.7.7 5004 12 1 --source 10.9.9.9 \
    > "$D/other" &
r2=$!
n=0
until [ "$(ss -Huln 'sport = :5004' | wc -l)" -ge 2 ]; do
    n=$((n + 1)); [ $n -lt 100 ] || exit 3; sleep 0.05
done
"$PY" "$TOOL" layered-send 239.7.7.7 5004 60 15 3 100000,200000,400000 \
    --dev lo --seed 1 > "$D/send"
wait $r1 $r2
"""


def test_loopback():
    """layered-send to layered-recv on lo, in a namespace of their own"""
    if not shutil.which("unshare") or not shutil.which("ip") or \
            not shutil.which("ss"):
        raise Skip("unshare, ip or ss missing")
    try:
        ok = subprocess.run(["unshare", "-rn", "true"], timeout=10,
                            capture_output=True).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    if not ok:
        raise Skip("unshare -rn refused (no user namespaces)")
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, PY=sys.executable, TOOL=TOOL, D=d)
        r = subprocess.run(["unshare", "-rn", "bash", "-c", NETNS_SCRIPT],
                           env=env, timeout=60, capture_output=True,
                           text=True)
        if r.returncode:
            raise AssertionError(f"exit {r.returncode}: {r.stderr.strip()}")
        with open(os.path.join(d, "send")) as f:
            snd = json.load(f)
        with open(os.path.join(d, "recv")) as f:
            rcv = json.load(f)
        with open(os.path.join(d, "other")) as f:
            oth = json.load(f)
        with open(os.path.join(d, "adapt")) as f:
            ran = f.read().split()
    eq("frames", snd["frames"], 60)
    eq("errors", snd["errors"], 0)
    eq("layers sent", [x["layer"] for x in snd["per_layer"]], [0, 1, 2])
    eq("received", rcv["received"], snd["sent"])
    eq("bytes", rcv["bytes"], snd["bytes"])
    eq("per layer", rcv["per_layer"], snd["per_layer"])
    eq("duplicates", rcv["duplicates"], 0)
    eq("frames_seen", rcv["frames_seen"], 60)
    eq("frames_decodable", rcv["frames_decodable"], 60)
    eq("levels", rcv["levels"], {"3": 60})
    eq("highest", rcv["highest_layer"], 2)
    eq("ignored", rcv["ignored"], 0)
    # three clean periods from the first datagram: one raise, to the max
    eq("adapt levels", [lv for _, lv in rcv["adapt"]], [2])
    if not 2.5 <= rcv["adapt"][0][0] <= 6:
        raise AssertionError(f"raised at {rcv['adapt'][0][0]} s")
    eq("CMD ran", ran, ["2"])
    # another source's datagrams are dropped
    eq("other source", (oth["received"], oth["ignored"]), (0, snd["sent"]))
    eq("no adapt", oth["adapt"], [])


# ---- unicast, join time, plain flooding -------------------------------------


def test_is_multicast():
    """GROUP: a multicast group is joined, a unicast address only bound"""
    eq("239.1.1.1", st.is_multicast("239.1.1.1"), True)
    eq("10.0.0.5", st.is_multicast("10.0.0.5"), False)
    eq("127.0.0.1", st.is_multicast("127.0.0.1"), False)
    eq("224.0.0.1", st.is_multicast("224.0.0.1"), True)
    eq("223.255.255.255", st.is_multicast("223.255.255.255"), False)
    eq("240.0.0.1", st.is_multicast("240.0.0.1"), False)
    try:
        st.is_multicast("dsr0")
    except ValueError:
        return
    raise AssertionError("'dsr0' taken for an address")


def test_join_ms():
    """join_to_first_ms: ms, 3 decimals; 0 if first; None if none came"""
    eq("ms", st.join_ms(100.0, 100.1234567), 123.457)
    eq("none came", st.join_ms(100.0, None), None)
    eq("there before the join", st.join_ms(100.0, 99.5), 0.0)
    # the kernel's stamp (realtime) moved to the monotonic clock
    off = 1_700_000_000 * 10 ** 9          # realtime - monotonic, ns
    ts = st.TIMESPEC.pack(1_700_000_100, 250_000_000)
    anc = [(socket.SOL_SOCKET, st.SO_TIMESTAMPNS, ts)]
    eq("stamp", st.arrival(anc, off, 101.0), 100.25)
    eq("no stamp: when read", st.arrival([], off, 101.0), 101.0)
    eq("not after it was read", st.arrival(anc, off, 100.1), 100.1)
    eq("another cmsg", st.arrival([(socket.SOL_IP, 8, ts)], off, 101.0),
       101.0)


def test_flood_key():
    """a datagram's key: its header, alike in every copy"""
    key = st.flood_key
    a = st.layer_packet(42, 2, 1, 3, 1200, 777)
    eq("a copy", key(bytes(a)), key(a))
    eq("the header", key(a), a[:st.LHDR.size])
    # the padding is not read
    eq("shorter padding", key(st.layer_packet(42, 2, 1, 3, 100, 777)),
       key(a))
    keys = {key(st.layer_packet(f, lv, i, 3, 1200, 777))
            for f in (41, 42) for lv in (1, 2) for i in (0, 1, 2)}
    eq("frame, layer, index apart", len(keys), 12)
    if key(st.layer_packet(42, 2, 2, 3, 1200, 777)) == key(a):
        raise AssertionError("another index, the same key")
    # another run's (frame, layer, index): another send time
    if key(st.layer_packet(42, 2, 1, 3, 1200, 778)) == key(a):
        raise AssertionError("another send time, the same key")


def test_flood_key_short():
    """a payload shorter than the header, or not the stream's: a digest"""
    short = b"x" * (st.LHDR.size - 1)
    k = st.flood_key(short)
    eq("the same twice", st.flood_key(bytes(short)), k)
    if st.flood_key(b"y" * (st.LHDR.size - 1)) == k:
        raise AssertionError("two short payloads, one key")
    if len(k) == st.LHDR.size:
        raise AssertionError("a digest as long as a header")
    eq("empty", st.flood_key(b""), st.flood_key(b""))
    # the tag is not the layer: not a layered datagram, the whole read
    other = bytes([6]) + st.layer_packet(1, 5, 0, 1, 100, 0)[1:]
    if st.flood_key(other) == other[:st.LHDR.size]:
        raise AssertionError("a foreign payload keyed by its first bytes")
    if st.flood_key(other) == st.flood_key(other[:-1] + b"M"):
        raise AssertionError("a foreign payload's tail not read")


def test_seen_set():
    """the seen set: new once, the oldest forgotten past its cap"""
    s = st.SeenSet(3)
    eq("new", [s.add(k) for k in (b"a", b"b", b"c")], [True] * 3)
    eq("seen", s.add(b"a"), False)
    eq("a fourth", s.add(b"d"), True)
    eq("the oldest forgotten", (b"a" in s, b"b" in s, len(s)),
       (False, True, 3))
    eq("new again", s.add(b"a"), True)
    eq("then b", (b"b" in s, b"c" in s, b"d" in s), (False, True, True))
    eq("default cap", st.SeenSet().cap, 65536)


def free_port():
    """a UDP port on 127.0.0.1 that nothing is bound to (just now)"""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def send_to(rcv, port, frames):
    """layered-send of FRAMES frames (15 a second, 2 layers of 64000
    bit/s) to 127.0.0.1:PORT, then the receiver rcv's end: (the sender's
    JSON, the receiver's); rcv killed if either fails"""
    try:
        snd = subprocess.run(
            [sys.executable, TOOL, "layered-send", "127.0.0.1", str(port),
             str(frames), "15", "2", "64000"],
            capture_output=True, text=True, timeout=120)
        eq("send exit", (snd.returncode, snd.stderr), (0, ""))
        out, err = rcv.communicate(timeout=120)
    finally:
        if rcv.poll() is None:
            rcv.kill()
            rcv.communicate()
    eq("recv exit", (rcv.returncode, err), (0, ""))
    return json.loads(snd.stdout), json.loads(out)


def test_unicast_join():
    """layered-send to a unicast layered-recv --join on 127.0.0.1"""
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        mark = os.path.join(d, "joined")
        # CMD marks the join: the socket is bound by then
        rcv = subprocess.Popen(
            [sys.executable, TOOL, "layered-recv", "127.0.0.1", str(port),
             "60", "3", "--join", "touch " + shlex.quote(mark)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            t_end = time.monotonic() + 60
            while not os.path.exists(mark):
                if rcv.poll() is not None:
                    raise AssertionError("no join: " + rcv.stderr.read())
                if time.monotonic() > t_end:
                    raise AssertionError("no join in 60 s")
                time.sleep(0.05)
        except BaseException:
            rcv.kill()
            rcv.communicate()
            raise
        snd, got = send_to(rcv, port, 5)
    # 64000 bit/s at 15 frames/s: 533 bytes, one datagram a layer
    eq("sent", (snd["sent"], snd["errors"]), (10, 0))
    eq("received", got["received"], 10)
    eq("bytes", got["bytes"], 10 * 533)
    eq("frames_decodable", got["frames_decodable"], 5)
    eq("levels", got["levels"], {"2": 5})
    eq("ignored, duplicates", (got["ignored"], got["duplicates"]), (0, 0))
    ms = got["join_to_first_ms"]
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or ms < 0:
        raise AssertionError(f"join_to_first_ms {ms!r}")


def recv_run(*args):
    """layered-recv on 127.0.0.1, a free port, for 0.2 s"""
    return subprocess.run(
        [sys.executable, TOOL, "layered-recv", "127.0.0.1",
         str(free_port()), "0.2", "1", *args],
        capture_output=True, text=True, timeout=60)


def test_unicast_refused():
    """--join CMD failing, --ssm on a unicast GROUP: exit 1 and why;
    CMD's output not in the JSON; no join, no join_to_first_ms"""
    r = recv_run("--join", "false")
    eq("CMD fails", r.returncode, 1)
    if "--join false: exit 1" not in r.stderr or r.stdout:
        raise AssertionError(f"CMD fails: {r.stdout!r} {r.stderr!r}")
    r = recv_run("--ssm", "--source", "10.0.0.1")
    eq("--ssm", r.returncode, 1)
    if "unicast" not in r.stderr:
        raise AssertionError(f"--ssm: {r.stderr!r}")
    r = recv_run("--join", "echo joining {layers}", "--layers", "2")
    eq("noisy CMD", (r.returncode, r.stderr), (0, "joining 2\n"))
    eq("nothing came", json.loads(r.stdout)["join_to_first_ms"], None)
    r = recv_run()
    eq("no --join", (r.returncode, "join_to_first_ms" in r.stdout),
       (0, False))


def test_adapt_slow_cmd():
    """the time an --adapt CMD takes is not the stream's silence: a CMD
    longer than the idle limit loses nothing that came meanwhile"""
    port = free_port()
    # level 1 of 2; CLEAN_RAISE clean periods raise it: CMD runs then
    rcv = subprocess.Popen(
        [sys.executable, TOOL, "layered-recv", "127.0.0.1", str(port),
         "60", "1", "--layers", "1", "--max-layers", "2",
         "--adapt", "sleep 2.5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1)       # bound (no --join here to say so)
    snd, got = send_to(rcv, port, 15 * (st.CLEAN_RAISE + 6))
    eq("one raise", [lv for _, lv in got["adapt"]], [2])
    eq("received all", got["received"], snd["sent"])


TESTS = [test_rates, test_packetise, test_frame_sizes, test_schedule,
         test_header, test_levels, test_duplicates, test_empty,
         test_period_loss, test_adapt_step, test_adapter, test_loopback,
         test_is_multicast, test_join_ms, test_flood_key,
         test_flood_key_short, test_seen_set, test_unicast_join,
         test_unicast_refused, test_adapt_slow_cmd]


if __name__ == "__main__":
    sys.exit(ktap.main(TESTS))
