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
all=
front='replay/vmreplay.c replay/options.c replay/options.h replay/calibrate.c replay/blame.c replay/results.c replay/results.h'
driver=
for f in $(git ls-files 'replay/*.[ch]' 2>/dev/null || find replay -name '*.[ch]'); do
	case "$f" in replay/sim/* | replay/vm/* | replay/backend*) continue ;; esac
	all="$all $f"
	case " $front " in *" $f "*) continue ;; esac
	driver="$driver $f"
done
ok "$([ -n "$driver" ]; echo $?)" "the driver's sources are found"

# a back end's own names, a target's name, a back end's headers
bypass='rp_(sim|kernel)_[a-z_]+|\bsim_mm\b|"(sim|kernel)"|strcmp\([^)]*target|include "replay/sim/'
# shellcheck disable=SC2086
got=$(grep -nE "$bypass" $driver | sed 's/:[[:space:]]*/: /')
is "$got" "" "the driver goes around the back-end table nowhere"

# which back end runs: the driver and the front end ask the table's facts
# and operations (replayer_processes, recorded_addresses, real_objects,
# fork's answer, count_image, end_image, ...), never "is this the kernel"
# (a back end's target compared; a RANGES record's target pid is not it)
which='\bper_process\b|\bbe->target\b[^,;]*=='
# shellcheck disable=SC2086
is "$(grep -nE "$which" $all)" "" "replay/ tests nowhere but in backend_*.c which target it runs on"

# the patterns see what they are for
printf 'x = rp_sim_mm(s);\nif (strcmp(o->target, "sim") == 0)\n#include "replay/sim/sim.h"\nif (e->be->vmas)\n' >"$T/probe.c"
is "$(grep -cE "$bypass" "$T/probe.c")" "3" "the pattern finds a bypass, a target's name and a back end's header, not an operation"
printf 'if (e->be->per_process)\nif (e->be->real_objects)\nif (e->be->target == k)\nif (r->target == rec->pid)\n' >"$T/probe2.c"
is "$(grep -cE "$which" "$T/probe2.c")" "2" "the pattern finds a test of which target runs, not a fact of the table"
done_testing
