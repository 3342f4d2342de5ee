#!/bin/sh
# Every module.mk names its sources: a C file of shim/, traces/, replay/,
# replay/sim/, replay/vm/, lib/ and analysis/ (with analysis/synth/) is
# built because its module.mk lists it by name, not because a wildcard or
# a file-name pattern happens to match it.  A file no list names is
# either dead or forgotten: both fail here.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
check() {   # MODULE.MK DIR...
	mk=$1
	shift
	missing=
	: >"$T/wild"
	for d; do
		grep -n -e "$d/\*\.c" -e "$d/%" "$mk" | grep -v '^[0-9]*:#' >>"$T/wild"
		for f in "$d"/*.c; do
			grep -q "$f\b" "$mk" || missing="$missing $f"
		done
	done
	is "$(cat "$T/wild")" "" "$mk picks none of its sources by pattern"
	is "$missing" "" "$mk names every C file of $*"
}
check replay/module.mk replay
check replay/vm/module.mk replay/vm
check analysis/module.mk analysis analysis/synth
check lib/module.mk lib
check shim/module.mk shim
check traces/module.mk traces
check replay/sim/module.mk replay/sim
done_testing
