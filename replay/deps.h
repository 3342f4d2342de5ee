/* deps.h - for --threads: which earlier steps each step of a trace must
 * wait for, so that every recorded thread can be replayed by its own thread
 * and still keep the recorded order wherever the order matters.
 *
 * A lane is one recorded thread of one process; it replays its steps in
 * order, so a step needs to wait only for the last conflicting step of each
 * OTHER lane.  Within a process two steps conflict when
 *   - either is process-wide: a map, checkpoint or residency record, the
 *     process's first step, fork, exec, exit_group, a call whose place the
 *     kernel chooses (no fixed address, with --placement kernel, or one that
 *     failed when recorded), a brk whose previous break is unknown;
 *   - both are brk calls (one break per process);
 *   - their recorded page ranges overlap or touch (neighbouring VMAs merge
 *     and split together, which decides outcomes and VMA counts).
 * Across processes the only edge is a child's first step after its fork. */
#ifndef VMREPLAY_DEPS_H
#define VMREPLAY_DEPS_H

#include <stddef.h>
#include <stdint.h>
#include "replay/spill.h"
#include "replay/trace.h"

/* What grows with the trace's steps (lane, off, next: 12 bytes a step; dep:
 * 4 bytes a dependency) is held as the trace's own arrays are (spill.h):
 * past 8 MiB in files, of which the sweep that builds them and the lanes
 * that read them keep resident only the window they work on
 * (rp_deps_drop).  What grows with lanes is plain memory. */
struct rp_deps {
	uint32_t nlanes;
	uint32_t *lane;        /* per step: its lane */
	uint32_t *lane_slot;   /* per lane: its process slot */
	int32_t *lane_tid;     /* per lane: its recorded tid */
	uint32_t *off;         /* nsteps + 1: step s waits for dep[off[s] .. off[s + 1]) */
	uint32_t *dep;         /* step indices, ascending within a step, one per lane */
	size_t ndeps;
	uint32_t *next;        /* per step: the next step of its lane; UINT32_MAX none */
	struct rp_spill lane_sp, off_sp, dep_sp, next_sp;   /* what holds those four */
	uint32_t *lane_first;  /* per lane: its first step; UINT32_MAX none */
	/* per lane: the recorded clone that made the thread, when it comes
	 * before the thread's first step (else UINT32_MAX: the thread is
	 * started with its process) */
	uint32_t *lane_spawn;
	uint32_t *spawns;      /* the lanes with a lane_spawn, in its order */
	uint32_t nspawns;
};

/* The recorded thread a step belongs to: an event's tid; the process's own
 * pid for maps, checkpoints and residency records. */
int32_t rp_step_tid(const struct rp_trace *t, size_t s);

/* 0, or -1 (out of memory).  kernel_placement: --placement kernel. */
int rp_deps_build(struct rp_deps *d, const struct rp_trace *t, int kernel_placement, uint64_t page);
void rp_deps_free(struct rp_deps *d);
/* The per-step arrays and the dependencies leave this process's memory
 * (still in their files; spill.h). */
void rp_deps_drop(const struct rp_deps *d);
/* The lane whose thread step s starts (a clone), or UINT32_MAX. */
uint32_t rp_deps_spawned(const struct rp_deps *d, uint32_t s);

#endif
