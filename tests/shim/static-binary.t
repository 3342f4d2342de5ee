#!/bin/sh
# A statically linked program is not recorded, says so once, and runs as
# usual - started by vmrec or exec'd by a recorded program.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
prog=$B/tests/shim/static_hello
need_built "$prog" "$B/bin/vmrec"
# built dynamic when there is no static libc (shim/module.mk)
file "$prog" 2>/dev/null | grep -q 'statically linked' || skip_all "no static libc to build with"

out=$("$B/bin/vmrec" -o "$T/a.lz4" -- "$prog" 2>"$T/err"); st=$?
is "$out:$st" "static PASS:4" "vmrec: the program runs, exit status kept"
is "$(cat "$T/err")" "vmrec: $prog is statically linked: not recorded" "vmrec: one clear warning"
ok "$([ ! -e "$T/a.lz4" ]; echo $?)" "vmrec: no trace file is left (main left an empty one)"

out=$(record "$T/b.lz4" sh -c "exec $prog" 2>"$T/err"); st=$?
is "$out:$st" "static PASS:4" "exec'd by a recorded program: runs, exit status kept"
is "$(cat "$T/err")" "vmrec: $prog is statically linked: not recorded" "exec'd: one clear warning"
n=$("$TC" "$T/b.lz4" | grep -cE ' execve .* = \?( file=[0-9]+)?$')
is "$n" 1 "the execve into it is still in the trace"
done_testing
