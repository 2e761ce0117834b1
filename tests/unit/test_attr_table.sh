#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The one description of each family (userspace/common/*_attrs.c), as
# ./attr_table dumps it, against what must say the same, in KTAP:
# the kernel's DSR parameter table (kmod/dsr/params.c), the parameter
# lists of docs/dsrd.conf.5 and docs/ahctl.8, and the word lists of
# dist/ahctl.bash-completion; for slice, which has no parameters, the
# ABI's attributes, and its JSON keys and enum names in docs/ahctl.8; for
# dsr, its attributes' names and types against the ABI (ahctl sends each of
# its type's width), and the layered multicast JSON keys and names in
# docs/ahctl.8.
# Exits 1 if any test fails.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TABLE=$("$(dirname "$0")/attr_table") || { echo "attr_table failed"; exit 1; }

n=0
failed=0
out=()

# check DESC WANT GOT
check() {
	n=$((n + 1))
	if [[ $2 == "$3" ]]; then
		out+=("ok $n $1")
	else
		failed=$((failed + 1))
		out+=("# want: $2" "# got:  $3" "not ok $n $1")
	fi
}

# the parameters of FAMILY: "NAME" (or with $2 = full, "NAME DEF MIN MAX")
params() {
	awk -v f="$1" -v full="${2:-}" '$1 == f && $2 == "param" {
		print full ? $4 " " $7 " " $8 " " $9 : $4 }' <<< "$TABLE"
}

words() {
	tr -s ' \t\n' '\n' <<< "$*" | sed '/^$/d' | paste -sd' '
}

# kmod/dsr/params.c: DEF(NAME, DEFAULT, MIN, MAX), constants resolved from
# the module's headers and its uapi header (a constant defined as another
# followed), U32_MAX as 4294967295
kernel_params() {
	local defs
	defs=$(cat "$ROOT"/kmod/dsr/*.h "$ROOT"/include/uapi/linux/ah_dsr.h 2>/dev/null |
		awk '$1 == "#define" && $3 ~ /^([0-9]+|[A-Z][A-Z0-9_]*)$/ { print $2, $3 }')
	grep -E '^[[:space:]]*DEF\(' "$ROOT/kmod/dsr/params.c" |
		sed -E 's/^[[:space:]]*DEF\(([A-Z0-9_]+), *([^,]+), *([^,]+), *([^)]+)\).*/\1 \2 \3 \4/' |
		awk -v defs="$defs" 'BEGIN {
			n = split(defs, d, "\n")
			for (i = 1; i <= n; i++) { split(d[i], kv, " "); c[kv[1]] = kv[2] }
			c["U32_MAX"] = "4294967295"
			for (k in c)
				for (i = 0; i < 4 && (c[k] in c); i++)
					c[k] = c[c[k]]
		}
		{
			for (i = 2; i <= 4; i++) if ($i in c) $i = c[$i]
			print tolower($1), $2, $3, $4
		}'
}

check "every DSR parameter: name, default and range of kmod/dsr/params.c" \
	"$(kernel_params)" "$(params dsr full)"
check "DSR parameters: as many as DSR_A_P_*" \
	"$(awk '/^[[:space:]]*DSR_A_P_[A-Z0-9_]+,/ && !/DSR_A_P_UNSPEC/ { n++ }
		END { print n }' "$ROOT/include/uapi/linux/ah_dsr.h")" \
	"$(params dsr | wc -l)"

# the transit defaults and ranges against ahctl.8 ("Default N, range A to B")
check "transit defaults as docs/ahctl.8 gives them" \
	"$(params transit full | awk '{ print $1, $2 }')" \
	"$(awk '/^\.SH TRANSIT/ { t = 1 } t && /^\.SS Parameters/ { p = 1; next }
		p && /^\.SS/ { exit }
		p && /^\.B [a-z_]+$/ { name = $2 }
		p && name && match($0, /Default [0-9]+/) {
			print name, substr($0, RSTART + 8, RLENGTH - 8); name = "" }' \
		"$ROOT/docs/ahctl.8")"

