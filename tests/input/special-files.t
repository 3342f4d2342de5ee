#!/bin/sh
# A tool given something other than a file to read - a FIFO nobody
# writes, a device - answers in one line with a non-zero status; it never
# waits in open() or reads forever (each run is killed after 60 s: 124).
# A pipe with a writer (process substitution) is read as results are.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace" "$B/bin/vmreplay" "$B/bin/vmreport"
mkfifo "$T/fifo"
D=$S/tests/report/data

# NAME WHAT CMD... : refused, quickly, in one line naming WHAT
refused() {
	name=$1 what=$2
	shift 2
	timeout 60 "$@" >"$T/out" 2>"$T/err"
	st=$?
	ok "$([ $st -ne 0 ] && [ $st -ne 124 ]; echo $?)" "$name: refused, not waited on (exit $st; 124: it waited)"
	ok "$(grep -q "$what" "$T/err" && [ "$(sort -u "$T/err" | wc -l)" -eq 1 ]; echo $?)" \
		"$name: one line naming it: $(head -n 1 "$T/err")"
}
refused "vmtrace check FIFO" "$T/fifo" "$B/bin/vmtrace" check "$T/fifo"
refused "vmtrace stats FIFO" "$T/fifo" "$B/bin/vmtrace" stats "$T/fifo"
refused "vmreplay FIFO" "$T/fifo" "$B/bin/vmreplay" -q "$T/fifo"
refused "vmreport FIFO" "$T/fifo" "$B/bin/vmreport" "$D/brk-6.1.json" "$T/fifo"
refused "vmreport /dev/zero" /dev/zero "$B/bin/vmreport" "$D/brk-6.1.json" /dev/zero
refused "vmtrace import-strace FIFO" "$T/fifo" "$B/bin/vmtrace" import-strace "$T/fifo" -o "$T/t.lz4"
refused "vmtrace import-strace /dev/zero" /dev/zero "$B/bin/vmtrace" import-strace /dev/zero -o "$T/t.lz4"

# a pipe someone writes is results like a file (bash's <(...) is one)
cat "$D/brk-6.8.json" >"$T/fifo" &
timeout 60 "$B/bin/vmreport" "$D/brk-6.1.json" "$T/fifo" >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "vmreport reads results from a pipe that is written"
wait
done_testing
