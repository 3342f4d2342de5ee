#!/bin/sh
# Nothing the program does to descriptors breaks recording: the recorder
# keeps none (the trace store is a mapping).  close_range over everything,
# dup2 over every fd, and python's subprocess (close_fds=True).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/close_fds"

for how in range dup2; do
	"$P/close_fds" $how >"$T/n.out" 2>"$T/n.err"; native=$?
	record "$T/$how.lz4" "$P/close_fds" $how >"$T/r.out" 2>"$T/r.err"; st=$?
	is "$st:$(cat "$T/r.out")" "$native:$(cat "$T/n.out")" "$how: exit status and output as native"
	is "$(cat "$T/r.err")" "$(cat "$T/n.err")" "$how: stderr as native (no recorder complaint)"
	like "$("$VT" check "$T/$how.lz4")" "OK: " "$how: check OK"
	is "$("$TC" "$T/$how.lz4" | grep -c ' mmap 0 0x[1-5]000 0x1 0x22 ')" 5 \
		"$how: the five mmaps after it are in the trace"
	is "$("$TC" "$T/$how.lz4" | grep -c ' mmap 0 0x7000 0x1 0x22 ')" 1 \
		"$how: and the child's"
	is "$("$TC" -a "$T/$how.lz4" | grep -c '^process ')" 3 "$how: three process images"
done

if command -v python3 >/dev/null 2>&1; then
	py='import subprocess; subprocess.run(["ls", "/"])'
	python3 -c "$py" >"$T/n.out" 2>"$T/n.err"; native=$?
	record "$T/py.lz4" python3 -c "$py" >"$T/r.out" 2>"$T/r.err"; st=$?
	is "$st" "$native" "python subprocess: exit status as native"
	is_file "$T/r.out" "$T/n.out" "python subprocess: output as native"
	is_file "$T/r.err" "$T/n.err" "python subprocess: stderr as native"
	like "$("$VT" check "$T/py.lz4")" "OK: " "python subprocess: check OK"
	ok $([ "$("$TC" -a "$T/py.lz4" | grep -c '^process ')" -ge 2 ]; echo $?) \
		"python subprocess: ls is in the trace"
fi
done_testing
