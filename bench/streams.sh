#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs in the guest (scripts/bench.sh boots it).  Streaming over DSR on one
# shared channel (issue 7): the m:k-hop experiments of seed 001 (802.11a,
# 22 Mbit/s measured), the CMU lab TCP runs of seed 004 §9 (WaveLAN,
# 2 Mbit/s) and a 4 Mbit/s video-like stream with a competing TCP flow.
#
#   1:k    1 --- 2 --- ... --- k+1      k = 1..4, hub + air + macfilter line
#   m:1    1 .. m ---> m+1              m = 1..4, all in one range
#   CMU    1 --- 2 --- 3                2 Mbit/s channel; 1->2 and 1->3
#   video  1 --- 2 --- 3 --- 4          VBR 4 Mbit/s 1->4, TCP 1->4 beside it
#   hwsim  1 --- 2 --- 3 --- 4          mac80211_hwsim radios, macfilter line
#
# Tables on stdout; the data behind the plots in build/bench-streams/
# (bench/plot/plot-streams.py draws them on the host).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/selftests/lib.sh"
source "$ROOT/selftests/lib/streams.sh"
OUT=$ROOT/build/bench-streams
AIR=${STREAMS_AIR:-22mbit}		# 802.11a as seed 001 measured it
WAVELAN=${STREAMS_WAVELAN:-2mbit}	# seed 004's radios
VIDEO=${STREAMS_VIDEO:-4mbit}		# DVD quality, seed 001's yardstick
VSECS=${STREAMS_VIDEO_SECS:-20}
HOPS=${STREAMS_HOPS:-1 2 3 4}
rm -rf "$OUT"
mkdir -p "$OUT"

mbps() { awk -v b="$(tc_rate_bits "$1")" 'BEGIN { printf "%g\n", b / 1e6 }'; }
sum_drops() {	# NODE...: frames dropped at those stations' queues
	local n s=0
	for n in "$@"; do s=$((s + $(air_drops "$n"))); done
	echo "$s"
}
sum_stat() {	# STAT NODE...
	local st=$1 n s=0
	shift
	for n in "$@"; do s=$((s + $(dsr_stat "$n" "$st"))); done
	echo "$s"
}

# one_k K: every 1:k point of one chain; a line per ADU size
one_k() {
	local k=$1 n=$(($1 + 1)) adu tcp u4 fc chan d0 r0 f0 relays
	streams_chain "$k" "$AIR" || { echo "# 1:$k set-up failed"; return 1; }
	relays=$(seq 2 "$k")
	echo "# 1:$k set up at $SECONDS s"
	for adu in 1024 8192; do
		tcp=$(tcp_run 1 "$n" "$adu" | tcp_mbps)
		streams_route 1 "$n"
		u4=$(udp_run 1 "$n" "$VIDEO" "$adu" | udp_result)
		streams_route 1 "$n"
		# source flow control: paced to the bottleneck TCP just measured
		fc=$(udp_run 1 "$n" "${tcp}M" "$adu" | udp_result)
		streams_route 1 "$n"
		d0=$(sum_drops 1) r0=$(sum_drops $relays) f0=$(sum_stat link_failures $(seq 1 "$k"))
		chan=$(udp_run 1 "$n" "$AIR" "$adu" | udp_result)
		echo "$k $adu $tcp $u4 $tcp $fc $chan $(($(sum_drops 1) - d0))" \
			"$(($(sum_drops $relays) - r0))" \
			"$(($(sum_stat link_failures $(seq 1 "$k")) - f0))"
		streams_route 1 "$n"
		echo "# 1:$k ADU $adu done at $SECONDS s"
	done
}

