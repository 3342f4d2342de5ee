#!/bin/sh
# A statically linked program runs as usual.  Under the vmrec launcher it
# is recorded for its whole life (the launcher's ptrace: libvmrec cannot
# be in it), started by vmrec or exec'd by a recorded program; preloaded
# alone it is not recorded, and that is said once.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
prog=$B/tests/shim/static_hello
need_built "$prog" "$B/bin/vmrec"
# built dynamic when there is no static libc (shim/module.mk)
file "$prog" 2>/dev/null | grep -q 'statically linked' || skip_all "no static libc to build with"

out=$("$B/bin/vmrec" -o "$T/a.lz4" -- "$prog" 2>"$T/err"); st=$?
is "$out:$st" "static PASS:4" "vmrec: the program runs, exit status kept"
is "$(cat "$T/err")" "" "vmrec: nothing on stderr"
is "$("$TC" "$T/a.lz4" | awk '{ print $3 }' | sort | uniq -c | tr -s ' ' | tr '\n' ,)" \
   " 5 brk, 1 exit_group, 1 mprotect," "vmrec: its calls are recorded, as strace shows them"
"$TC" -a "$T/a.lz4" | grep -q '^process ' ; ok $? "vmrec: its PROCESS is in the trace"

out=$("$B/bin/vmrec" -o "$T/c.lz4" -- sh -c "$prog; exec $prog" 2>"$T/err"); st=$?
is "$out:$st" "static PASS
static PASS:4" "vmrec: exec'd by a recorded shell: runs, exit status kept"
is "$(cat "$T/err")" "" "vmrec: exec'd: nothing on stderr"
is "$("$TC" "$T/c.lz4" | grep -c ' brk ')" 13 "vmrec: exec'd: the shell's 3 brk (its loader's too) and each static image's 5, as strace"

out=$(record "$T/b.lz4" sh -c "exec $prog" 2>"$T/err"); st=$?
is "$out:$st" "static PASS:4" "preloaded: exec'd by a recorded program: runs, exit status kept"
is "$(cat "$T/err")" "vmrec: $prog is statically linked: not recorded" "preloaded: exec'd: one clear warning"
n=$("$TC" "$T/b.lz4" | grep -cE ' execve .* = \?( file=[0-9]+)?$')
is "$n" 1 "preloaded: the execve into it is still in the trace"
done_testing
