#!/bin/sh
# Threads come and go, mapping, while signal handlers map, and the process
# exits with all of it going: every mmap a handler logged is in the trace
# or counted lost, and every seq no record holds is counted lost by an
# END (tracecalls -g).  Five recordings: the windows this guards (a
# handler at the fork gate's entry, in a thread's end, at the exit) are
# hit now and then, not every run (gate-entry.t and thread-end-exit.t hit
# them every run); and vmtrace check finds the order (a handler's mmap,
# long in the recorder's view, given a page another thread's mmap got and
# unmapped while it ran: tests/trace/order.t).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
VT=$B/bin/vmtrace
need_built "$VT" "$TC" "$P/signal_storm_threads"

for run in 1 2 3 4 5; do
	is "$(record "$T/$run.lz4" "$P/signal_storm_threads" "$T/$run.log")" PASS \
		"run $run: every call's result is right"
	logged=$(wc -c <"$T/$run.log")
	in_trace=$("$TC" "$T/$run.lz4" | grep -c ' mmap 0 0x1000 0x1 0x22 ')
	"$TC" -g "$T/$run.lz4" >"$T/$run.gaps" 2>&1
	gaps=$?
	lost=$(awk '/^missing/ { print $4 }' "$T/$run.gaps")
	# a handler the exit ends between its mmap and its log: one a thread
	ok "$([ "$((in_trace + ${lost:-0}))" -ge "$logged" ] && [ "$in_trace" -le "$((logged + 6))" ]; echo $?)" \
		"run $run: the handlers' $logged logged mmaps are in the trace ($in_trace) or counted lost (${lost:-?})"
	is "$gaps" 0 "run $run: no seq missing without a loss counted ($(tail -1 "$T/$run.gaps"))"
	like "$("$VT" check "$T/$run.lz4")" "OK: " "run $run: check OK"
done
done_testing