# m_one M PROTO: M simultaneous 1-hop flows into node M+1; one line
m_one() {
	local m=$1 proto=$2 i dir rates=() losses=() j
	dir=$(mktemp -d)
	streams_star "$m" "$AIR" || { echo "# $m:1 set-up failed"; return 1; }
	for ((i = 1; i <= m; i++)); do
		iperf3_server $((m + 1)) $((5400 + i)) || return 1
	done
	for ((i = 1; i <= m; i++)); do
		if [[ $proto == tcp ]]; then
			nsexec "$i" iperf3 -c "$(node_ip $((m + 1)))" -p $((5400 + i)) \
				-l 1024 -t "$STREAMS_SECS" -J > "$dir/$i" 2>/dev/null &
		else
			nsexec "$i" iperf3 -c "$(node_ip $((m + 1)))" -p $((5400 + i)) \
				-u -b "$AIR" -l 1024 -t "$STREAMS_SECS" -J > "$dir/$i" 2>/dev/null &
		fi
	done
	wait
	for ((i = 1; i <= m; i++)); do
		if [[ $proto == tcp ]]; then
			rates+=("$(tcp_mbps < "$dir/$i")")
		else
			read -r j l <<< "$(udp_result < "$dir/$i")"
			rates+=("$j")
			losses+=("$l")
		fi
	done
	rm -rf "$dir"
	echo "$m $proto $(jain "${rates[@]}") ${rates[*]}${losses[*]:+ loss ${losses[*]}}"
}

cmu() {
	local hop dst i
	streams_chain 2 "$WAVELAN" || { echo "# CMU set-up failed"; return 1; }
	for hop in 1 2; do
		dst=$((hop + 1))
		for i in 1 2 3 4 5; do
			streams_route 1 "$dst"
			echo "$hop $(xfer_run 1 "$dst" 1048576 | jq .mbps)"
		done
	done
}

# video_tcp NAME TOS: the stream with a TCP flow 1 -> 4 beside it
video_tcp() {
	local tcpf f0 c0
	tcpf=$(mktemp)
	streams_route 1 4
	f0=$(sum_stat link_failures 1 2 3) c0=$(sum_stat congestion_drops 1 2 3)
	tcp_run 1 4 1024 $((VSECS + 4)) > "$tcpf" &
	sleep 2
	echo "$1 $(video_run 1 4 "$VIDEO" "$VSECS" "$OUT/video-$1.txt" "$2")" \
		"$(wait; tcp_mbps < "$tcpf")" \
		"$(($(sum_stat link_failures 1 2 3) - f0))" \
		"$(($(sum_stat congestion_drops 1 2 3) - c0))"
	rm -f "$tcpf"
}

video() {	# one line per run: name, receiver JSON, TCP Mbit/s
	local i
	streams_chain 3 "$AIR" || { echo "# video set-up failed"; return 1; }
	echo "alone $(video_run 1 4 "$VIDEO" "$VSECS" "$OUT/video-alone.txt") - - -"
	video_tcp tcp-tos0 0
	video_tcp tcp-tos0x10 0x10
	for i in 1 2 3 4; do dsr "$i" param set dsr0 congestion_drop 0; done
	video_tcp tcp-nocd 0
}

hwsim_k() {
	local d
	hwsim_setup 4 >/dev/null || { echo "# hwsim unavailable"; return 0; }
	mf_line >/dev/null && dsr_setup || return 1
	for d in 2 3 4; do
		streams_route 1 "$d" || continue
		echo "$((d - 1)) $(tcp_run 1 "$d" 1024 | tcp_mbps)"
	done
}

sub() { (trap ah_cleanup EXIT; "$@"); }	# each topology torn down after

