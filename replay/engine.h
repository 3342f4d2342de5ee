/* engine.h - the replay driver: walks the trace's steps in global order,
 * one replayer per recorded process (kernel) or all in one (simulator),
 * translates addresses, applies calls through a back end and leaves the
 * per-event results in memory shared by every replayer. */
#ifndef VMREPLAY_ENGINE_H
#define VMREPLAY_ENGINE_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>
#include "replay/backend.h"
#include "replay/options.h"
#include "replay/standin.h"
#include "replay/trace.h"

/* One replayed event. */
struct rp_evres {
	int64_t ret;
	uint64_t latency_ns;
	int64_t vma_count;    /* program VMAs after it; -1 unknown */
	const char *rule;     /* simulator: the rule that decided it */
	uint64_t order;       /* position in the replay's own order, from 1 */
	int64_t offset;       /* replay - recorded address (apply.c, event_offset) */
	int32_t err;
	uint8_t outcome;
	uint8_t done;         /* reached */
	uint8_t mismatch;     /* result differs from the recorded one */
	uint8_t skipped;      /* not replayed (unsupported or unsafe) */
	uint8_t moved;        /* an absolute low address issued elsewhere */
};

struct rp_slot_state {
	_Atomic uint8_t finished;
	int32_t real_pid;
	int64_t rss_base;     /* bytes its replayer held when it started, -1 unknown */
	int64_t start_count, end_count, peak;
	uint64_t t_first, t_last;
};

/* The replayed VMAs (recorded addresses) of a checkpoint whose count
 * differs, kept for the report (fidelity.c). */
#define RP_SNAP_MAX 8
#define RP_SNAP_VMAS 8192
struct rp_snap_vma {
	uint64_t start, end;     /* recorded addresses of one piece of a replayed VMA */
	uint64_t rstart, rend;   /* the whole replayed VMA, replay addresses */
	uint32_t prot, shared;
	uint64_t inode;          /* 0: anonymous */
	uint32_t id;             /* pieces of one replayed VMA share it */
	uint32_t beyond;         /* the VMA reaches past the program's ranges */
};
struct rp_snap {
	uint32_t ck, first, n;
	_Atomic uint32_t ready;
};

/* Shared between the driver and every replayer (MAP_SHARED). */
struct rp_shared {
	_Atomic uint32_t turn, waiters;
	_Atomic uint32_t unplaceable, printed, skipped_unsafe;
	_Atomic uint64_t order;
	/* why this loop is not a whole replay of the trace (a replayer ended
	 * abnormally, the memory budget stopped it, a fork failed): the first
	 * reason, set once (rp_incomplete); stopped: the budget killed it */
	_Atomic uint32_t incomplete, stopped;
	/* the replayer of a process that has done its last step, which the
	 * step after it waits to be gone (engine.c, wait_turn); 0: none */
	_Atomic int32_t gone;
	char why[256];
	struct rp_slot_state *slots;  /* nprocs */
	struct rp_evres *ev;          /* nevents */
	int64_t *ck;                  /* replayed count per checkpoint; INT64_MIN: not reached */
	_Atomic uint32_t nsnaps, snap_used;
	struct rp_snap snaps[RP_SNAP_MAX];
	struct rp_snap_vma *snap_vmas;  /* RP_SNAP_VMAS */
	uint64_t model[RP_MODEL_MAX];   /* this loop's modelled kernel cost (backend.h) */
};

struct rp_pstate;
struct rp_threads;
struct rp_ipc;

struct rp_engine {
	const struct rp_trace *t;
	const struct rp_opts *o;
	const struct rp_backend *be;
	struct rp_backend_cfg cfg;
	const struct standins *si;
	struct rp_shared *sh;
	size_t shared_bytes;
	struct rp_spill ev_sp;  /* what holds sh->ev (spill.h) */
	int shared_used;      /* a run wrote the results: clear them before the next */
	struct rp_layout *layout;  /* kernel: where each address space goes (placement.h) */
	uint64_t base_brk;    /* this process's break before any replay */
	int heap_in_place;    /* kernel: recorded heaps go where they were (set_break.h) */
	pid_t driver_pid;
	uint64_t page;
	int multi;            /* several replayers: take turns */
	int lean_brk;         /* brk takes apply.c's short path, no outcome */
	int known_brk;        /* brk tries the short path with the back end's brk_known */
	int quiet_mismatch;   /* print no per-event messages (later loops) */
	int silent;           /* print nothing at all (blame.c's referee) */
	uint64_t order;       /* events replayed, in a single replayer */
	struct rp_pstate *ps; /* per process slot */
	/* called about every 200 ms during a kernel replay with the events done */
	void (*tick)(struct rp_engine *e, uint64_t events_done);
	void *tick_arg;
	struct rp_threads *thr; /* --threads (kernel): dependencies and lanes, engine.c */
	struct rp_ipc *ipc;   /* shmat & co.: their tables (ipc.c) */
	uint64_t mem_limit;   /* --mem-limit in bytes, 0: none (membudget.h) */
	uint64_t mem_peak;    /* the most the replay held, as the budget counts it */
};

/* 0, or -1 with a message printed. */
int rp_engine_init(struct rp_engine *e, const struct rp_trace *t, const struct rp_opts *o,
                   const struct rp_backend *be, const struct rp_backend_cfg *cfg,
                   const struct standins *si);
/* The replay is not whole (a replayer ended abnormally, a fork failed,
 * the budget stopped it): said on stderr, the first reason kept for the
 * results (sh->why); the run counts as incomplete (say.c). */
__attribute__((format(printf, 2, 3))) void rp_incomplete(struct rp_engine *e, const char *fmt, ...);
/* The per-event arrays (the trace's, the results) leave this process's
 * memory but for the events from `ev` on, made resident in one call; a
 * loop forward over the events calls rp_engine_tick with its index. */
void rp_engine_window(const struct rp_engine *e, size_t ev);
static inline void rp_engine_tick(const struct rp_engine *e, size_t i)
{
	if (i % RP_SPILL_WINDOW == RP_SPILL_WINDOW - 1)
		rp_engine_window(e, i + 1);
}
/* Replay the whole trace once, from a fresh address space. */
int rp_engine_run_once(struct rp_engine *e);
void rp_engine_free(struct rp_engine *e);

#endif
