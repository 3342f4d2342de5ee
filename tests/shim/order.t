#!/bin/sh
# Threaded programs whose calls overlap in time on the same pages (threads
# reusing each other's ranges, mprotect in the loop, brk from several
# threads, fork from a threaded program, signal handlers that map while
# threads map, asynchronous cancellation) record into traces whose order
# the kernel could have produced: vmtrace check proves it and vmreplay
# --strict reproduces every call and checkpoint, on this kernel, with
# --threads and in the simulator's host profile (docs/trace-format.md,
# "Order").  Before calls had an end, 4 of 10 recordings of two such
# threads (and all with mprotect in the loop) replayed with EEXIST.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace VR=$B/bin/vmreplay
need_built "$V" "$VT" "$VR" "$P/order_threads" "$P/thread_storm" "$P/cancel_async"
RUNS=${ORDER_RUNS:-2}

# check NAME PROG ARGS...: recorded RUNS times, each proven and replayed
check() {
	_name=$1; shift
	_bad= _rbad= _other=
	for _i in $(seq "$RUNS"); do
		_t="$T/$_name.$_i.lz4"
		"$V" -o "$_t" -- "$@" >/dev/null 2>"$T/err" || { _bad="$_bad run $_i: exit $? $(head -1 "$T/err")"; continue; }
		_c=$("$VT" check "$_t" | head -1)
		case $_c in *": OK: "*) ;; *) _bad="$_bad run $_i: $_c"; continue ;; esac
		for _how in "" "--threads" "--target sim --kernel host"; do
			"$VR" -q --strict $_how "$_t" >"$T/err" 2>&1 && continue
			_rbad="$_rbad run $_i vmreplay --strict $_how: $(grep -v "^  " "$T/err" | head -1)"
			# every count that differs: one the recorded order cannot tell
			grep '^  count: ' "$T/err" | grep -qv 'the trace cannot tell the order' && _other=1
			grep -q '^  count: ' "$T/err" || _other=1
		done
	done
	_what="$_name: $RUNS recordings, each checks OK and replays --strict on the kernel, --threads, sim host"
	if [ -n "${REPLAY_GAP:-}" ] && [ -z "$_bad" ] && [ -n "$_rbad" ] && [ -z "$_other" ]; then
		_n=$((_n + 1))   # the trace checks OK; the replay's known gap, said
		echo "not ok $_n - $_what # TODO $REPLAY_GAP"
		echo "#  ${_rbad# }"
	else
		is "${_bad# }${_rbad}" "" "$_what"
	fi
	_rbad=
}

check "2 threads, 4 KiB" "$P/order_threads" map 2 4096 2000
check "4 threads, 1 MiB" "$P/order_threads" map 4 0x100000 1000
check "8 threads, 64 KiB" "$P/order_threads" map 8 0x10000 400
check "4 threads, mprotect" "$P/order_threads" mprotect 4 0x100000 800
check "4 threads, brk" "$P/order_threads" brk 4 4096 800
# A fork child's first checkpoint copies what the threads' calls left at
# that moment: before the fork gate closed with no thread enrolled yet
# and the recorder asked about holes other threads' ranges bound, 3 in 20
# recordings were one VMA off (tests/shim/fork-gate.t,
# tests/shim/hole-fill-threads.t); before calls that end at one seq went
# in the order the clock returned them, about one in six under load
# (tests/trace/order.t).  Under load about one in twenty still is one VMA
# off: a thread held off the CPU for milliseconds inside a call made its
# change early or late, and neither its seq nor its clock interval says
# which (docs/trace-format.md, "Order").  The trace must still check OK
# and every count that differs must be one vmreplay says the order cannot
# tell; then the replay's difference is said as a TODO.
REPLAY_GAP="under load a fork child's first checkpoint can be one VMA off: the order the trace cannot tell (issue 31)"
check "4 threads and fork" "$P/order_threads" fork 4 0x10000 600
REPLAY_GAP=
check "signal handlers that map" "$P/thread_storm"
check "asynchronous cancellation" "$P/cancel_async"
done_testing
