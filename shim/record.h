/* record.h - per-process and per-thread recorder state, and the one path by
 * which a hook turns a system call into trace records. */
#ifndef SHIM_RECORD_H
#define SHIM_RECORD_H

#include <stdint.h>
#include "vmt.h"
#include "vmt_store.h"

/* Events a signal handler's calls may park in the thread while its own
 * write is under way (record.c); more go to the process's overflow.  The
 * thread's state is static TLS, which glibc carves out of each thread's
 * stack: growing it moves the stack pointer, and with it the length of
 * glibc's madvise of a thread's stack at its end (tests/shim/user-stack.t
 * against strace), so it must not grow. */
#define SHIM_PENDING 8

struct shim_writer;

struct shim_thread {
	struct shim_writer *w;
	int32_t pid, tid;           /* of the writer; pid changes after fork */
	int busy;                   /* 0 free, 1 owner writing, 2 claimed by a flusher */
	int depth;                  /* hooks active on this thread (signals nest) */
	int exiting;                /* past its key destructor: write through */
	int exit_pending;           /* its exit event follows the stack madvise */
	int internal;               /* the recorder's own calls (libunwind): not recorded */
	int slot;                   /* registry index + 1, 0: not registered */
	int npending;
	struct vmt_event pending[SHIM_PENDING]; /* recorded inside a signal */
	int noverflow;              /* parked in the process's overflow (record.c) */
};

struct shim_proc {
	int enabled;                /* 0: pass everything through */
	struct vmt_store store;     /* mapped; no descriptor kept */
	struct vmt_store_proc *proc; /* this image's word in the store */
	int32_t pid, ppid;
	uint32_t image;
	int stacks;                 /* call stack depth, 0: off */
	int residency;              /* enum residency_mode (VMREC_RESIDENCY) */
	uint64_t *seq;              /* shared across the process tree (in the store) */
	uint32_t next_file_id;
	int out_failed;             /* warned once; trace marked incomplete */
	uint64_t trapped, unpatched;
	uint64_t lost;              /* records not kept (atomically); END says it */
	const char *out_path;
	uint64_t tramp;             /* the launcher's trampoline page, 0: preloaded alone */
};

extern struct shim_proc shim;
extern __thread struct shim_thread shim_self __attribute__((tls_model("initial-exec")));
/* Set by the child paths of vfork and CLONE_VM|CLONE_VFORK clones: this task
 * runs on its (suspended) parent's memory and thread state, so it records
 * through short-lived writers of its own. */
extern __thread int shim_vfork_child __attribute__((tls_model("initial-exec")));
/* VMT_EV_TRAPPED (| VMT_EV_LOADER) while the SIGSYS handler records. */
extern __thread uint16_t shim_trap_flags __attribute__((tls_model("initial-exec")));
/* The instruction after a trapped call's syscall (sud.c), 0 outside traps. */
extern __thread uint64_t shim_trap_ip __attribute__((tls_model("initial-exec")));

/* One intercepted call, from entry to return. */
struct shim_call {
	int sys;
	uint16_t flags;
	uint64_t args[6];
	uint64_t seq, t0, tsc0;
	uint64_t announce_seq;      /* a vfork child's PROCESS record, if due */
	uint32_t file_id;
};

uint64_t shim_now(void);
uint64_t shim_next_seq(void);
uint64_t shim_seq_now(void);

/* call_begin reserves the sequence number; call_clock takes the entry
 * time right before the system call (after any residency work); call_end
 * records the event with the kernel's raw result (-errno on failure). */
void call_begin(struct shim_call *c, int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5);
void call_clock(struct shim_call *c);
/* A vfork child about to exec: its PROCESS record, if not written yet. */
void shim_announce_vfork_child(const struct shim_call *c);
/* A vfork child's FILE record (written at once) and how many it wrote. */
uint32_t shim_vfork_file(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type);
uint32_t shim_vfork_files(void);
/* A vfork child's ARGV record, written at once. */
void shim_vfork_write(const struct vmt_record *rec);
void call_end(struct shim_call *c, long ret);

/* Write a non-event record from the current thread (0, or lost). */
int shim_write(const struct vmt_record *rec);
/* Flush this thread's writer, or every thread's that can be claimed. */
void shim_flush_self(void);
void shim_flush_all(void);
/* After fork, in the child: forget the parent's writers without writing. */
void shim_forget_threads(void);
void shim_thread_exit(void);
/* tid: the new thread's, 0 when not known (asked with gettid) */
void shim_thread_start(int32_t tid);
void shim_threads_init(void);
void shim_output_failed(const char *what);
/* Processes that will still write: +1 before a call makes one, -1 when it
 * failed or a process leaves; the last to leave finishes the trace (unless
 * the vmrec launcher will). */
void shim_live_add(int n);
/* This image's END record, then leave the store. */
void shim_process_end(uint32_t how, int32_t status);

#endif
