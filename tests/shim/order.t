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
	_bad=
	for _i in $(seq "$RUNS"); do
		_t="$T/$_name.$_i.lz4"
		"$V" -o "$_t" -- "$@" >/dev/null 2>"$T/err" || { _bad="$_bad run $_i: exit $? $(head -1 "$T/err")"; continue; }
		_c=$("$VT" check "$_t" | head -1)
		case $_c in *": OK: "*) ;; *) _bad="$_bad run $_i: $_c"; continue ;; esac
		for _how in "" "--threads" "--target sim --kernel host"; do
			"$VR" -q --strict $_how "$_t" >"$T/err" 2>&1 ||
				_bad="$_bad run $_i vmreplay --strict $_how: $(grep -v "^  " "$T/err" | head -1)"
		done
	done
	is "${_bad# }" "" "$_name: $RUNS recordings, each checks OK and replays --strict on the kernel, --threads, sim host"
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
# tests/shim/hole-fill-threads.t); under load (three of these tests at
# once, two cores), before calls that end at one seq went in the order
# the clock returned them, one in six (tests/trace/order.t), and before a
# process that forked while threaded took its calls one at a time, one in
# twenty (tests/shim/ordered-calls.t): a thread held off the CPU inside a
# call made its change at either end of it, which decided which
# neighbouring VMAs shared an anon_vma (docs/trace-format.md, "Order").
check "4 threads and fork" "$P/order_threads" fork 4 0x10000 600
check "signal handlers that map" "$P/thread_storm"
check "asynchronous cancellation" "$P/cancel_async"
done_testing
