#!/bin/sh
# A thread's end hands its writer back while another thread ends the
# process: the exit waits for the hand-back as for a call in flight, so
# what the thread wrote or parked there (a signal handler's calls) is in
# the trace before the process's END, and none is lost without a word.
# VMREC_TEST_SIGNAL=thread-exit raises the signal in the hand-back; the
# handler maps, has the main thread exit, and sleeps.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/parked_signal"
USR1=10   # SIGUSR1 on x86_64

VMREC_TEST_SIGNAL=thread-exit:$USR1 record "$T/end.lz4" "$P/parked_signal" end-exit >"$T/end.out"
is "$?" 0 "the program's exit status"
is "$(grep -c '^mapped$' "$T/end.out")" 1 "the handler ran in the thread's hand-back"
is "$("$TC" "$T/end.lz4" | grep -c ' mmap 0 0x1000 0x1 0x22 ')" 1 "its mmap is in the trace"
is "$("$TC" "$T/end.lz4" | grep -c ' munmap 0x[0-9a-f]* 0x1000 = 0')" 1 "its munmap"
"$TC" -g "$T/end.lz4" >"$T/gaps" 2>&1
is "$?" 0 "no seq missing without a loss counted ($(tail -1 "$T/gaps"))"
like "$("$VT" check "$T/end.lz4")" "OK: " "check OK"
done_testing
