#!/bin/sh
# The fork gate (shim/forkgate.c) looks only at threads that are alive:
# 64 threads that each recorded a call and exited (glibc unmaps the stacks
# it does not cache, and their TLS with them), then a fork while another
# thread lives.  When an exiting thread's last call enrolled it again, the
# fork read its unmapped TLS and the program died of SIGSEGV (status 139)
# under vmrec, and thread churn paid 25% per thread walking such slots.
# And a thread's first recorded calls, made the moment the process forks
# while no other thread has enrolled yet, wait for the fork too: before,
# the gate stayed open then, the first fork of 4 threads mapping 64 KiB
# overlapped their first mmaps, and its child's first checkpoint held a
# range the trace's order put after the fork (1 of 20 recordings;
# 30 forks of fork_first_calls: 90 to 216 overlapping calls).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$P/fork_after_threads" "$P/fork_first_calls" "$B/tests/trace/progs/fork_overlap"

"$P/fork_after_threads" 64 >"$T/native" 2>&1
is "$?:$(cat "$T/native")" "0:forked" "natively: the program forks and exits 0"
for i in 1 2 3; do
	"$V" -o "$T/t$i.lz4" -- "$P/fork_after_threads" 64 >"$T/out" 2>"$T/err"
	is "$?:$(cat "$T/out")$(cat "$T/err")" "0:forked" "recorded, run $i: the same status and output"
done
c=$("$VT" check "$T/t1.lz4" | head -1)
like "$c" ": OK: " "the trace checks OK"

"$V" -o "$T/first.lz4" -- "$P/fork_first_calls" 30 >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/out")$(cat "$T/err")" "0:forked" "30 forks, each as a new thread's first calls begin"
"$B/tests/trace/progs/fork_overlap" "$T/first.lz4" >"$T/overlap"
is "$(tail -1 "$T/overlap")" "forks 30 overlaps 0" "no call of another thread overlaps a fork"
grep '^overlap' "$T/overlap" | head -5 | sed 's/^/# /'
done_testing
