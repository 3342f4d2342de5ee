#!/bin/sh
# Under the launcher every process is traced, and a traced zombie is not
# its parent's to reap until the tracer has waited for it: a parent that
# polls its child's pidfd and then calls waitpid(WNOHANG) found nothing
# in 6 of 50 tries, and the kernel's guard-regions selftest failed 14-49
# of its 90 tests "recorded".  The launcher lets a process go at its exit
# stop, before it is a zombie (shim/launch_trace.c, set_opts).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmrec" "$B/bin/vmtrace" "$P/pidfd_wait"

out=$("$P/pidfd_wait" 200)
is "$?:$out" "0:0 of 200 children not reapable when their pidfd said so" "natively"
out=$("$B/bin/vmrec" -o "$T/t.lz4" -- "$P/pidfd_wait" 200)
is "$?:$out" "0:0 of 200 children not reapable when their pidfd said so" "under vmrec, as natively"
out=$("$B/bin/vmtrace" check "$T/t.lz4")
like "$out" ": OK: " "the trace checks OK"
like "$out" " 201 processes," "with every child"
like "$("$B/bin/vmtrace" stats "$T/t.lz4")" "checkpoints: start 2 exit 201 " "each reached its exit checkpoint"
done_testing
