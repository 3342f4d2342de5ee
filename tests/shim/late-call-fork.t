#!/bin/sh
# A thread's last calls come after the recorder let the thread go (glibc's
# stack release, the program's own thread-specific destructors): a fork
# waits for those too, so no call of the process overlaps the fork in the
# trace.  late_call_fork populates 32 MiB in such a destructor while the
# main thread forks; before, 18-20 of its 20 forks overlapped that call.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$P/late_call_fork" "$B/tests/trace/progs/call_overlap"

"$V" -o "$T/t.lz4" -- "$P/late_call_fork" 20 >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/out" "$T/err")" "0:done" "recorded: the same status and output as natively"
"$B/tests/trace/progs/call_overlap" "$T/t.lz4" >"$T/overlap"
_last=$(tail -1 "$T/overlap")
is "${_last#calls [1-9]* }" "overlaps 0" "no call overlaps a fork: the fork waited for the ending thread's"
grep '^overlap' "$T/overlap" | head -3 | sed 's/^/# /'
like "$("$VT" check "$T/t.lz4" | head -1)" ": OK: " "the trace checks OK"
"$B/bin/vmreplay" -q --strict "$T/t.lz4" >"$T/rep" 2>&1
is "$?:$(grep -v '^  ' "$T/rep" | head -1)" "0:" "vmreplay --strict exact"
done_testing
