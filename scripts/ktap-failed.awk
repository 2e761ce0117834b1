# ktap-failed.awk: each "not ok" line of the KTAP files given, as
# "# failed: FILE:LINE"; after the first three, the case's own last lines
# (at most 6 "#" lines since the result before it, 200 characters each),
# so that the end of a long log says why.  -v res=PREFIX is cut from FILE.
FNR == 1 { n = 0 }
/^ *(ok|not ok) / {
	if ($0 ~ /^ *not ok /) {
		f = FILENAME
		if (res != "" && index(f, res) == 1)
			f = substr(f, length(res) + 1)
		print "# failed: " f ":" $0
		if (++shown <= 3)
			for (i = (n > 6 ? n - 5 : 1); i <= n; i++)
				print "#   " substr(ctx[i], 1, 200)
	}
	n = 0
	next
}
/^ *#/ && !/^ *# (case took|ah: heartbeat)/ { ctx[++n] = $0 }
