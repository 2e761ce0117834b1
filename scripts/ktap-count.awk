# SPDX-License-Identifier: GPL-2.0
# Count top-level KTAP results over files; a document whose plan promised
# more results than it printed counts the missing ones as failed.
# Prints "PASS FAIL SKIP".
function close_doc() {
	if (plan > seen)
		fail += plan - seen
	plan = 0; seen = 0
}
FNR == 1 { close_doc() }
/^1\.\.[0-9]+/ { close_doc(); plan = substr($1, 4) + 0; next }
/^ok [0-9]+/ {
	seen++
	if ($0 ~ /# *SKIP/) skip++; else pass++
	next
}
/^not ok [0-9]+/ { seen++; fail++; next }
END { close_doc(); printf "%d %d %d\n", pass, fail, skip }
