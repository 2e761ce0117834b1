# SPDX-License-Identifier: GPL-2.0
#
# The KTAP bookkeeping of the shell tests here, sourced by each:
#
#     # shellcheck source=ktap.sh
#     source "$(dirname "$0")/ktap.sh"
#
# result, skip, same and has number the tests and keep their lines in out[]
# ($n tests, $failed of them failed); ktap_done prints the plan and those
# lines, and is the script's exit status (its last command).  The script
# prints "KTAP version 1" itself, first or just before ktap_done.

n=0
failed=0
out=()

result() {	# result OK DESC [DIAG...]
	local ok=$1 desc=$2 d
	shift 2
	n=$((n + 1))
	if [[ $ok == 1 ]]; then
		out+=("ok $n $desc")
	else
		failed=$((failed + 1))
		for d in "$@"; do
			out+=("# $d")
		done
		out+=("not ok $n $desc")
	fi
}

skip() {	# skip DESC REASON
	n=$((n + 1))
	out+=("ok $n $1 # SKIP $2")
}

# same DESC GOT WANT
same() {
	if [[ $2 == "$3" ]]; then
		result 1 "$1"
	else
		result 0 "$1" "got:" "$2" "want:" "$3"
	fi
}

# has DESC TEXT PART...: every PART is in TEXT
has() {
	local desc=$1 text=$2 p
	shift 2
	for p in "$@"; do
		if [[ $text != *"$p"* ]]; then
			result 0 "$desc" "missing: $p" "in: $text"
			return
		fi
	done
	result 1 "$desc"
}

# ktap_skip_all REASON: no test can run here: the plan "1..0 # SKIP
# REASON", and exit 0
ktap_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# ktap_done: the plan, then every test's lines; false if any failed
ktap_done() {
	echo "1..$n"
	printf '%s\n' "${out[@]}"
	[[ $failed == 0 ]]
}
