#!/bin/sh
# Threads come and go (a new thread continues a pooled writer) while
# signal handlers map and unmap: each chunk stays in seq order, so the
# trace checks OK and holds every call.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/thread_storm"

set -- $(record "$T/run.lz4" "$P/thread_storm")
is "$1" PASS "every call's result is right"
like "$("$VT" check "$T/run.lz4")" "OK: " "check OK: no event out of seq order"
"$TC" "$T/run.lz4" >"$T/calls"
is "$(grep -c ' mmap 0 0x2000 0x3 0x22 ' "$T/calls")" 20000 "every thread's mmap is in the trace"
is "$(grep -c ' munmap 0x[0-9a-f]* 0x2000 = 0' "$T/calls")" 20000 "every thread's munmap"
is "$(grep -c ' mmap 0 0x1000 0x1 0x22 ' "$T/calls")" "$2" "every handler's mmap"
done_testing
