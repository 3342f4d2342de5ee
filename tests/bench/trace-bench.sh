#!/bin/sh
# make bench: the trace format's size and speed targets, measured in one run.
B=${VMREC_BUILD:-build}
exec "$B/bench/trace-bench" "${TMPDIR:-/tmp}" "${TRACE_BENCH_EVENTS:-2000000}"
