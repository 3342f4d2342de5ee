/* vmtrace_top_sim.h - `vmtrace top`'s `new` column without --results: the
 * outcome of every event when the trace is replayed in the simulator's
 * host profile, by the vmreplay installed beside vmtrace. */
#ifndef VMREC_VMTRACE_TOP_SIM_H
#define VMREC_VMTRACE_TOP_SIM_H

#include <stddef.h>
#include "analysis/vmtrace_top_results.h"

/* Traces with more events are not replayed for it (the replay and its
 * per-event results grow with the trace: about 20 us and 340 bytes an
 * event here); --results gives the column for any trace. */
#define TOP_SIM_MAX_EVENTS 100000

/* Replay TRACE in the simulator and load which events had OUTCOME.  0, or
 * -1 with why in err ("no vmreplay beside vmtrace (/x/bin/vmreplay)"). */
int top_sim_outcomes(const char *trace, const char *outcome, struct outcome_set *set,
                     char *err, size_t errlen);

#endif
