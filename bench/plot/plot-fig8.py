#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seed 004 Figure 8 (c) and (d) from bench/fig8.sh: the retransmission
timeout DSR used for each packet node A transmitted, over time: the paper's
node (hold_queued 0) without and with the queue-length heuristic, and the
defaults (the heuristic and hold_queued).

    bench/plot/plot-fig8.py DIR OUT.png

DIR holds without.rto, with.rto and hold-with.rto: "seconds try rto_ms"
per transmission (tracepoint dsr_xmit).  Retransmissions (try > 1) are
drawn as crosses."""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            try:
                rows.append((float(parts[0]), int(parts[1]), int(parts[2])))
            except ValueError:
                continue
    if rows:
        t0 = rows[0][0]
        rows = [(t - t0, tr, rto) for t, tr, rto in rows]
    return rows


def main():
    d, out = sys.argv[1], sys.argv[2]
    runs = (("without", "(c) hold_queued 0, no heuristic"),
            ("with", "(d) hold_queued 0, queue-length heuristic"),
            ("hold-with", "(e) defaults: heuristic and hold_queued"))
    fig, axes = plt.subplots(len(runs), 1, figsize=(8, 8), sharex=True,
                             sharey=True)
    for ax, (name, title) in zip(axes, runs):
        rows = load(f"{d}/{name}.rto")
        first = [(t, r) for t, tr, r in rows if tr == 1]
        again = [(t, r) for t, tr, r in rows if tr > 1]
        if first:
            ax.plot(*zip(*first), ".", ms=3, label="first transmission")
        if again:
            ax.plot(*zip(*again), "x", ms=5, color="red",
                    label=f"retransmission ({len(again)})")
        ax.set_title(f"{title}: RTO of each packet A sent")
        ax.set_ylabel("RTO (ms)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper right", fontsize=8)
    axes[1].set_xlabel("time (s)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
