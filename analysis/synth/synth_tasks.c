/* synth_tasks.c - threads and fork children with the calls, flags and
 * addresses glibc 2.36 produces (taken from strace of pthread_create,
 * pthread_join and fork on this host). */
#include "analysis/synth/synth.h"

#define PROT_NONE  0x0u
#define PROT_RW    0x3u
#define MAP_PRIVATE_ANON_STACK 0x20022u   /* MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK */
#define MADV_DONTNEED 4u

/* CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|
 * CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID */
#define PTHREAD_CLONE_FLAGS 0x3d0f00u
/* CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD */
#define FORK_CLONE_FLAGS 0x1200011u

/* Where glibc puts the thread descriptor in the stack mapping. */
#define TID_FROM_TOP  0x670u
#define TLS_FROM_TOP  0x940u
#define STACK_ARG_SIZE 0x7fff80u
#define UNUSED_STACK  (SYNTH_STACK_MAP - 0x6000u)

enum {
	LAT_MMAP_STACK = 2100, LAT_MPROTECT = 1900, LAT_CLONE3 = 26000,
	LAT_MADVISE = 3100, LAT_MUNMAP_STACK = 4200, LAT_THREAD_START = 15000,
};

int synth_thread_create(struct synth *s, struct synth_proc *p, struct synth_thread *t)
{
	uint64_t a[6] = { 0, SYNTH_STACK_MAP, PROT_NONE, MAP_PRIVATE_ANON_STACK, (uint64_t)-1, 0 };
	int64_t base = synth_call(s, p, p->pid, VMT_SYS_MMAP, a, LAT_MMAP_STACK);
	if (base < 0)
		return -1;
	synth_think(s, 150);
	uint64_t m[6] = { (uint64_t)base + VMT_PAGE, SYNTH_STACK_SIZE, PROT_RW };
	synth_call(s, p, p->pid, VMT_SYS_MPROTECT, m, LAT_MPROTECT);
	synth_think(s, 900);
	uint64_t top = (uint64_t)base + SYNTH_STACK_MAP;
	uint64_t c[6] = { PTHREAD_CLONE_FLAGS, (uint64_t)base, STACK_ARG_SIZE,
	                  top - TID_FROM_TOP, top - TID_FROM_TOP, top - TLS_FROM_TOP };
	t->tid = (int32_t)synth_call(s, p, p->pid, VMT_SYS_CLONE3, c, LAT_CLONE3);
	t->stack = (uint64_t)base;
	synth_think(s, 300);
	return 0;
}

void synth_thread_exit(struct synth *s, struct synth_proc *p, const struct synth_thread *t)
{
	uint64_t a[6] = { t->stack, UNUSED_STACK, MADV_DONTNEED };
	synth_call(s, p, t->tid, VMT_SYS_MADVISE, a, LAT_MADVISE);
	synth_think(s, 400);
	uint64_t e[6] = { 0 };
	synth_call(s, p, t->tid, VMT_SYS_EXIT, e, 0);
	synth_think(s, LAT_THREAD_START);
}

void synth_thread_join(struct synth *s, struct synth_proc *p, const struct synth_thread *t)
{
	/* the top of the stack the thread ran on (its struct pthread, TLS and
	 * frames: what its exit did not advise away) holds pages, as the
	 * recorder's scan before the munmap finds them; a replay faults them
	 * in, and where the kernel aligned the stack for THP that is a 2 MiB
	 * page (the stress-ng.pthread regression) */
	synth_residency(s, p, t->stack + UNUSED_STACK, (SYNTH_STACK_MAP - UNUSED_STACK) / VMT_PAGE);
	uint64_t a[6] = { t->stack, SYNTH_STACK_MAP };
	synth_call(s, p, p->pid, VMT_SYS_MUNMAP, a, LAT_MUNMAP_STACK);
	synth_think(s, 200);
}

int synth_fork(struct synth *s, struct synth_proc *parent, struct synth_proc *child,
               uint64_t latency_ns)
{
	/* glibc's struct pthread of the main thread sits in the anonymous
	 * mapping just below libc, where set_tid_address pointed */
	uint64_t tls = 0;
	for (size_t i = 0; i + 1 < parent->space.n; i++)
		if (parent->space.v[i + 1].file_id == 2 && parent->space.v[i].kind == SK_ANON) {
			tls = parent->space.v[i].start;
			break;
		}
	uint64_t a[6] = { FORK_CLONE_FLAGS, 0, 0, tls + 0xa10, 0, 0 };
	child->pid = (int32_t)synth_call(s, parent, parent->pid, VMT_SYS_CLONE, a, latency_ns);
	return synth_start_child(s, parent, child);
}
