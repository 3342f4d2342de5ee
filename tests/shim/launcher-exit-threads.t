#!/bin/sh
# The vmrec launcher alone (a static program) records every call of its
# threads at two stops; the process's exit_group ends the threads between
# them, wherever they are: a call whose syscall-exit stop never came has
# a seq no record holds, and its process's END counts it lost (it was a
# gap with no note in every recording).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace PR=$B/tests/shim/static_threads
need_built "$V" "$VT" "$PR"

for run in 1 2 3; do
	is "$("$V" -o "$T/$run.lz4" -- "$PR")" "static PASS" "run $run: the program ran"
	"$TC" -g "$T/$run.lz4" >"$T/$run.gaps" 2>"$T/$run.why"
	is "$?" 0 "run $run: every seq no record holds is counted lost ($(cat "$T/$run.gaps"); $(head -1 "$T/$run.why"))"
	out=$("$VT" check "$T/$run.lz4")
	like "$out" "OK: " "run $run: check OK"
	is "$(echo "$out" | grep -c 'silent loss')" 0 "run $run: check finds no silent loss"
done
done_testing
