/* vmt_store.h - the recording store: where a recorded process tree puts
 * its records while it runs, so that no death of a process and nothing it
 * does to its descriptors loses a record already written.  Internal to
 * vmrec (libvmrec.so and the vmrec launcher); the design is in
 * docs/store.md.
 *
 * One file, mapped MAP_SHARED by every recorded process at the same
 * address; no descriptor stays open.  It holds a head page (the tree's
 * sequence counter, the space cursor, the processes still to come) and
 * regions: finished frames (the trace header, chunks), one slab per
 * writer (the raw records since its last chunk) and one word per process
 * image (whether it said how it ended).  vmt_store_finish turns it into
 * the final trace. */
#ifndef VMT_STORE_H
#define VMT_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

#define VMT_STORE_ADDR   0x3e0000000000ull /* below the shim's arena */
#define VMT_STORE_WINDOW (1ull << 40)      /* the most a store can hold */
#define VMT_STORE_WINDOW_MIN (16ull << 20) /* the least, under an address-space limit */
#define VMT_STORE_HEAD   VMT_PAGE   /* the head page */
#define VMT_STORE_SLAB   (256u << 10)

enum vmt_store_kind {
	VMT_ST_RESERVED = 1,   /* being written (a chunk cut short by a death) */
	VMT_ST_HEADER,         /* the trace's header frame */
	VMT_ST_CHUNK,          /* a finished chunk */
	VMT_ST_SLAB,           /* a writer's records not yet in a chunk */
	VMT_ST_PROC,           /* a process image */
};

struct vmt_store_head {
	char magic[8];         /* "VMRCSTOR" */
	uint32_t version;
	uint32_t launcher;     /* 1: the vmrec launcher finishes the trace */
	uint64_t end;          /* bytes reserved */
	uint64_t ready;        /* bytes allocated on disk: [0, ready) may be touched */
	uint64_t seq;          /* the process tree's sequence counter */
	int64_t live;          /* processes that will still write */
	uint32_t mode;         /* of the finished trace */
	uint32_t finishing;
	uint64_t procs;        /* offset of the newest vmt_store_proc (a list) */
	uint32_t warned;       /* a process said the trace is incomplete: once a tree */
	uint32_t sealed;       /* bumped at each seal: the launcher sleeps on it */
	uint32_t drainer;      /* 1: the vmrec launcher drains the slabs (it set this) */
	/* the window every process maps, in MiB: sized at creation from the
	 * creator's RLIMIT_AS (a quarter of it, at most VMT_STORE_WINDOW),
	 * so an address-space limit leaves the program its room; 0: the
	 * whole VMT_STORE_WINDOW (a store of an older recorder) */
	uint32_t window_mib;
	char out[3072];        /* the finished trace's path */
};

struct vmt_store_slab {
	int32_t pid, tid;
	uint32_t cap;          /* log bytes */
	uint32_t start, len;   /* the live log is [start, len); start >= len: empty */
	uint32_t pending_n, pending_from;
	uint32_t state;        /* VMT_SLAB_* */
	uint64_t pending;      /* a chunk being put of pending_n records from pending_from */
};

/* A slab's writer logs into it while ACTIVE.  Once the vmrec launcher
 * drains the store (head->drainer), a writer whose slab is full seals it
 * and logs into another; the launcher makes the sealed slab's records into
 * chunks (vmt_store_drain) and marks it DRAINED, and the writer may then
 * take it again.  The finisher writes whatever a slab still holds,
 * whatever its state. */
enum { VMT_SLAB_ACTIVE = 0, VMT_SLAB_SEALED = 1, VMT_SLAB_DRAINED = 2 };

/* RUNNING counts in head->live; whoever moves it to ENDED or GONE (found
 * dead without a word: the finisher writes its END) takes it out.
 * UNBORN: made by a parent before its fork, counted in live too, taken by
 * the child when it first runs (RUNNING); a child killed before it ran
 * never takes it, and whoever finds its pid gone ends it (no END: the
 * child recorded nothing). */
enum { VMT_PROC_RUNNING = 0, VMT_PROC_ENDED = 1, VMT_PROC_EXECED = 2, VMT_PROC_GONE = 3,
       VMT_PROC_UNBORN = 4 };

