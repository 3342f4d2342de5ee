#!/bin/sh
# A thread cancelled asynchronously: a call the kernel completed is in the
# trace even though the thread never returns to the program (the recorder
# defers asynchronous cancellation while it records a call).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$P/cancel_async"

for run in 1 2 3; do
	record "$T/c$run.lz4" "$P/cancel_async" >"$T/real$run"
	like "$("$VT" check "$T/c$run.lz4")" "OK: " "run $run: check OK"
	# the last successful mmap/munmap of each thread's page, from the trace
	"$TC" "$T/c$run.lz4" | awk '
		$3 == "mmap" && $NF ~ /^0x5/ { last[$4] = "mapped" }
		$3 == "munmap" && $4 ~ /^0x5000/ && $NF == "0" { last[$4] = "unmapped" }
		END { for (a in last) print a, last[a] }' | sort >"$T/traced$run"
	sort "$T/real$run" | grep -v ' unmapped$' >"$T/want$run"
	grep -v ' unmapped$' "$T/traced$run" >"$T/got$run"
	is_file "$T/got$run" "$T/want$run" "run $run: the pages the trace leaves mapped are the ones mapped"
done
done_testing
