#!/bin/sh
# Preloaded alone, the last process to leave finishes the trace; a fork
# counts its child before the child runs.  A child killed before it ran
# (strace's start-up probe: fork, then SIGKILL) never said it had ended:
# the trace was left unfinished in its store, every time under strace.
# The parent makes the child's store entry and names its pid, so whoever
# leaves finds it gone (traces/vmt_store.h, VMT_PROC_UNBORN).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/fork_killed" "$B/bin/vmtrace"
cd "$T" || exit 1

out=$(LD_PRELOAD=$LIB VMREC_OUT=$T/k.lz4 "$P/fork_killed" 20 2>err)
is "$?:$(cat err)" "0:" "20 children killed at once: the program runs as natively"
note "$out"
ok "$([ -f k.lz4 ]; echo $?)" "the trace is finished"
is "$(ls | grep -c vmrec-store)" 0 "no store left behind"
like "$("$B/bin/vmtrace" check k.lz4 | head -1)" ": OK: " "and checks OK"

if have_strace; then
	LD_PRELOAD=$LIB VMREC_OUT=$T/s.lz4 strace -qq -o /dev/null /bin/true
	ok "$([ -f s.lz4 ]; echo $?)" "preloaded strace of /bin/true: the trace is finished"
fi
done_testing
