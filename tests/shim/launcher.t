#!/bin/sh
# vmrec: exit status, default trace name, bad options and output, and the
# program's children recorded into one trace.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec

(cd "$T" && "$V" -- sh -c 'exit 3'); is "$?" 3 "the program's exit status"
ok $([ -s "$T/sh.vmrec.lz4" ]; echo $?) "default trace name PROGRAM.vmrec.lz4"
"$V" -o "$T/k.lz4" -- sh -c 'kill -SEGV $$' 2>/dev/null; is "$?" 139 "killed by a signal: 128 + N"
"$V" --bogus -- true 2>"$T/err"; is "$?" 2 "unknown option: status 2"
is "$(head -1 "$T/err")" "vmrec: unknown option --bogus" "unknown option: named"
"$V" -o 2>"$T/err"; is "$?" 2 "-o without its argument: status 2"
is "$(head -1 "$T/err")" "vmrec: option -o needs a file name" "-o without its argument: said so"
"$V" -o "$T/no/such/t.lz4" -- true 2>"$T/err"; is "$?" 2 "unwritable output: status 2"
is "$(cat "$T/err")" "vmrec: $T/no/such/t.lz4: No such file or directory" "unwritable output: named"
"$V" -o "$T/tree.lz4" -- sh -c 'sh -c true; true' >/dev/null
is "$("$TC" -a "$T/tree.lz4" | grep -c '^process ')" 3 "a process tree in one trace (sh and its vfork child, before and after exec)"
is "$("$TC" "$T/tree.lz4" | grep -c " vfork = ")" 1 "the vfork is there"
(cd "$T" && "$V" -o rel.lz4 -- sh -c 'cd / && sh -c true')
is "$("$TC" -a "$T/rel.lz4" | grep -c '^process ')" 3 "a relative -o still collects children that changed directory"
# the program is started as execvp would: along PATH, a script without
# #! under /bin/sh, and execvp's words for what cannot run
printf 'echo "ran $0 $*"\n' >"$T/noshebang" && chmod +x "$T/noshebang" && : >"$T/noexec"
is "$(PATH="$T:$PATH" "$V" -o "$T/s.lz4" -- noshebang a b)" "ran $T/noshebang a b" \
	"a script without #! found along PATH runs under /bin/sh"
"$V" -o "$T/s.lz4" -- "$T/no-such-prog" 2>"$T/err"; is "$?" 127 "no such program: status 127"
is "$(cat "$T/err")" "vmrec: $T/no-such-prog: No such file or directory" "no such program: named"
PATH="$T:$PATH" "$V" -o "$T/s.lz4" -- noexec 2>"$T/err"; is "$?" 127 "not executable: status 127"
is "$(cat "$T/err")" "vmrec: noexec: Permission denied" "one along PATH that cannot run: EACCES"
done_testing
