/* blame.h - who a checkpoint whose VMA count differs is down to: the
 * trace, or the layout of the kernel (or profile) that replayed it. */
#ifndef VMREPLAY_BLAME_H
#define VMREPLAY_BLAME_H

#include "replay/engine.h"
#include "replay/results.h"

struct sim_profile;

/* The simulator's profile for a trace recorded on `recorded` (uname -r):
 * host when that is this machine's kernel, else the newest release
 * profile not newer than it; NULL when none (before the oldest). */
const struct sim_profile *rp_recording_profile(const char *recorded);

/* Give each checkpoint of r's reported loop whose count differs its
 * verdict, as a fidelity difference of kind "count" (the trace lacks
 * something: the recording kernel's profile, replaying the same trace,
 * does not give the recorded count either) or "layout" (it does: the
 * replaying kernel lays VMAs out differently; the first event whose
 * outcome differs from the profile's, and the rules).  e: the engine that
 * replayed (its last loop's per-event results); kernel: its uname -r or
 * profile name.  1 when --strict must fail for them: a checkpoint the
 * trace cannot explain, one on the recording's own kernel, or one
 * without a profile to decide. */
int rp_blame(const struct rp_engine *e, const char *kernel, struct rp_run *r);

#endif
