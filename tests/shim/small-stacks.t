#!/bin/sh
# The recorder runs on the program's stacks: a signal handler's on an
# 8 KiB sigaltstack, a handler on a PTHREAD_STACK_MIN thread's stack
# (parked-signal.t).  A program whose handlers map there runs as natively
# and every call is in the trace.  Before, the first call of an import
# ran ld.so's lazy resolver (it saves the vector registers on that stack)
# and residency's 4 KiB mincore vector sat in every call's frame: the
# program died of SIGSEGV, preloaded and under the launcher.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$P/small_stacks"

native=$("$P/small_stacks" 8192 2>&1; echo "status $?")
is "$native" "mapped
mapped
mapped
PASS
status 0" "natively: three handlers map on an 8 KiB sigaltstack"
out=$(record "$T/p.lz4" "$P/small_stacks" 8192 2>&1; echo "status $?")
is "$out" "$native" "preloaded: the same output and status"
out=$("$V" -o "$T/l.lz4" -- "$P/small_stacks" 8192 2>&1; echo "status $?")
is "$out" "$native" "under the launcher: the same output and status"
for t in p l; do
	"$TC" "$T/$t.lz4" | grep -v LAUNCHER >"$T/$t.calls"   # not the loader's
	is "$(grep -c ' mprotect 0x[0-9a-f]* 0x1000 0x1 = 0' "$T/$t.calls"):$(grep -c ' munmap 0x[0-9a-f]* 0x100000 = 0' "$T/$t.calls")" "3:3" \
		"$t: each handler's mprotect and munmap is in the trace"
	like "$("$VT" check "$T/$t.lz4")" "OK: " "$t: check OK"
done
done_testing