# ahctl.8: each parameter named in its section (.B NAME or .BR A ", " B)
man_names() {	# SECTION-HEADER
	awk -v h="$1" '$0 == h { s = 1 } s && /^\.SS Parameters/ { p = 1; next }
		p && /^\.(SS|SH)/ { exit }
		p && /^\.BR? / { for (i = 2; i <= NF; i++) {
			w = $i; gsub(/[",]/, "", w)
			if (w ~ /^[a-z][a-z_]*$/) print w } }' "$ROOT/docs/ahctl.8"
}
missing() {	# WANTED HAVE: the words of WANTED not in HAVE
	comm -23 <(tr ' ' '\n' <<< "$1" | sort -u) <(tr ' ' '\n' <<< "$2" | sort -u) |
		paste -sd' '
}
check "docs/ahctl.8 describes every DSR parameter" "" \
	"$(missing "$(words "$(params dsr)")" "$(words "$(man_names ".SH DSR")")")"
check "docs/ahctl.8 describes every transit parameter" "" \
	"$(missing "$(words "$(params transit)")" \
		"$(words "$(man_names ".SH TRANSIT")")")"

# dsrd.conf.5: the list of [dsr.params], the keys of [transit]
check "docs/dsrd.conf.5 lists the DSR parameters, in order" \
	"$(words "$(params dsr)")" \
	"$(words "$(awk '/^\.SH \[dsr\.params\]/ { s = 1 } s && /^\.nf/ { p = 1; next }
		p && /^\.fi/ { exit } p' "$ROOT/docs/dsrd.conf.5")")"
check "docs/dsrd.conf.5 lists the transit parameters, in order" \
	"$(words "$(params transit)")" \
	"$(words "$(awk '/^\.SH \[transit\]/ { s = 1 } s && /^\.SH \[log\]/ { exit }
		s && /^Any parameter/ { p = 1 }
		p && /^\.BR [a-z_]+ [,.]$/ { print $2 }' "$ROOT/docs/dsrd.conf.5")")"

# slice: every attribute of the ABI named (SLICE_A_PAD aside), its JSON keys
# described in ahctl.8's SLICE section, and its enum names there
attr_names() {	# FAMILY
	awk -v f="$1" '$1 == f && $2 == "attr" { print $4 }' <<< "$TABLE"
}
enum_names() {	# FAMILY ATTRIBUTE
	awk -v f="$1" -v a="$2" '$1 == f && $2 == "names" && $4 == a {
		for (i = 5; i <= NF; i++) print $i }' <<< "$TABLE"
}
check "slice: every SLICE_A_* has a name (but PAD)" \
	"$(awk '/^enum slice_attr/ { e = 1; next } e && /^}/ { exit }
		e && match($0, /^[[:space:]]*SLICE_A_[A-Z0-9_]+/) {
			a = substr($0, RSTART, RLENGTH); gsub(/[[:space:]]/, "", a)
			if (a != "SLICE_A_UNSPEC" && a != "SLICE_A_PAD") print tolower(substr(a, 9))
		}' "$ROOT/include/uapi/linux/ah_slice.h" | paste -sd' ')" \
	"$(words "$(attr_names slice)")"
# every value of enum slice_mode, slice_reason and slice_state (but the
# __MAX) named
enum_count() {	# ENUM
	awk -v e="enum $1 {" '$0 == e { s = 1; next } s && /^}/ { exit }
		s && /^[[:space:]]*SLICE_[A-Z0-9_]+,/ && !/__/ { n++ }
		END { print n + 0 }' "$ROOT/include/uapi/linux/ah_slice.h"
}
check "slice: every SLICE_MODE_* has a name" "$(enum_count slice_mode)" \
	"$(enum_names slice mode | wc -l)"
check "slice: every SLICE_REASON_* has a name" "$(enum_count slice_reason)" \
	"$(enum_names slice reason | wc -l)"
check "slice: every SLICE_STATE_* has a name" "$(enum_count slice_state)" \
	"$(enum_names slice state | wc -l)"
# the .B/.BR words of a subsection of a section of ahctl.8
man_sub_words() {	# SECTION-HEADER SUBSECTION
	awk -v h="$1" -v ss=".SS $2" '$0 == h { s = 1; next } s && /^\.SH/ { exit }
		s && $0 == ss { p = 1; next } p && /^\.(SS|SH)/ { exit }
		p && /^\.BR? / { for (i = 2; i <= NF; i++) {
			w = $i; gsub(/[",]/, "", w)
			if (w ~ /^[a-z][a-z_]*$/) print w } }' "$ROOT/docs/ahctl.8"
}
check "docs/ahctl.8 describes every slice JSON key" "" \
	"$(missing "$(words "$(attr_names slice)")" \
		"$(words "$(man_sub_words ".SH SLICE" "JSON output")")")"
# the reasons and states as JSON strings, \(dqNAME\(dq, in the SLICE section
slice_dq_words() {
	words "$(awk '/^\.SH SLICE/ { s = 1; next } s && /^\.SH/ { exit }
		s { while (match($0, /\\\(dq[a-z-]+\\\(dq/)) {
			print substr($0, RSTART + 4, RLENGTH - 8)
			$0 = substr($0, RSTART + RLENGTH) } }' "$ROOT/docs/ahctl.8")"
}
check "docs/ahctl.8 gives every slice reason as JSON has it" "" \
	"$(missing "$(words "$(enum_names slice reason)")" "$(slice_dq_words)")"
check "docs/ahctl.8 gives every slice state as JSON has it" "" \
	"$(missing "$(words "$(enum_names slice state)")" "$(slice_dq_words)")"

# dsr: every attribute of the ABI named (but PAD, and PARAMS: a nest of
# parameters), each of the type ah_dsr.h gives it in its comment, the values
# of its multicast enums named, the multicast JSON keys in ahctl.8
DSR_H=$ROOT/include/uapi/linux/ah_dsr.h
dsr_abi() {	# NAME TYPE of each DSR_A_* with a type in its comment
	awk '/^enum dsr_attr \{/ { e = 1; next } e && /^}/ { exit }
		e && match($0, /^[[:space:]]*DSR_A_[A-Z0-9_]+,[[:space:]]*\/\*[[:space:]]*[a-z0-9]+/) {
			split(substr($0, RSTART, RLENGTH), p, /[,[:space:]\/*]+/)
			print tolower(substr(p[2], 7)), p[3] }' "$DSR_H"
}
check "dsr: every DSR_A_* has a name (but PAD and PARAMS)" \
	"$(awk '/^enum dsr_attr \{/ { e = 1; next } e && /^}/ { exit }
		e && match($0, /^[[:space:]]*DSR_A_[A-Z0-9_]+/) {
			a = substr($0, RSTART, RLENGTH); gsub(/[[:space:]]/, "", a)
			if (a !~ /^DSR_A_(UNSPEC|PAD|PARAMS)$/) print tolower(substr(a, 7))
		}' "$DSR_H" | paste -sd' ')" \
	"$(words "$(attr_names dsr)")"
# the table's types as the ABI's words: an address is a be32, an enum a u8;
# none (mc_chain: the table has no type for it, ahctl prints it) is binary
check "dsr: each attribute of the type ah_dsr.h gives it" \
	"$(dsr_abi | awk '$2 != "nested"')" \
	"$(awk '$1 == "dsr" && $2 == "attr" {
		t = $5
		if (t == "addr") t = "be32"; else if (t == "enum") t = "u8"
		else if (t == "ifindex") t = "u32"
		else if (t == "hops" || t == "mac" || t == "none") t = "binary"
		print $4, t }' <<< "$TABLE")"
dsr_enum_count() {	# ENUM
	awk -v e="enum $1 {" '$0 == e { s = 1; next } s && /^}/ { exit }
		s && /^[[:space:]]*DSR_[A-Z0-9_]+,/ && !/__/ { n++ }
		END { print n + 0 }' "$DSR_H"
}
check "dsr: every DSR_MC_ROW_* has a name" "$(dsr_enum_count dsr_mc_row)" \
	"$(enum_names dsr mc_row | wc -l)"
check "dsr: every DSR_MC_TAG_* has a name" "$(dsr_enum_count dsr_mc_tag_mode)" \
	"$(enum_names dsr mc_tag_mode | wc -l)"
check "docs/ahctl.8 describes every dsr multicast JSON key" "" \
	"$(missing "$(words "$(attr_names dsr | grep '^mc_') addr slave expires_ms")" \
		"$(words "$(man_sub_words ".SH DSR" "Layered multicast")")")"
check "docs/ahctl.8 gives the multicast rows and tag modes as JSON has them" "" \
	"$(missing "$(words "$(enum_names dsr mc_row) $(enum_names dsr mc_tag_mode)")" \
		"$(words "$(awk '/^\.SH DSR/ { s = 1; next } s && /^\.SH/ { exit }
			s { while (match($0, /\\\(dq[a-z-]+\\\(dq/)) {
				print substr($0, RSTART + 4, RLENGTH - 8)
				$0 = substr($0, RSTART + RLENGTH) } }' "$ROOT/docs/ahctl.8")")")"

# the completion's word lists
comp_list() {	# VARIABLE
	(source "$ROOT/dist/ahctl.bash-completion" && eval "echo \$$1")
}
check "completion: the DSR parameters" "$(words "$(params dsr)")" \
	"$(words "$(comp_list _ahctl_dsr_params)")"
check "completion: the transit parameters" "$(words "$(params transit)")" \
	"$(words "$(comp_list _ahctl_transit_params)")"
check "completion: the slice modes" "$(words "$(enum_names slice mode)")" \
	"$(words "$(comp_list _ahctl_slice_modes)")"
check "completion: the dsr multicast tag modes" \
	"$(words "$(enum_names dsr mc_tag_mode)")" \
	"$(words "$(comp_list _ahctl_dsr_mc_tags)")"

echo "KTAP version 1"
echo "1..$n"
printf '%s\n' "${out[@]}"
[[ $failed == 0 ]]
