/* backend.h - what differs between replaying on this kernel and in the
 * simulator: building an address space, applying one call (already
 * translated to replay addresses), touching pages, counting and listing
 * VMAs, placing the heap, fork, ending an image, and the facts of the
 * target the driver asks by name (replayer_processes, ...).  Everything
 * else (trace order, translation, measurements) is the driver's.
 *
 * Errors, in the table and in the driver (the files of replay/), one way:
 *  - an operation that can fail returns a negative errno (-ENOMEM) on
 *    failure, else 0 or what it counts (VMAs, a pid); it prints nothing:
 *    its caller says what failed (rp_say, rp_incomplete);
 *  - a replayed call's own failure is no error of ours: it is the call's
 *    result (vr_result's err and outcome), compared with the recording;
 *  - a question answers 1 or 0 (brk_known), a constructor NULL (space_new);
 *  - a driver function that gives up returns -1 having said why on
 *    stderr in one line; one that runs before there is a replay to speak
 *    for (options, trace loading, stand-in files) fills the caller's
 *    `why` buffer instead. */
#ifndef VMREPLAY_BACKEND_H
#define VMREPLAY_BACKEND_H

#include <stdint.h>
#include <string.h>
#include "vmt.h"
#include "lib/outcome.h"
#include "replay/addrmap.h"

struct rp_space;   /* one replayed address space (a back end's own state) */
struct sim_events; /* the simulator's modelled cost per event (replay/sim/sim.h) */
struct sim_calib;  /* the simulator's per-unit costs (replay/sim/sim.h) */

/* The part of the address space a call changes, for outcome derivation. */
struct rp_effect {
	uint64_t lo, hi;     /* replay addresses, page aligned */
	int kind;            /* enum rp_effect_kind */
	int fresh;           /* CREATE over a range known to be free (NOREPLACE, brk) */
	int64_t vma_delta;   /* out: VMAs added by the call (kernel, when measured) */
	int have_delta;      /* out */
	/* the call's RANGES record, NULL: none (its ranges and name as
	 * recorded; the kernel back end gets them in the event's registers) */
	const struct vmt_ranges *ranges;
};
enum rp_effect_kind { RP_FX_NONE, RP_FX_CREATE, RP_FX_REMOVE, RP_FX_MODIFY, RP_FX_BRK, RP_FX_MREMAP };

/* One stand-in mapping of an initial memory map. */
struct rp_standin_map {
	uint64_t start, end, offset;
	int prot, flags;     /* mmap prot and flags (MAP_PRIVATE/SHARED, ANONYMOUS, GROWSDOWN) */
	int fd;              /* -1: anonymous */
	const struct vmt_file *file;
	/* a placeholder of a recorder VMA: the kernel never populates it
	 * (mlockall, MAP_POPULATE), only its edge pages carry prot */
	int hold;
};

/* One VMA of a space, as the back end's vmas lists it. */
struct rp_vma {
	uint64_t start, end;   /* replay addresses */
	uint32_t prot;         /* VMT_PROT_* */
	uint32_t shared;
	uint64_t file;         /* kernel: the inode; sim: the model's file id; 0: anonymous */
};

/* A new image's heap, recorded [start_brk, brk): place_heap's question
 * and answer. */
struct rp_heap {
	uint64_t start_brk, brk;   /* recorded */
	int64_t delta;             /* kernel: where the image's unit moves it */
	uint64_t own_brk;          /* kernel: the replayer's own break, where it grows otherwise */
	int in_place;              /* kernel: this kernel lets the replayer move its break */
	int64_t brk_delta;         /* out: a recorded brk address + brk_delta = the replay's */
	uint64_t heap_start;       /* out: where the replayed heap starts, 0: not known */
	uint64_t cur_brk;          /* out: the replay's break now */
};

/* What fork made: the child's replay goes on in a new OS process (pid;
 * in that process, in_child is 1 and the space the same), or in this
 * process, in the space `child` (pid 0). */
struct rp_forked {
	struct rp_space *child;
	int32_t pid;
	int in_child;
};

/* A replayed program's image, as the driver tracks it: its ranges
 * (recorded; replayed = recorded + delta), the placeholders of the
 * recorder's VMAs, what it counts without rebuilding, its heap. */
