#!/bin/sh
# Signals whose handlers map and unmap, aimed at threads while they end:
# the recorder's own work at a thread's end (handing its writer back) may
# be interrupted by a handler's calls, which must still reach the trace,
# preloaded and under the launcher; a record the recorder could not keep
# would be counted in END (vmtrace check names it), never dropped unsaid.
# A race: before the fix, 1,000 rounds lost a handler's calls in 8 of 10
# runs preloaded and 3 of 6 under the launcher.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$B/bin/vmrec" "$P/exit_storm"

handler_mmaps() { "$TC" "$1" | grep -c ' mmap 0 0x1000 0x1 0x22 '; }

set -- $(record "$T/pre.lz4" "$P/exit_storm" 1500)
is "$1" PASS "preloaded: every call's result is right"
is "$(handler_mmaps "$T/pre.lz4")" "$2" "preloaded: every handler's mmap is in the trace"
"$VT" check "$T/pre.lz4" >"$T/pre.check"
ok $? "preloaded: check OK"
is "$(grep -c 'records lost' "$T/pre.check")" 0 "preloaded: no record lost"

set -- $("$B/bin/vmrec" -o "$T/launch.lz4" -- "$P/exit_storm" 1500)
is "$1" PASS "launcher: every call's result is right"
is "$(handler_mmaps "$T/launch.lz4")" "$2" "launcher: every handler's mmap is in the trace"
"$VT" check "$T/launch.lz4" >"$T/launch.check"
ok $? "launcher: check OK"
is "$(grep -c 'records lost' "$T/launch.check")" 0 "launcher: no record lost"
done_testing
