/* fidelity.h - which VMAs differ when a checkpoint's VMA count does not
 * match the recording.  The replayer keeps its VMAs at a mismatching
 * checkpoint (rp_fidelity_snap, cold: only on a mismatch, first loop
 * only); the driver rebuilds the recorded layout at that checkpoint from
 * the process's map and its recorded calls and compares (rp_fidelity_diffs). */
#ifndef VMREPLAY_FIDELITY_H
#define VMREPLAY_FIDELITY_H

#include <stddef.h>
#include <stdint.h>

struct rp_engine;
struct rp_pstate;

struct rp_fid_diff {
	int32_t pid;
	uint32_t ck;             /* index of the checkpoint (rp_trace.cks) */
	long after_event;        /* the pid's last event before it, -1 none */
	const char *kind;        /* "missing", "extra", "merged", "split", "differs", "count", "layout" */
	char recorded[192];      /* the recorded VMA, or what the recording says */
	char replay[768];        /* what the replay has there */
};

/* In the replayer, at checkpoint `ck` whose count differs. */
void rp_fidelity_snap(struct rp_engine *e, struct rp_pstate *p, uint32_t ck);
/* In the driver after a loop: the differences of every kept checkpoint
 * (malloc'd array in *out, its length returned; 0 and NULL when none). */
size_t rp_fidelity_diffs(const struct rp_engine *e, struct rp_fid_diff **out);

#endif