struct rp_image {
	const struct addrmap *am;      /* the program's mappings */
	const struct addrmap *holds;   /* the recorder's VMAs (placeholders) */
	uint32_t special;              /* [vdso] & co.: counted, not rebuilt */
	uint64_t heap_start;           /* replay address of the heap's start, 0: none */
	int locked_future;             /* a replayed mlockall(MCL_FUTURE) holds */
};

/* What a back end is told when a space is made, instead of globals. */
struct rp_backend_cfg {
	const void *profile;    /* sim: its kernel profile (struct sim_profile) */
	int thp;                /* sim: transparent_hugepage/enabled (enum sim_thp) */
	uint32_t mthp_always, mthp_madvise;   /* sim: mTHP orders (sim_mm_set_mthp) */
	const struct sim_calib *calib;        /* sim: the costs of vmreplay.model.cost_ns */
	/* sim: the table the spaces keep each event's modelled cost in
	 * (--per-event; the driver's, read back for its results); NULL: none */
	struct sim_events *events;
	int outcomes;           /* kernel: derive merge outcomes (0: --no-outcomes) */
	uint64_t clock_cost;    /* kernel: ns subtracted from every measured latency */
	uint64_t page_size;     /* kernel: this machine's page size */
	/* kernel, --threads: apply is called holding the engine's lock, which
	 * it gives up around the call (so the lanes' calls overlap) with
	 * release(lock_arg) and take(lock_arg); NULL: no lock. */
	void (*release)(void *lock_arg);
	void (*take)(void *lock_arg);
	void *lock_arg;
};

