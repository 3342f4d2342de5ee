#!/bin/sh
# The simulator adapter (replay/backend_sim.c), the shmat/shmdt/mlockall code
# (replay/ipc.c) and the simulator's cost model (replay/sim/cost.c) keep no
# state of their own between calls: what they learn or make belongs to the
# space object, to the engine's ipc context or to the per-event table the
# driver owns, so one replay cannot leak into another and --threads shares
# nothing hidden.
# Any object in .data or .bss (or thread-local) of theirs is such state.
. "$(dirname "$0")/../lib.sh"
for o in replay/backend_sim.o replay/ipc.o replay/sim/cost.o; do
	f=$B/obj/$o
	[ -f "$f" ] || fail_all "$f is not built (make all tests, or make check)"
	# (ASan's own __odr_asan.* markers are not the code's)
	state=$(objdump -t "$f" | awk '$0 ~ /[ \t]\.(bss|data|tbss|tdata)[ \t]/ && $NF !~ /^\./ && $NF !~ /^__odr_asan/ { print $NF }' | tr '\n' ' ')
	is "$state" "" "$o: no module-level state"
done
done_testing
