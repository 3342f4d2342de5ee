#!/bin/sh
# backend.h is the only place that knows the target: the replay driver
# asks the back-end table's operations (vmas, place_heap, hold_low, ...)
# and never tests which back end it runs on, nor calls a back end's own
# functions around the table.  Only the back ends (backend_*.c) and the
# front end that picks one from --target (vmreplay.c and options.c, and
# the tools that run a given target: calibrate.c, blame.c, results.c's
# simulator-only fields) name the targets.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
front='replay/vmreplay.c replay/options.c replay/options.h replay/calibrate.c replay/blame.c replay/results.c replay/results.h'
driver=
for f in $(git ls-files 'replay/*.[ch]' 2>/dev/null || find replay -name '*.[ch]'); do
	case "$f" in replay/sim/* | replay/vm/* | replay/backend*) continue ;; esac
	case " $front " in *" $f "*) continue ;; esac
	driver="$driver $f"
done
ok "$([ -n "$driver" ]; echo $?)" "the driver's sources are found"

# a back end's own names, a target's name, a back end's headers
bypass='rp_(sim|kernel)_[a-z_]+|\bsim_mm\b|"(sim|kernel)"|strcmp\([^)]*target|include "replay/sim/'
# shellcheck disable=SC2086
got=$(grep -nE "$bypass" $driver | sed 's/:[[:space:]]*/: /')
is "$got" "" "the driver goes around the back-end table nowhere"

# EXCEPTION, issue 37: tests of be->per_process (is this the kernel) left
# in the driver, per file.  Each goes when a named operation of the table
# replaces it; the count must then go down here, so it cannot grow back.
per_process='replay/apply.c:3 replay/apply_mem.c:5 replay/engine.c:8 replay/ipc.c:2'
bad=
for f in $driver; do
	n=$(grep -c 'per_process' "$f")
	want=0
	for x in $per_process; do
		[ "${x%%:*}" = "$f" ] && want=${x#*:}
	done
	[ "$n" = "$want" ] || bad="$bad $f:$n(excused $want)"
done
is "${bad# }" "" "be->per_process is tested only where the exception says, as often as it says"

# the patterns see what they are for
printf 'x = rp_sim_mm(s);\nif (strcmp(o->target, "sim") == 0)\n#include "replay/sim/sim.h"\nif (e->be->vmas)\n' >"$T/probe.c"
is "$(grep -cE "$bypass" "$T/probe.c")" "3" "the pattern finds a bypass, a target's name and a back end's header, not an operation"
done_testing