struct vmt_store_proc {
	int32_t pid;
	uint32_t state;        /* VMT_PROC_* */
	uint64_t next;         /* offset of the one made before, 0: none */
};

struct vmt_store {
	uint8_t *base;
	uint64_t window;       /* bytes mapped at base */
	struct vmt_store_head *head;
	char path[4096];
};

/* A writer's sink (struct vmt_sink's opaque): its store and slab. */
struct vmt_store_put {
	struct vmt_store *store;
	struct vmt_store_slab *slab;  /* NULL: frames only (a vfork child) */
};

/* 0 or -errno.  create: a new store file (O_EXCL, mode 0600) for the
 * trace `out`; attach: an existing one. */
int vmt_store_create(struct vmt_store *s, const char *path, const char *out,
                     unsigned mode, int launcher);
int vmt_store_attach(struct vmt_store *s, const char *path);
void vmt_store_detach(struct vmt_store *s);

struct vmt_store_slab *vmt_store_slab_new(struct vmt_store *s, int32_t pid, int32_t tid);
struct vmt_store_proc *vmt_store_proc_new(struct vmt_store *s, int32_t pid);
/* The entry of a child about to be forked (UNBORN, pid 0); the parent
 * names the pid once fork returns it, and the child takes the entry:
 * born (0: it was not UNBORN).  A fork that failed: vmt_store_proc_leave
 * is not for it; unborn_failed ends it. */
struct vmt_store_proc *vmt_store_proc_unborn(struct vmt_store *s);
void vmt_store_proc_named(struct vmt_store_proc *p, int32_t pid);
int vmt_store_proc_born(struct vmt_store_proc *p, int32_t pid);
void vmt_store_proc_unborn_failed(struct vmt_store_proc *p);
/* Move RUNNING to `state`: 1 if this call did (and took it out of live). */
int vmt_store_proc_leave(struct vmt_store *s, struct vmt_store_proc *p, uint32_t state);
/* Take out of live every RUNNING image whose pid no longer exists (a
 * process that ended where the recorder did not see it); the live count
 * left. */
int64_t vmt_store_reap(struct vmt_store *s, int32_t self);
/* 0: logged; 1: the slab is full (put a chunk, then log again); 2: not
 * logged (a header, or too big for any slab). */
int vmt_store_log(struct vmt_store_slab *slab, const struct vmt_record *rec);
int vmt_store_sink_put(void *opaque, const uint8_t *frame, size_t len, uint32_t nrecords);

/* The writer's side: seal a full slab (it writes no more to it). */
void vmt_store_seal(struct vmt_store *s, struct vmt_store_slab *slab);
/* The launcher's side: the next slab region at or after *off (committed,
 * below head->end), advancing *off past it; NULL when none yet. */
struct vmt_store_slab *vmt_store_next_slab(struct vmt_store *s, uint64_t *off);
/* Make a SEALED slab's records into chunks in the store (the same frames
 * its writer would have made), then mark it DRAINED.  0, or a negative
 * VMT_E* (the slab stays SEALED, and the finisher writes what is left). */
int vmt_store_drain(struct vmt_store *s, struct vmt_store_slab *slab, const struct vmt_alloc *alloc);

/* How the finisher learnt a process ended (a wait status), when it did. */
struct vmt_store_fate {
	int32_t pid;
	int status;
};

/* Write the finished trace to `out` (NULL: head->out, the path the store
 * was made for) by rename (vmt_output_commit), with `mode` (0: head->mode):
 * every finished frame, a chunk for each slab's records, an END for each
 * image that did not say how it ended (from fates, else "vanished").
 * Whatever the store holds, it reads only inside the file and the
 * regions it made.  0, or -1 with msg set.  The store stays: remove it
 * with vmt_store_remove once the trace is what the caller wants. */
int vmt_store_finish(struct vmt_store *s, const char *out, unsigned mode,
                     const struct vmt_store_fate *fates, size_t nfates,
                     const struct vmt_alloc *alloc, char *msg, size_t cap);
/* Unlink the store's file (its mapping stays until vmt_store_detach). */
void vmt_store_remove(struct vmt_store *s);

#endif
