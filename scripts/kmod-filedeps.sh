#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kmod-filedeps.sh [MODULE.mod ...]: which file of a module uses what
# another file of it defines, from the built objects (nm): for every
# undefined symbol of an object that another object of the same module
# defines (a function called, or data used), an arrow "user -> definer".
# Prints the arrows, one per line with the symbols, then the files in an
# order where each uses only files after it (tsort), and fails if the
# arrows make a circle.  Without arguments: every module of the newest
# build/KVER.  Run after make modules.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if (($# == 0)); then
	rel=$(ls -t "$ROOT/build" | grep -v 'arm64' | grep '^[0-9]' | head -1)
	set -- $(find "$ROOT/build/$rel/kmod" -name '*.mod' | sort)
fi
rc=0
for mod in "$@"; do
	objs=$(tr ' ' '\n' < "$mod" | grep '\.o$' || true)
	(($(wc -w <<< "$objs") > 1)) || continue
	echo "# ${mod##*/kmod/}"
	defs=$(for o in $objs; do
		nm --defined-only -g "$o" | awk -v f="$(basename "$o" .o)" \
			'{ print $3, f }'
	done | sort)
	arrows=$(for o in $objs; do
		nm -u "$o" | awk -v f="$(basename "$o" .o)" '{ print $2, f }'
	done | sort | join - <(echo "$defs") |
		awk '$2 != $3 { print $2, $3, $1 }' | sort)
	awk '{ a[$1 " -> " $2] = a[$1 " -> " $2] " " $3 }
	     END { for (k in a) print k ":" a[k] }' <<< "$arrows" | sort
	if order=$({ awk '{ print $1, $2 }' <<< "$arrows"
		     for o in $objs; do b=$(basename "$o" .o); echo "$b $b"; done
		   } | tsort 2> /dev/null); then
		echo "# no circle; each file uses only files after it:"
		echo "#  " $order
	else
		echo "# CIRCLE of files (tsort):"
		awk '{ print $1, $2 }' <<< "$arrows" | tsort 2>&1 >/dev/null |
			awk '/loop/ { n++ } n == 1 && !/loop/ { sub(/^tsort: /, ""); printf " %s", $0 }
			     END { print "" }'
		rc=1
	fi
done
exit $rc
