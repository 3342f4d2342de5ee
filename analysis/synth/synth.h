/* synth.h - writing benchmark patterns as traces that look recorded: a
 * model of each process's address space decides every result the way a
 * 6.18 x86-64 kernel would, and the records come out in the order the
 * recorder writes them. */
#ifndef VMREC_SYNTH_H
#define VMREC_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

#define SYNTH_PMD  (2u << 20)

struct synth_opts {
	const char *out;
	uint64_t iterations;   /* 0: the workload's default */
	int tasks;             /* 0: the workload's default */
	int threads;           /* --mode thread */
	uint64_t seed;         /* 0: the layout of an unrandomized process */
};

/* One VMA of the model.  Anonymous VMAs merge with a neighbour of the
 * same prot and kind; file VMAs and named ones ([heap], [stack]) never. */
enum synth_kind { SK_ANON, SK_STACK, SK_FILE, SK_SPECIAL };

struct synth_vma {
	uint64_t start, end, offset;
	uint32_t prot, file_id;
	uint8_t kind;
	const char *name;      /* "[heap]", a path, or "" */
};

struct synth_space {
	struct synth_vma *v;   /* sorted by start */
	size_t n, cap;
	uint64_t mmap_base;    /* top-down placement starts below this */
	uint64_t start_brk, brk;
	/* A fork child's heap up to here was faulted in the parent: brk cannot
	 * grow that VMA and starts a new one (the kernel's brk rule B1,
	 * docs/kernel-profiles.md). */
	uint64_t heap_frozen_end;
};

struct synth_proc {
	int32_t pid, ppid;
	uint32_t fd_file[64];  /* file id open on each small fd, for mmap */
	struct synth_file_rec {
		uint32_t id;
		uint64_t size;
		char path[96];
	} files[16];           /* file ids are per process: a fork child repeats them */
	int nfiles;
	struct synth_space space;
};

struct synth {
	struct vmt_writer *w;
	const char *out;
	uint64_t seq;          /* the last event's */
	uint64_t now_ns;       /* CLOCK_MONOTONIC of the next call */
	int32_t next_pid;
	int failed;
	const char *exe;       /* the program the trace pretends to be */
	uint64_t seed_state;
};

/* ---- the address-space model (synth_space.c) ---- */
int synth_space_copy(struct synth_space *dst, const struct synth_space *src);
void synth_space_free(struct synth_space *s);
/* Insert [start, end) replacing whatever was there. */
int synth_space_map(struct synth_space *s, const struct synth_vma *vma);
int synth_space_unmap(struct synth_space *s, uint64_t start, uint64_t end);
int synth_space_protect(struct synth_space *s, uint64_t start, uint64_t end, uint32_t prot);
/* Top-down placement of an anonymous or file mapping; 0 when nothing fits. */
uint64_t synth_space_place(const struct synth_space *s, uint64_t len, int thp_align);

/* ---- records (synth_emit.c) ---- */
int synth_begin(struct synth *s, const struct synth_opts *o, const char *cmdline);
int synth_end(struct synth *s);
/* The first process: process record, files, memory map, start checkpoint. */
int synth_start_process(struct synth *s, struct synth_proc *p, const struct synth_opts *o);
/* A fork child's records after the parent's fork event returned child->pid. */
int synth_start_child(struct synth *s, const struct synth_proc *parent, struct synth_proc *child);
/* exit_group(status) and the exit checkpoint. */
int synth_exit_process(struct synth *s, struct synth_proc *p, int status);
/* One call, its effect on the model and its event; returns the result. */
int64_t synth_call(struct synth *s, struct synth_proc *p, int32_t tid, int sys,
                   const uint64_t args[6], uint64_t latency_ns);
/* A file record for file-backed mappings; returns its id. */
uint32_t synth_file(struct synth *s, struct synth_proc *p, const char *path, uint64_t size);
/* Pages of [start, start + npages pages) resident before the next event. */
int synth_residency(struct synth *s, const struct synth_proc *p, uint64_t start,
                    uint64_t npages);
/* Time passes in user space between calls. */
void synth_think(struct synth *s, uint64_t ns);

/* ---- threads and children as glibc 2.36 makes them (synth_tasks.c) ---- */
struct synth_thread {
	int32_t tid;
	uint64_t stack;        /* the MAP_STACK mapping, guard page included */
};

#define SYNTH_STACK_SIZE (8u << 20)              /* RLIMIT_STACK default */
#define SYNTH_STACK_MAP  (SYNTH_STACK_SIZE + VMT_PAGE)

/* pthread_create: mmap of the stack, mprotect of all but the guard, clone3. */
int synth_thread_create(struct synth *s, struct synth_proc *p, struct synth_thread *t);
/* The thread's end: madvise(MADV_DONTNEED) of its unused stack, exit(0). */
void synth_thread_exit(struct synth *s, struct synth_proc *p, const struct synth_thread *t);
/* pthread_join in the creating thread: munmap of the stack. */
void synth_thread_join(struct synth *s, struct synth_proc *p, const struct synth_thread *t);
/* fork(): glibc's clone in the parent, then the child's records. */
int synth_fork(struct synth *s, struct synth_proc *parent, struct synth_proc *child,
               uint64_t latency_ns);

/* ---- workloads (one file each) ---- */
struct synth_workload {
	const char *name;
	const char *summary;
	int (*run)(struct synth *s, const struct synth_opts *o);
};

int synth_brk_test(struct synth *s, const struct synth_opts *o);
int synth_page_test(struct synth *s, const struct synth_opts *o);
int synth_wis_brk1(struct synth *s, const struct synth_opts *o);
int synth_wis_brk2(struct synth *s, const struct synth_opts *o);
int synth_wis_mmap1(struct synth *s, const struct synth_opts *o);
int synth_wis_mmap2(struct synth *s, const struct synth_opts *o);
int synth_pthread(struct synth *s, const struct synth_opts *o);
int synth_fork_bench(struct synth *s, const struct synth_opts *o);
int synth_calibrate(struct synth *s, const struct synth_opts *o);

/* Write workload `name` to o->out as `vmtrace synth` does: 0, or -1 with
 * the message printed, -2 when there is no such workload (synth_main.c;
 * vmreplay --calibrate uses it too). */
int synth_write(const char *name, const struct synth_opts *o);   /* 0, -1, -2: no such workload */

#endif
