#!/bin/sh
# An exec from a threaded program closes the fork gate: the kernel ends
# the other threads when it succeeds, wherever they are, and a call it
# ended between its completion and its record left a seq no record held
# (one a thread, 4 of 4 every run).  Their calls in flight end first; the
# others wait at the gate, where no call has begun.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$B/bin/vmrec" "$P/exec_threads"

for run in pre1 pre2 pre3 vmrec1 vmrec2; do
	case $run in
	pre*) out=$(record "$T/$run.lz4" "$P/exec_threads") ;;
	*) out=$("$B/bin/vmrec" -o "$T/$run.lz4" -- "$P/exec_threads") ;;
	esac
	is "$out" PASS "$run: the new image ran"
	"$TC" -g "$T/$run.lz4" >"$T/$run.gaps" 2>"$T/$run.why"
	is "$?" 0 "$run: every seq is held by a record ($(cat "$T/$run.gaps"); $(head -1 "$T/$run.why"))"
	is "$("$TC" "$T/$run.lz4" | grep -c ' mmap 0 0x1000 0x1 0x22 ')" 1 "$run: the new image's mmap is in the trace"
	like "$("$VT" check "$T/$run.lz4")" "OK: " "$run: check OK"
done
done_testing
