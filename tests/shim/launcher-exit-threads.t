#!/bin/sh
# The vmrec launcher alone (a static program) records every call of its
# threads at two stops; the process's exit_group ends the threads between
# them, wherever they are.  So the launcher holds the exit_group at its
# seccomp stop until the calls in flight have reached their syscall-exit
# stop, and lets no call start meanwhile: every call the kernel made is
# in the trace with its result, none is lost, and vmtrace check finds the
# trace OK (a munmap cut off unrecorded had its range "handed out again").
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace PR=$B/tests/shim/static_threads
need_built "$V" "$VT" "$PR"

for run in 1 2 3 4 5; do
	is "$("$V" -o "$T/$run.lz4" -- "$PR")" "static PASS" "run $run: the program ran"
	"$TC" -g "$T/$run.lz4" >"$T/$run.gaps" 2>"$T/$run.why"
	is "$?" 0 "run $run: every seq no record holds is counted lost ($(head -1 "$T/$run.why"))"
	is "$(cat "$T/$run.gaps")" "missing 0 lost 0" "run $run: no call is lost at the exit"
	out=$("$VT" check "$T/$run.lz4" 2>&1)
	like "$out" ": OK:" "run $run: check finds the trace OK ($(echo "$out" | head -1))"
done

# A call that does not end (a thread's vfork whose child waits for the
# process's end) is waited for only so long: the exit goes on, that call
# alone is counted lost (the other threads' calls did not start), and
# the trace is OK.
out=$(timeout 60 "$V" -o "$T/vf.lz4" -- "$PR" vfork)
is "$?" 0 "vfork: vmrec ends though a call of the process never does"
is "$out" "static PASS" "vfork: the program ran"
is "$("$TC" -g "$T/vf.lz4" 2>/dev/null)" "missing 1 lost 1" "vfork: the vfork alone is lost"
like "$("$VT" check "$T/vf.lz4" 2>&1)" ": OK:" "vfork: check finds the trace OK"
done_testing
