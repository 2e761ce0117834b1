# ktap-failed.awk: each "not ok" line of the KTAP files given, as
# "# failed: FILE:LINE"; after the first three, the case's own last lines
# (at most 6 "#" lines since the result before it, 200 characters each),
# so that the end of a long log says why.  A document whose plan promised
# more top-level results than it printed (ktap-count.awk counts them as
# failed) is named too.  -v res=PREFIX is cut from FILE.
function name(f) {
	if (res != "" && index(f, res) == 1)
		return substr(f, length(res) + 1)
	return f
}
function close_doc() {
	if (plan > seen)
		print "# failed: " name(doc) ": " plan - seen " of " plan \
			" results missing (the plan promised them)"
	plan = 0; seen = 0
}
FNR == 1 { close_doc(); n = 0 }
/^1\.\.[0-9]+/ { close_doc(); plan = substr($1, 4) + 0; doc = FILENAME; next }
/^(ok|not ok) [0-9]+/ { seen++ }
/^ *(ok|not ok) / {
	if ($0 ~ /^ *not ok /) {
		print "# failed: " name(FILENAME) ":" $0
		if (++shown <= 3)
			for (i = (n > 6 ? n - 5 : 1); i <= n; i++)
				print "#   " substr(ctx[i], 1, 200)
	}
	n = 0
	next
}
/^ *#/ && !/^ *# (case took|ah: heartbeat)/ { ctx[++n] = $0 }
END { close_doc() }
