#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Plots of bench/streams.sh (issue 7), on the host:

    plot-streams.py DATA_DIR OUT_DIR

DATA_DIR is build/bench-streams (1k, m1, video-*.txt); writes
streams-1k.png, streams-loss.png, streams-m1.png and streams-jitter.png
into OUT_DIR.
"""
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path) as f:
        return [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]


def plot_1k(data, out, cap):
    r = rows(os.path.join(data, "1k"))
    fig, ax = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for i, adu in enumerate(("1024", "8192")):
        sel = [x for x in r if x[1] == adu]
        k = [int(x[0]) for x in sel]
        ax[i].plot(k, [float(x[2]) for x in sel], "o-", label="TCP")
        ax[i].plot(k, [float(x[8]) for x in sel], "s-",
                   label="UDP at the channel rate (no flow control)")
        ax[i].plot(k, [float(x[6]) for x in sel], "^-",
                   label="UDP paced to TCP's rate (flow control)")
        kk = [x / 10 for x in range(10, 41)]
        ax[i].plot(kk, [cap / x for x in kk], "k:", label="C / k")
        ax[i].set_title(f"1:k over DSR, ADU {int(adu) // 1024} KB")
        ax[i].set_xlabel("hops k (transmitters in one range)")
        ax[i].set_xticks([1, 2, 3, 4])
        ax[i].grid(alpha=0.3)
    ax[0].set_ylabel("goodput, Mbit/s")
    ax[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "streams-1k.png"), dpi=90)


def plot_loss(data, out):
    r = rows(os.path.join(data, "1k"))
    fig, ax = plt.subplots(figsize=(6, 4))
    w = 0.2
    for j, adu in enumerate(("1024", "8192")):
        sel = [x for x in r if x[1] == adu]
        k = [int(x[0]) for x in sel]
        ax.bar([x + (2 * j - 1.5) * w for x in k], [float(x[9]) for x in sel],
               w, label=f"no flow control, {int(adu) // 1024} KB")
        ax.bar([x + (2 * j - 0.5) * w for x in k], [float(x[7]) for x in sel],
               w, label=f"paced, {int(adu) // 1024} KB")
    ax.set_xlabel("hops k")
    ax.set_ylabel("UDP loss, %")
    ax.set_xticks([1, 2, 3, 4])
    ax.set_title("UDP loss with and without source flow control")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "streams-loss.png"), dpi=90)


def plot_m1(data, out):
    r = rows(os.path.join(data, "m1"))
    fig, ax = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for i, proto in enumerate(("tcp", "udp")):
        for x in r:
            if x[1] != proto:
                continue
            m = int(x[0])
            flows = x[3:3 + m]
            ax[i].scatter([m] * m, [float(f) for f in flows], s=18)
            ax[i].annotate(f"J={x[2]}", (m, max(float(f) for f in flows)),
                           textcoords="offset points", xytext=(4, 6),
                           fontsize=7)
        ax[i].set_title(f"m:1, one hop each, {proto.upper()}")
        ax[i].set_xlabel("simultaneous flows m")
        ax[i].set_xticks([1, 2, 3, 4])
        ax[i].grid(alpha=0.3)
    ax[0].set_ylabel("per-flow goodput, Mbit/s")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "streams-m1.png"), dpi=90)


def plot_jitter(data, out):
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, label in (("video-alone.txt", "alone"),
                        ("video-tcp-tos0.txt", "with TCP"),
                        ("video-tcp-tos0x10.txt", "with TCP, video TOS low delay"),
                        ("video-tcp-nocd.txt", "with TCP, congestion_drop 0")):
        p = os.path.join(data, name)
        if not os.path.exists(p):
            continue
        d = [int(x[1]) / 1000 for x in rows(p)]
        if not d:
            continue
        # seed 000 Fig 1 normalised to the first packet's delay; with TCP
        # already running that one queued too, so: above the smallest
        base = min(d)
        v = sorted(x - base for x in d)
        ax.plot(v, [(i + 1) / len(v) for i in range(len(v))], label=label)
    ax.set_xlabel("one-way delay above the stream's smallest, ms"
                  " (the longest: in the table)")
    ax.set_xlim(0, 250)
    ax.set_ylabel("cumulative fraction of datagrams received")
    ax.set_title("4 Mbit/s VBR stream over 3 hops")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "streams-jitter.png"), dpi=90)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data, out = sys.argv[1], sys.argv[2]
    cap = 22.0
    capf = os.path.join(data, "air")
    if os.path.exists(capf):
        with open(capf) as f:
            cap = float(f.read().split()[0])
    plot_1k(data, out, cap)
    plot_loss(data, out)
    plot_m1(data, out)
    plot_jitter(data, out)


if __name__ == "__main__":
    main()
