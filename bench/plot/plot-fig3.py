#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seed 000 Figure 3 from bench/fig3.sh: the CPU load of router R against
the packet rate, for 100, 500 and 1500-byte packets, when R forwards the
flow, when its firewall drops it, and when the transit engine drops it
after reading 34 bytes off the (simulated) PIO card.

    bench/plot/plot-fig3.py DIR OUT.png

DIR/points: "case size rate load_percent ns_per_packet frames ns" per
line."""
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CASES = (("forward", "forwarded"), ("firewall", "dropped by nftables"),
         ("early", "dropped early by the learned hook"))


def main():
    d, out = sys.argv[1], sys.argv[2]
    pts = defaultdict(list)
    with open(f"{d}/points") as f:
        for line in f:
            c, size, rate, load = line.split()[:4]
            pts[(c, int(size))].append((int(rate), float(load)))
    fig, axes = plt.subplots(1, 3, figsize=(12, 4), sharey=True)
    for ax, (c, title) in zip(axes, CASES):
        for size in sorted({s for cc, s in pts if cc == c}):
            rows = sorted(pts[(c, size)])
            ax.plot([r for r, _ in rows], [ld for _, ld in rows], "o-",
                    label=f"{size} B")
        ax.set_title(title)
        ax.set_xlabel("packets/s")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    axes[0].set_ylabel("CPU load at R (% of one CPU)")
    fig.tight_layout()
    fig.savefig(out, dpi=100)


if __name__ == "__main__":
    main()
