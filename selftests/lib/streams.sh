# SPDX-License-Identifier: GPL-2.0
#
# Streams over DSR on the shared channel (issue 7), shared by
# selftests/dsr/medium.sh and bench/streams.sh.  Requires lib.sh.
#
#   chain  1 --- 2 --- ... --- k+1    hub + air_setup + macfilter line
#   star   1 .. m  --->  m+1          hub + air_setup, all in one range
#
# Every node runs dsr0 over eth0, so every hop is a DSR hop on the one
# channel (docs/medium.md).  Rates are tc units (22mbit) or bit/s.
STREAM_PY=$AH_ROOT/selftests/lib/stream.py
STREAMS_SECS=${STREAMS_SECS:-5}
STREAMS_PORT=5300

# streams_chain K RATE: k hops on a channel of RATE, route 1 -> k+1 found
streams_chain() {
	hub_setup $(($1 + 1)) >/dev/null && air_setup "$2" &&
		mf_line >/dev/null && dsr_setup || return 1
	streams_route 1 $(($1 + 1))
}

# streams_star M RATE: M senders and node M+1, one hop each, one channel
streams_star() {
	local i
	hub_setup $(($1 + 1)) >/dev/null && air_setup "$2" && dsr_setup || return 1
	for ((i = 1; i <= $1; i++)); do
		streams_route "$i" $(($1 + 1)) || return 1
	done
}

# streams_route SRC DST: a route is up (again: after an overload, a link
# may sit in hold-down for link_holddown_ms)
streams_route() {
	busywait 15000 dsr_ping_ok "$1" "$2"
}

streams_port() { STREAMS_PORT=$((STREAMS_PORT + 1)); echo "$STREAMS_PORT"; }

# tcp_run SRC DST LEN [SECS] > JSON: an iperf3 TCP flow, writes of LEN
tcp_run() {
	local p
	p=$(streams_port)
	iperf3_server "$2" "$p" || return 1
	nsexec "$1" iperf3 -c "$(node_ip "$2")" -p "$p" -l "$3" \
		-t "${4:-$STREAMS_SECS}" -J 2>/dev/null
}

# udp_run SRC DST RATE LEN [SECS] > JSON: an iperf3 UDP stream of
# datagrams of LEN at RATE (the source sends at RATE whatever happens)
udp_run() {
	local p
	p=$(streams_port)
	iperf3_server "$2" "$p" || return 1
	nsexec "$1" iperf3 -c "$(node_ip "$2")" -p "$p" -u -b "$3" -l "$4" \
		-t "${5:-$STREAMS_SECS}" -J 2>/dev/null
}

# From iperf3's JSON (the client's, which carries the receiver's sums):
tcp_mbps() { jq -r '.end.sum_received.bits_per_second / 1e6 * 1000 | floor / 1000'; }
# "goodput_mbps loss_percent": datagrams that arrived, over the sender's
# time (iperf3's own lost_percent only counts up to the highest sequence
# number that arrived, so a stream that stops is not counted lost)
udp_result() {
	jq -r '.end as $e | ($e.sum_sent.packets) as $s |
		($e.sum_received.packets - $e.sum_received.lost_packets) as $r |
		"\($r * $e.sum_sent.bytes / $s * 8 / $e.sum_sent.seconds / 1e6 * 1000 | floor / 1000) \((1 - $r / $s) * 1000 | floor / 10)"'
}

# jain X...: Jain's fairness index (sum x)^2 / (n sum x^2)
jain() {
	printf '%s\n' "$@" | awk '{ s += $1; q += $1 * $1; n++ }
		END { if (q > 0) printf "%.3f\n", s * s / (n * q); else print 0 }'
}

# video_run SRC DST RATE SECS DELAYS [TOS] > JSON: stream.py's VBR stream;
# per-datagram delays go to DELAYS; prints the receiver's JSON with "sent"
video_run() {
	local p out
	p=$(streams_port)
	out=$(mktemp)
	nsexec "$2" "$PYTHON" "$STREAM_PY" video-recv "$p" $(($4 + 15)) 2 "$5" \
		> "$out" &
	local rpid=$!
	busywait 5000 udp_listening "$2" "$p"
	local sent
	sent=$(nsexec "$1" "$PYTHON" "$STREAM_PY" video-send "$(node_ip "$2")" \
		"$p" "$4" "$(tc_rate_bits "$3")" 1 "${6:-0}" | jq .sent)
	wait "$rpid"
	jq -c --argjson s "${sent:-0}" '. + {sent: $s,
		loss_percent: (if $s > 0 then (1 - .received / $s) * 1000 | floor / 10 else 100 end)}' "$out"
	rm -f "$out"
}

# xfer_run SRC DST BYTES > JSON: one TCP transfer timed at the receiver
xfer_run() {
	local p out
	p=$(streams_port)
	out=$(mktemp)
	nsbg "$2" "$PYTHON" "$STREAM_PY" tcp-recv "$p" > "$out"
	local rpid=$!
	busywait 5000 listening "$2" "$p" || { kill "$rpid"; return 1; }
	nsexec "$1" "$PYTHON" "$STREAM_PY" tcp-send "$(node_ip "$2")" "$p" "$3"
	wait "$rpid"
	cat "$out"
	rm -f "$out"
}
