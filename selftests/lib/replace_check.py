#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The verdict of selftests/macfilter/replace.sh: no frame of the listed
source passed after its replace returned, and frames of the unlisted one
did.

    replace_check.py LOG STEPS   LOG: frames.py recv's lines "TS SRC SEQ";
                                 STEPS: "T0 T1 MAC" per replace (ns; MAC
                                 listed from T1 on), then "T 0 end";
                                 prints a "#" line, exits 1 when it fails
"""
import sys

frames = [l.split() for l in open(sys.argv[1]) if l[0].isdigit()]
steps = [l.split() for l in open(sys.argv[2])]
bad = heard = 0
for (t0, t1, mac), (n0, _, _) in zip(steps, steps[1:]):
    t1, n0 = int(t1), int(n0)
    for ts, src, seq in frames:
        if t1 < int(ts) < n0:
            if src == mac:
                bad += 1
            else:
                heard += 1
print(f"# {len(frames)} frames passed, {heard} from the unlisted source "
      f"between steps, {bad} from the listed source after its replace returned")
sys.exit(0 if bad == 0 and heard > 0 else 1)
