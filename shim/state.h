/* state.h - the recorder's state that several of its files share, in one
 * place: the process's (shim), the thread's (shim_self and the trap
 * context) and the safety net's (sud.c's selector and gate).  Each file
 * keeps its own private state as statics; state.c defines what is here. */
#ifndef SHIM_STATE_H
#define SHIM_STATE_H

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
/* The instruction after a trapped call's syscall (sigsys.c), 0 outside traps. */
extern __thread uint64_t shim_trap_ip __attribute__((tls_model("initial-exec")));

/* Syscall User Dispatch is armed in this process (sud.c). */
extern int sud_enabled;
/* Per-thread dispatch selector byte (SUD_ALLOW / SUD_BLOCK, sud.h). */
extern __thread uint8_t shim_sud_selector __attribute__((tls_model("initial-exec")));
/* A "syscall; ret" the kernel lets through without asking the selector
 * (raw.h's raw6_exempt), or NULL. */
extern void *shim_exempt_syscall;

#endif
