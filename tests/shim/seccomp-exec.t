#!/bin/sh
# An inherited seccomp filter: the recorder makes no call in a new image
# that it can avoid (its pid and ppid come from the image before), so a
# filter trapping getppid does not kill /bin/true.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/seccomp_exec"

"$P/seccomp_exec"; native=$?
is "$native" 0 "native: the filter traps getppid, /bin/true exits 0"
record "$T/s.lz4" "$P/seccomp_exec" 2>"$T/err"; st=$?
is "$st" "$native" "recorded: exit status as native"
is "$(cat "$T/err")" "" "recorded: nothing on stderr"
like "$("$VT" check "$T/s.lz4")" "OK: " "check OK"
is "$("$TC" -a "$T/s.lz4" | grep -c '^process ')" 2 "both images recorded"
done_testing
