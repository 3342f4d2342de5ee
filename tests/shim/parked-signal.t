#!/bin/sh
# A signal handler's call that comes while the recorder holds the thread's
# writer is parked and written by whoever writes for the thread next; when
# no next write comes, it was lost without a word.  VMREC_TEST_SIGNAL puts
# the handler into such a window every run: a thread's end on a stack too
# small for glibc to release (no later call of the thread is recorded),
# and the process's end after the trace is finished.  Every "mapped" the
# handler prints is a mapping the trace holds.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/parked_signal"
USR1=10   # SIGUSR1 on x86_64

# run WHERE MODE: the handler's "mapped" lines, then the trace's mappings
run() {
	VMREC_TEST_SIGNAL=$1:$USR1 record "$T/$1.lz4" "$P/parked_signal" "$2" >"$T/$1.out"
	grep -c '^mapped$' "$T/$1.out"
	"$TC" "$T/$1.lz4" | grep -c ' mmap 0 0x1000 0x1 0x22 '
}

set -- $(run thread-exit thread)
is "$1" 1 "thread-exit: the handler ran inside the thread's hand-back"
is "$2" "$1" "thread-exit: its mmap is in the trace"
like "$("$VT" check "$T/thread-exit.lz4")" "OK: " "thread-exit: check OK"

# At exit the thread takes no signal once the END is due: the handler
# does not run (natively the process is gone by then), rather than run
# where nothing can record it.
set -- $(run process-end exit)
is "$1 $2" "0 0" "process-end: no handler runs after the trace is finished"
is "$(head -1 "$T/process-end.out")" PASS "process-end: the program ran"
done_testing
