/* trace.h - a whole trace loaded into memory in global seq order, as the
 * replay needs it: one step list, the records each step points at, the
 * process tree and the file identities. */
#ifndef VMREPLAY_TRACE_H
#define VMREPLAY_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "replay/spill.h"
#include "vmt.h"

enum rp_step_kind { RP_PROCESS, RP_MAP, RP_CHECKPOINT, RP_RESIDENCY, RP_EVENT };

/* How the program maps a file (rp_trace.file_use): the recorder's own
 * VMAs (its store) do not count. */
enum { RP_FILE_MAPPED = 1, RP_FILE_SHARED_WRITE = 2 };

struct rp_step {
	uint8_t kind;         /* enum rp_step_kind */
	uint32_t slot;        /* the process (index into rp_trace.procs) */
	uint32_t idx;         /* index into the array of its kind */
};

struct rp_proc_info {
	int32_t pid, ppid;
	int32_t parent_slot;  /* -1: a root, started by the driver */
	uint32_t first_step;
	uint32_t last_step;   /* its last step (vfork_first's order) */
	uint32_t nthreads;    /* distinct tids seen */
	uint32_t nevents;     /* its events */
};

struct rp_trace {
	const char *path;
	struct vmt_header header;
	struct rp_step *steps;       size_t nsteps;
	struct vmt_event *events;    size_t nevents;
	struct vmt_map *maps;        size_t nmaps;
	struct vmt_checkpoint *cks;  size_t ncks;
	struct vmt_map *layouts;     size_t nlayouts; /* LAYOUT records, in seq order */
	struct vmt_residency *res;   size_t nres;
	struct vmt_process *images;  size_t nimages;
	struct vmt_file *files;      size_t nfiles;   /* sorted by (pid, id) */
	struct vmt_ranges *ranges;   size_t nranges;  /* RANGES records, sorted by (seq, pid) */
	uint64_t *file_need;         /* bytes a stand-in must have, per file */
	uint8_t *file_use;           /* per file: RP_FILE_* */
	struct rp_proc_info *procs;  size_t nprocs;
	uint32_t *step_of_event;     /* event index -> step index */
	struct rp_spill steps_sp, events_sp, soe_sp;  /* what holds them (spill.h) */
	/* each process's first pair of calls that overlapped in time on
	 * neighbouring pages (the reader's order stats) */
	struct vmt_order_near nears[VMT_ORDER_CONFLICTS]; size_t nnears;
	int incomplete;              /* the reader stopped at an error */
	char note[512];              /* its message */
};

/* 0, or -1 with a one-line message in *why (trace unreadable, or it
 * breaks a rule of traces/vmt_check.h: checked as it loads, before any
 * target replays). */
int rp_trace_load(struct rp_trace *t, const char *path, char *why, size_t whylen);
void rp_trace_free(struct rp_trace *t);

/* The per-event arrays (steps, events, step_of_event) leave this process's
 * memory (spill.h). */
void rp_trace_drop(const struct rp_trace *t);
/* Drops them, then makes the next window resident in one call: the steps
 * from `step` and the events after the first of them.  Returns the index
 * of that event (SIZE_MAX: none). */
size_t rp_trace_window(const struct rp_trace *t, size_t step);
/* Called with its index by a loop over the steps, forward (the window
 * after it made resident), or over anything else (dropped only). */
static inline void rp_trace_tick(const struct rp_trace *t, size_t s)
{
	if (s % RP_SPILL_WINDOW == RP_SPILL_WINDOW - 1)
		rp_trace_window(t, s + 1);
}
static inline void rp_trace_tick_drop(const struct rp_trace *t, size_t i)
{
	if (i % RP_SPILL_WINDOW == RP_SPILL_WINDOW - 1)
		rp_trace_drop(t);
}

const struct vmt_file *rp_trace_file(const struct rp_trace *t, int32_t pid, uint32_t id);
/* The RANGES record of an event, or NULL (its memory could not be read). */
const struct vmt_ranges *rp_trace_ranges(const struct rp_trace *t, const struct vmt_event *ev);
size_t rp_trace_file_index(const struct rp_trace *t, const struct vmt_file *f);

int rp_is_special_vma(const struct vmt_vma *v);   /* [vdso] [vvar] ... */
/* The VMAs recorded at checkpoint ck (its LAYOUT), or NULL: only exit and
 * requested checkpoints of format-4 traces have one. */
const struct vmt_map *rp_trace_layout(const struct rp_trace *t, const struct vmt_checkpoint *ck);

#endif
