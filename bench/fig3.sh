#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Seed 000 Figure 3: the
# CPU load of a router R with a programmed-I/O card, for transit packets
# of 100, 500 and 1500 bytes at a range of rates, in three cases measured
# in this one run:
#   forward   R forwards the flow (the card's PIO cost twice: in and out)
#   firewall  R's nftables forward chain drops it (PIO in, then the stack)
#   early     the engine learned the drop: R reads 34 bytes and drops
#
#   S (1)                   R (2)                          D (3)
#   pio1p 10.1.0.1  ----  pio1 10.1.0.254     (engine attached to pio1)
#                         pio2 10.2.0.254  ----  pio2p 10.2.0.2
#
# piosim's word_ns (default 1000 ns per 16-bit word, an ISA/PCMCIA I/O
# cycle) makes PIO cost CPU time.  R's cost is measured by its card: the
# NAPI poll of pio1 reads each frame off the card and runs the stack on it
# synchronously, forwarding and the transmit on pio2 included, so
# rx_poll_ns / rx_frames is R's CPU time per packet and rx_poll_ns per
# second its load.  Prints a table and writes build/bench-fig3/points for
# bench/plot/plot-fig3.py ("case size rate load_percent ns_per_packet frames
# ns").
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
source "$ROOT/selftests/lib/transit.sh"
OUT=$ROOT/build/bench-fig3
SECS=${FIG3_SECS:-3}
RATES=${FIG3_RATES:-"50 100 200 300"}
SIZES="100 500 1500"

# point CASE SIZE RATE: one measurement; SIZE is the IP packet's length
point() {
	local c=$1 size=$2 rate=$3 f0 n0 f1 n1 t0 t1 cnt
	cnt=$(awk -v r="$rate" -v s="$SECS" 'BEGIN { print int(r * s) }')
	f0=$(piosim_stat $TR_R pio1 rx_frames) n0=$(piosim_stat $TR_R pio1 rx_poll_ns)
	t0=$(date +%s%N)
	tr_send $TR_DST $((size - 28)) "$cnt" "$rate" >/dev/null
	t1=$(date +%s%N)
	f1=$(piosim_stat $TR_R pio1 rx_frames) n1=$(piosim_stat $TR_R pio1 rx_poll_ns)
	awk -v c="$c" -v s="$size" -v r="$rate" -v f=$((f1 - f0)) \
	    -v n=$((n1 - n0)) -v t=$((t1 - t0)) 'BEGIN {
		printf "%s %d %d %.2f %d %d %d\n", c, s, r, n / t * 100,
			f ? n / f : 0, f, n }'
}

# mode CASE: set R up for it
mode() {
	case $1 in
	forward)
		tr_fwd_rule
		tr $TR_R set dev pio1 enable 0 ;;
	firewall)
		tr_fwd_rule ip daddr $TR_DST drop
		tr $TR_R set dev pio1 enable 0 ;;
	early)
		tr_fwd_rule ip daddr $TR_DST drop
		tr $TR_R set dev pio1 enable 1
		tr_send $TR_DST 100 20 50 >/dev/null
		busywait 5000 tr_flow_state_is $TR_SRC $TR_DST drop ||
			echo "fig3: the flow did not reach early drop" >&2 ;;
	esac
}

main() {
	local c s r line
	rm -rf "$OUT"
	mkdir -p "$OUT"
	TR_WORD_NS=${FIG3_WORD_NS:-1000} transit_setup &&
		tr_attach probe_interval_ms 5000 ||
		{ echo "fig3: set-up failed"; return 1; }
	echo "piosim word_ns $(cat /sys/module/piosim/parameters/word_ns), $SECS s per point"
	echo
	echo "| case | IP bytes | packets/s | R's CPU load % | R's CPU us per packet |"
	echo "|---|---:|---:|---:|---:|"
	for c in forward firewall early; do
		mode "$c"
		for s in $SIZES; do
			for r in $RATES; do
				line=$(point "$c" "$s" "$r")
				echo "$line" >> "$OUT/points"
				awk '{ printf "| %s | %d | %d | %.1f | %.1f |\n",
					$1, $2, $3, $4, $5 / 1000 }' <<< "$line"
			done
		done
	done
	# per-packet cost of a case and size: its time over its frames, all
	# rates together (a point's own figure varies with how many frames
	# one NAPI poll finds, which the rate decides, not the size)
	echo
	awk '{ ns[$1 " " $2] += $7; fr[$1 " " $2] += $6 }
	function c(k) { return fr[k] ? ns[k] / fr[k] : 0 }
	function r(a, b) { return c(b) ? sprintf("%.3f", c(a) / c(b)) : "n/a" }
	END {
		for (k in ns)
			printf "per-packet cost, %s B: %.1f us\n", k, c(k) / 1000 | "sort -k3,3 -k4n"
		close("sort -k3,3 -k4n")
		printf "early / firewall: 100 B %s, 500 B %s, 1500 B %s\n",
			r("early 100", "firewall 100"), r("early 500", "firewall 500"),
			r("early 1500", "firewall 1500")
		printf "early, 1500 B / 100 B: %s, 500 B / 100 B: %s; firewall, 1500 B / 100 B: %s\n",
			r("early 1500", "early 100"), r("early 500", "early 100"),
			r("firewall 1500", "firewall 100")
	}' "$OUT/points"
	echo "(target: early <= 0.10 of firewall at 1500 B, and within 1.2x across sizes)"
}

main