struct rp_backend {
	const char *target;                     /* "kernel", "sim" */
	/* A fresh space for the first image (kernel: this process). */
	struct rp_space *(*space_new)(const struct rp_backend_cfg *cfg, const struct vmt_map *map,
	                              const struct vmt_host *host);
	/* Place one stand-in mapping: 0 or -errno (-EEXIST: something is there). */
	int (*standin)(struct rp_space *s, const struct rp_standin_map *m);
	/* Apply one call; fx says which range it touches (kernel: the outcome
	 * is derived from the VMAs around fx before and after). */
	void (*apply)(struct rp_space *s, const struct vmt_event *ev, const struct vmt_file *file,
	              struct rp_effect *fx, struct vr_result *out);
	/* Fault in pages [start, start + n * page) per bits (LSB first). */
	void (*touch)(struct rp_space *s, const struct vmt_residency *res);
	/* VMAs in the sorted, disjoint replay ranges (kernel) or all (sim);
	 * -errno when they cannot be counted. */
	int64_t (*count)(struct rp_space *s, const uint64_t (*ranges)[2], size_t n);
	/* The program's VMAs now: those meeting its ranges plus its special
	 * ones (kernel: this process holds the replayer's memory too), or every
	 * VMA of the model but the recorder's, each wholly inside one of the
	 * holds (sim); -errno when they cannot be counted. */
	int64_t (*count_image)(struct rp_space *s, const struct rp_image *img);
	/* Room to count an image of up to n ranges without allocating while it
	 * replays (a new allocator chunk could land where a recorded mapping
	 * goes).  NULL: counting allocates nothing. */
	void (*reserve)(struct rp_space *s, size_t n);
	/* The image ends (an exec, a rebuilt image): give back what it mapped
	 * (kernel: the heap to its start, then each range of am and holds) and
	 * end what exec ends (an mlockall(MCL_FUTURE), which the replayer, not
	 * exec'ing, would keep).  space_free follows.  NULL: space_free drops
	 * it all. */
	void (*end_image)(struct rp_space *s, const struct rp_image *img);
	/* Each VMA of the space in address order, given to fn with its index
	 * (kernel: every VMA of this process, the replayer's own too, read
	 * without allocating): 0, or -errno when they cannot be read. */
	int (*vmas)(struct rp_space *s, void (*fn)(void *arg, const struct rp_vma *v, uint32_t i), void *arg);
	/* fork, event seq of the trace: 0 or -errno, *f says where the child's
	 * replay goes on (kernel: this process forks; sim: the space is copied
	 * and the copy's work counted as event seq's, the parent's call). */
	int (*fork)(struct rp_space *s, uint64_t seq, struct rp_forked *f);
	void (*space_free)(struct rp_space *s);
	/* The heap of a new image (h: what it is, where it goes; filled in:
	 * where it went): 0, or -errno when it could not go where asked and
	 * grew from the replayer's own break instead. */
	int (*place_heap)(struct rp_space *s, const struct vmt_map *m, struct rp_heap *h);
	/* brk(target) timed as apply times calls, for a replay that derives no
	 * outcome (apply.c's lean path): the raw result (-errno on failure),
	 * *latency_ns.  NULL: every brk goes through apply. */
	long (*brk_timed)(struct rp_space *s, uint64_t target, uint64_t *latency_ns);
	/* brk(target) over the effect fx (apply's, CREATE or REMOVE) when the
	 * back end can tell its outcome without asking anything: 1, the call
	 * made and *out, fx's vma_delta and have_delta filled as apply fills
	 * them; 0 when it cannot (nothing issued: the caller uses apply).
	 * Only when outcomes are derived and calls come one at a time (no
	 * --threads).  NULL: every brk with outcomes goes through apply. */
	int (*brk_known)(struct rp_space *s, uint64_t target, struct rp_effect *fx, struct vr_result *out);
	/* Before the replayer allocates anything: hold the low range (below
	 * RP_LOW_TOP) for the recording's mappings; release_low gives it back
	 * when the layout is chosen and returns the lowest address this
	 * process could hold there (0 with CAP_SYS_RAWIO; UINT64_MAX: nothing
	 * was held, no low call keeps its address).  NULL: the back end owns
	 * its whole space (sim). */
	void (*hold_low)(void);
	uint64_t (*release_low)(void);
	/* What the target is like, each fact asked by the driver by its name:
	 * - replayer_processes: each recorded process is replayed by an OS
	 *   process of its own, forked from the driver (a recorded fork forks
	 *   it, fork above): the replayers take turns, the driver waits for
	 *   them, watches their memory and reaps them, and --threads replays
	 *   each recorded thread in a thread of its process's replayer.  0:
	 *   every process in the driver, in trace order, the driver watching
	 *   its own memory.
	 * - recorded_addresses: the space is the back end's alone and replays
	 *   at the recorded addresses: nothing is translated, nothing of the
	 *   replayer's own is in a call's way.  0: the space holds the
	 *   replayer's own memory too: recorded ranges are placed around it
	 *   (placement.h, set_break.h) and translated (addrmap.h), a call that
	 *   would reach the replayer's memory is skipped.
	 * - real_objects: calls reach real objects: a mapped file needs a
	 *   stand-in file (standin.h), a SysV segment a stand-in segment, a
	 *   pointer argument memory holding what was recorded (a nodemask, an
	 *   iovec, a name), a pidfd a descriptor.  0: the back end takes the
	 *   recorded file, segment and RANGES record as they are. */
	int replayer_processes;
	int recorded_addresses;
	int real_objects;
	/* Debugging aid (VMREPLAY_DUMP_MAPS): the space's whole map on stderr
	 * at each checkpoint.  NULL: none. */
	void (*show_map)(struct rp_space *s);
	/* apply gives the space's VMA count (vr_result's vma_count) with every
	 * call: counts are kept without outcomes (--no-outcomes) too */
	int counts_each_call;
	/* The modelled kernel cost (the simulator; NULL: none): nmodel counts
	 * named model_name(i), and model adds a space's counts to acc[] before
	 * the space goes (vmreplay.model.<name> in the results). */
	int nmodel;
	const char *(*model_name)(int i);
	void (*model)(struct rp_space *s, uint64_t *acc);
};
#define RP_MODEL_MAX 32

extern const struct rp_backend rp_kernel_backend;
extern const struct rp_backend rp_sim_backend;

/* The back end of --target's name, NULL: none. */
static inline const struct rp_backend *rp_backend_named(const char *target)
{
	return strcmp(target, rp_kernel_backend.target) == 0 ? &rp_kernel_backend
	       : strcmp(target, rp_sim_backend.target) == 0  ? &rp_sim_backend
	                                                     : NULL;
}

#endif
