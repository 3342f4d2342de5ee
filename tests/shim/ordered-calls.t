#!/bin/sh
# Once a process forked while threaded, its recorded calls take one at a
# time (shim/forkgate.c, `order`): no two of its calls overlap in the
# trace's order, so the order the trace has is the kernel's.  Before,
# threads held off the CPU for milliseconds inside a call made their
# change at either end of it, and under load about one fork child in
# twenty of order_threads' fork mode was one VMA off at its first
# checkpoint (tests/shim/order.t); 3,787 of 4,869 calls after the first
# fork of ordered_calls 4 600 overlapped one of another thread.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace VR=$B/bin/vmreplay
need_built "$V" "$VT" "$VR" "$P/ordered_calls" "$B/tests/trace/progs/call_overlap"

"$P/ordered_calls" 4 300 >"$T/native" 2>&1
is "$?:$(cat "$T/native")" "0:done" "natively: the program runs and exits 0"
for i in 1 2 3; do
	"$V" -o "$T/t$i.lz4" -- "$P/ordered_calls" 4 300 >"$T/out" 2>"$T/err"
	is "$?:$(cat "$T/out")$(cat "$T/err")" "0:done" "recorded, run $i: the same status and output"
	"$B/tests/trace/progs/call_overlap" "$T/t$i.lz4" >"$T/overlap"
	_last=$(tail -1 "$T/overlap")
	is "${_last#calls [1-9]* }" "overlaps 0" "run $i: no call after the fork overlaps another thread's"
	grep '^overlap' "$T/overlap" | head -3 | sed 's/^/# /'
	like "$("$VT" check "$T/t$i.lz4" | head -1)" ": OK: " "run $i: the trace checks OK"
	"$VR" -q --strict "$T/t$i.lz4" >"$T/rep" 2>&1
	is "$?:$(grep -v '^  ' "$T/rep" | head -1)" "0:" "run $i: vmreplay --strict exact"
done
done_testing
