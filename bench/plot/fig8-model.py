#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A model of seed 004 Figure 8 as the paper describes its node, to tell
what the queue-length heuristic alone can save (docs/dsr.md).

    bench/plot/fig8-model.py

300 echoes at 10/s; the interface queue is serviced for 10 s, then not for
3 s, again and again; a serviced queue empties at once and its packets are
acknowledged.  Each packet's RTO is fixed when it is (re)transmitted: 50 ms
(the floor; the link's RTT is far below it), plus with the heuristic 20 ms
per queued packet when more than 5 are queued, doubled per earlier
transmission, at most 2 s; three transmissions at most, and a retransmission
joins the queue behind the first copy.  The retransmission timer is served
every 50 ms.  Prints the retransmissions without and with the heuristic."""


def run(heuristic, tick=0.05, echoes=300, pps=10, on=10.0, off=3.0):
    queue, maint = [], {}
    retx, t = 0, 0.0
    sent, next_send = 0, 0.0

    def rto(tries, qlen):
        r = 0.05
        if heuristic and qlen > 5:
            r += 0.02 * qlen
        return min(r * 2 ** (tries - 1), 2.0)

    while t < echoes / pps + 2 * (on + off):
        while sent < echoes and next_send <= t + 1e-9:
            maint[sent] = {"tries": 1, "deadline": t + rto(1, len(queue))}
            queue.append(sent)
            sent += 1
            next_send += 1.0 / pps
        if t % (on + off) < on:         # serviced: sent and acknowledged
            for p in queue:
                maint.pop(p, None)
            queue = []
        for p, m in list(maint.items()):
            if t < m["deadline"]:
                continue
            if m["tries"] >= 3:
                del maint[p]
                continue
            m["tries"] += 1
            retx += 1
            m["deadline"] = t + rto(m["tries"], len(queue))
            queue.append(p)
        t += tick
    return retx


if __name__ == "__main__":
    print(f"without the heuristic: {run(False)} retransmissions "
          "(the paper: 118)")
    print(f"with the heuristic:    {run(True)} retransmissions "
          "(the paper: 16)")
