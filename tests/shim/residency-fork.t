#!/bin/sh
# Residency is asked of the process that makes the call: a fork child's
# record counts its own pages (the 4 it inherited and the 2 it touched),
# never its parent's (residency_fork.c).  The same through mincore.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

releases() {   # TRACE: "<who> pages N resident M" for each release of the 8 pages
	"$TC" -a "$1" | awk '
		$1 == "process" && seen[$4] { child = $2 }
		$1 == "process" { seen[$2] = 1 }
		$1 == "residency" && $5 == 8 { r[$2] = "pages " $5 " resident " $7 }
		$3 == "madvise" && $5 == "0x8000" { print ($1 == child ? "child" : "parent"), r[$1] }'
}
printf 'child pages 8 resident 6\nparent pages 8 resident 4\n' >"$T/want"
for mode in mapped mincore; do
	[ $mode = mincore ] && export VMREC_RESIDENCY=mincore
	record "$T/$mode.lz4" "$P/residency_fork" >/dev/null
	releases "$T/$mode.lz4" >"$T/$mode.got"
	is_file "$T/$mode.got" "$T/want" "$mode: each process's release records its own resident pages"
done
done_testing
