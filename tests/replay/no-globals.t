#!/bin/sh
# The simulator adapter (replay/sim.c) and the shmat/shmdt/mlockall code
# (replay/ipc.c) keep no state of their own between calls: what they learn
# or make belongs to the space object or to the engine's ipc context, so
# one replay cannot leak into another and --threads shares nothing hidden.
# Any object in .data or .bss (or thread-local) of theirs is such state.
. "$(dirname "$0")/../lib.sh"
for o in replay/sim.o replay/ipc.o; do
	f=$B/obj/$o
	[ -f "$f" ] || fail_all "$f is not built (make all tests, or make check)"
	state=$(objdump -t "$f" | awk '$0 ~ /[ \t]\.(bss|data|tbss|tdata)[ \t]/ && $NF !~ /^\./ { print $NF }' | tr '\n' ' ')
	is "$state" "" "$o: no module-level state"
done
done_testing