echo "# Streams on a shared channel, kernel $(uname -r), ${STREAMS_SECS}s per point"
echo "$(mbps "$AIR") $(mbps "$WAVELAN")" > "$OUT/air"
t0=$SECONDS
part() {	# NAME CMD...: a part of the report, if STREAMS_PARTS has it
	local t=$SECONDS name=$1
	shift
	[[ " $PARTS " == *" $name "* ]] || return 0
	"$@" > "$OUT/$name"
	echo "# $name: $((SECONDS - t)) s"
}
all_k() { local k; for k in $HOPS; do sub one_k "$k"; done; }
all_m() { local m; for m in 1 2 3 4; do sub m_one "$m" tcp; sub m_one "$m" udp; done; }
PARTS=${STREAMS_PARTS:-1k m1 cmu video hwsim}
part 1k all_k
part m1 all_m
part cmu sub cmu
part video sub video
part hwsim sub hwsim_k
echo "# ran $((SECONDS - t0)) s"
touch "$OUT/1k" "$OUT/m1" "$OUT/cmu" "$OUT/video" "$OUT/hwsim"

c=$(mbps "$AIR")
echo
echo "### 1:k over DSR, channel $AIR (goodput Mbit/s; UDP loss %)"
echo
echo "| hops | ADU | TCP | C/k | UDP $VIDEO | loss | UDP paced (flow control) | loss | UDP at $AIR (no flow control) | loss | drops at source / relays | link failures |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
awk -v c="$c" '!/^#/ { printf "| %d | %d | %s | %.2f | %s | %s | %s → %s | %s | %s | %s | %s / %s | %s |\n",
	$1, $2, $3, c / $1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$OUT/1k"
echo
echo "### m:1, one hop each, channel $AIR (per-flow goodput Mbit/s)"
echo
echo "| m | protocol | Jain | per flow | UDP loss % per flow |"
echo "|---:|---|---:|---|---|"
awk '!/^#/ { l = ""; f = ""; inl = 0
	for (i = 4; i <= NF; i++) { if ($i == "loss") { inl = 1; continue }
		if (inl) l = l " " $i; else f = f " " $i }
	printf "| %d | %s | %s |%s |%s |\n", $1, $2, $3, f, l == "" ? " -" : l }' "$OUT/m1"
echo
echo "### CMU lab runs, channel $WAVELAN: 5 x 1 MB TCP"
echo
awk '!/^#/ { n[$1]++; s[$1] += $2; q[$1] += $2 * $2; v[$1] = v[$1] " " $2 }
	END { print "| hops | transfers Mbit/s | mean | std dev |"
	      print "|---:|---|---:|---:|"
	      for (h = 1; h <= 2; h++) if (n[h]) {
		m[h] = s[h] / n[h]; sd = sqrt(q[h] / n[h] - m[h] * m[h])
		printf "| %d |%s | %.3f | %.3f |\n", h, v[h], m[h], sd }
	      if (m[1] > 0) printf "\n2-hop / 1-hop: **%.2f** (seed 004: 0.50 / 0.86 = 0.58)\n", m[2] / m[1] }' "$OUT/cmu"
echo
echo "### Video-like VBR stream ($VIDEO mean) over 3 hops, channel $AIR"
echo
echo "| run | sent | received | loss % | Mbit/s | delay p50 ms | p95 | p99 | max | jitter ms (RFC 3550) | whole frames | TCP beside it Mbit/s | links broken | congestion drops |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
while read -r name json tcp lf cd; do
	[[ $name == \#* ]] && continue
	jq -r --arg n "$name" --arg t "$tcp" --arg l "$lf" --arg c "$cd" '"| \($n) | \(.sent) | \(.received) | \(.loss_percent) | \(.mbps) | \(.delay_ms.p50) | \(.delay_ms.p95) | \(.delay_ms.p99) | \(.delay_ms.max) | \(.jitter_ms) | \(.frames_whole)/\(.frames_seen) | \($t) | \($l) | \($c) |"' <<< "$json"
done < "$OUT/video"
echo
echo "### The same chain on mac80211_hwsim (TCP Mbit/s)"
echo
echo "| hops | TCP |"
echo "|---:|---:|"
awk '!/^#/ { printf "| %s | %s |\n", $1, $2 }' "$OUT/hwsim"
