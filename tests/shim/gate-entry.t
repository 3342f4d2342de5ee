#!/bin/sh
# A signal handler's call while its thread is at the fork gate's entry,
# its mark set: the process exits, the gate is closed for good, and the
# thread waits there until the kernel ends it.  The handler's call ran
# (the exit waited for the mark), so its record is in the trace: written
# by the handler itself, not parked for a call that never goes on.
# VMREC_TEST_SIGNAL=gate-entry puts the handler there every run.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/parked_signal"
USR1=10   # SIGUSR1 on x86_64

VMREC_TEST_SIGNAL=gate-entry:$USR1 record "$T/gate.lz4" "$P/parked_signal" gate >"$T/gate.out"
is "$?" 0 "the program's exit status"
is "$(grep -c '^mapped$' "$T/gate.out")" 1 "the handler ran at the gate's entry"
is "$("$TC" "$T/gate.lz4" | grep -c ' mmap 0 0x1000 0x1 0x22 ')" 1 "its mmap is in the trace"
is "$("$TC" "$T/gate.lz4" | grep -c ' munmap 0x[0-9a-f]* 0x1000 = 0')" 1 "its munmap"
"$TC" -g "$T/gate.lz4" >"$T/gaps" 2>&1
is "$?" 0 "no seq missing without a loss counted ($(tail -1 "$T/gaps"))"
like "$("$VT" check "$T/gate.lz4")" "OK: " "check OK"
done_testing
