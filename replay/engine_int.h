/* engine_int.h - what the replay loop (engine.c), image building
 * (image.c) and per-call translation (apply.c) share: the per-process
 * replay state and the helpers each of them calls. */
#ifndef VMREPLAY_ENGINE_INT_H
#define VMREPLAY_ENGINE_INT_H

#include <stdint.h>
#include "replay/addrmap.h"
#include "replay/engine.h"
#include "replay/placement.h"
#include "lib/compat.h"

struct rp_pstate {
	int owned, built, needs_build;
	struct rp_space *space;
	struct addrmap am;
	struct addrmap holds;  /* kernel: placeholders at the recorder's own VMAs (image.c) */
	uint32_t held;         /* sim: the recorder's VMAs in the model, not counted */
	const struct rp_unit *unit;  /* offsets for ranges not yet mapped */
	int64_t brk_delta;     /* recorded brk address + brk_delta = replay address */
	uint64_t cur_brk;      /* replay address; 0 unknown */
	uint64_t heap_start;   /* kernel: where the replayed heap starts, 0 none */
	uint32_t special;      /* [vdso] & co. of the image: counted, not rebuilt */
	int64_t count;         /* program VMAs now (kernel: running) */
	int64_t peak;
	int locked_future;     /* kernel: a replayed mlockall(MCL_FUTURE) holds (ipc.c) */
	uint64_t t_first;      /* when its first event was replayed */
	int started;
};

enum { STEP_DONE, STEP_FORK_CHILD };

static inline uint64_t rp_page_up(const struct rp_engine *e, uint64_t x)
{
	return (x + e->page - 1) & ~(e->page - 1);
}

/* say.c: a message about the trace, at most a few per replay. */
__attribute__((format(printf, 2, 3))) void rp_say(struct rp_engine *e, const char *fmt, ...);

/* image.c */
/* A replayed address space goes: its modelled cost (if the back end has
 * one) is added to the loop's first. */
static inline void rp_space_free(struct rp_engine *e, struct rp_space *s)
{
	if (e->be->model)
		e->be->model(s, e->sh->model);
	e->be->space_free(s);
}

int64_t rp_full_count(const struct rp_backend *be, const struct rp_pstate *p);
void rp_publish_count(struct rp_slot_state *st, const struct rp_pstate *p);
void rp_build_image(struct rp_engine *e, size_t step, uint32_t slot, struct rp_pstate *p,
                    const struct vmt_map *m);
/* The process has ended: its image goes (its counts stay). */
void rp_end_image(struct rp_engine *e, struct rp_pstate *p);
void rp_touch(struct rp_engine *e, struct rp_pstate *p, const struct vmt_residency *r);

/* files.c: recorded file `id` as process `slot` sees it (NULL: none), and
 * the descriptor of its stand-in (-1: none, or no stand-ins). */
const struct vmt_file *rp_file_of(const struct rp_trace *t, uint32_t slot, uint32_t id);
int rp_fd_of(const struct standins *si, const struct vmt_file *f);

/* apply.c: replay event i of `slot`; STEP_FORK_CHILD in a new fork child. */
int rp_replay_event(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i);

/* The address map's translation of a recorded address (apply.c and
 * apply_mem.c). */
static inline uint64_t rp_xlate(const struct rp_engine *e, const struct rp_pstate *p, uint64_t a)
{
	const struct am_range *r = am_find(&p->am, a);
	(void)e;
	return a + (uint64_t)(r ? r->delta : rp_unit_delta(p->unit, a));
}

/* apply.c: a call on the range of the table's address and length
 * arguments. */
void rp_ranged(struct rp_engine *e, struct rp_pstate *p, struct vmt_event *ev, int kind,
               struct vr_result *out, struct rp_effect *fx, int *skipped);
/* apply_mem.c: the calls whose arguments point into the program's memory
 * (their RANGES record, a nodemask, a name), the process-wide ones, and a
 * mapping call other than mmap. */
void rp_call_pointers(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                      struct vmt_event *ev);
/* 1 when the call's range is in its registers (a RANGES record, if it
 * reads one, holds something else: mbind's nodemask, a VMA's name) */
int rp_range_in_args(int sys);
void rp_apply_ranges_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                          struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want,
                          int *skipped);
void rp_apply_process_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                           struct vmt_event *ev, struct vr_result *out, int64_t *want);
void rp_apply_map_call(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                       struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want);
int64_t rp_ranges_offset(const struct rp_engine *e, const struct rp_pstate *p, const struct vmt_event *rec);
/* 1 + the step of the last process_madvise of another process that names
 * process `slot` (format 6's target), whose replayer must outlive it; 0:
 * none. */
uint32_t rp_last_remote_step(const struct rp_engine *e, uint32_t slot);

/* A new process (not a thread): fork, vfork, or clone/clone3 without CLONE_THREAD. */
static inline int rp_is_fork(const struct vmt_event *ev)
{
	return ev->sys == VMT_SYS_FORK || ev->sys == VMT_SYS_VFORK ||
	       ((ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) && !(ev->flags & VMT_EV_THREAD));
}

#endif
