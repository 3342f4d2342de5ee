/* synth_wis.c - will-it-scale's brk1, brk2, mmap1 and mmap2
 * (github.com/antonblanchard/will-it-scale, tests/brk1.c ... mmap2.c):
 *
 *   brk1:  a = sbrk(0);             loop { brk(a + page); brk(a) }
 *   brk2:  a = sbrk(page) + page;   loop { brk(a + page); brk(a) }
 *   mmap1: loop { p = mmap(NULL, 128 MiB, RW, PRIVATE|ANONYMOUS); munmap(p) }
 *   mmap2: the same on an unlinked 128 MiB file per task, MAP_PRIVATE
 *
 * --mode process: the harness forks --tasks children (glibc fork = clone)
 * that each run the loop; --mode thread: it starts --tasks threads
 * (pthread_create) sharing one address space.  The tasks' calls are
 * interleaved one call at a time, so in thread mode mappings of different
 * threads coexist.  --iterations loops per task (default 1000). */
#include <stdio.h>
#include "analysis/synth/synth.h"

#define MEMSIZE (128ull << 20)
#define MAP_PRIVATE 0x02u
#define MAP_ANONYMOUS 0x20u
#define PROT_RW 0x3u

enum { LAT_BRK = 1400, LAT_MMAP = 1700, LAT_MUNMAP = 1500, LAT_FILE_MMAP = 2500,
       LAT_FILE_MUNMAP = 2000, LAT_FORK = 95000, THINK_NS = 80 };

struct task {
	struct synth_proc *p;  /* its process: own (process mode) or shared */
	int32_t tid;
	uint64_t a;            /* brk tests: the base break; mmap: the mapping */
	int fd;
};

struct wis_test {
	void (*setup)(struct synth *s, struct task *t);
	/* one of the loop's two calls */
	void (*step)(struct synth *s, struct task *t, int which);
};

static void call(struct synth *s, struct task *t, int sys, uint64_t a0, uint64_t a1,
                 uint64_t latency, int64_t *result)
{
	uint64_t a[6] = { a0, a1 };
	int64_t r = synth_call(s, t->p, t->tid, sys, a, latency);
	if (result)
		*result = r;
	synth_think(s, THINK_NS);
}

static void brk1_setup(struct synth *s, struct task *t)
{
	(void)s;
	t->a = t->p->space.brk;    /* sbrk(0): no system call */
}

static void brk2_setup(struct synth *s, struct task *t)
{
	t->a = t->p->space.brk + VMT_PAGE;
	call(s, t, VMT_SYS_BRK, t->a, 0, LAT_BRK, NULL);
}

static void brk_step(struct synth *s, struct task *t, int which)
{
	call(s, t, VMT_SYS_BRK, which ? t->a : t->a + VMT_PAGE, 0, LAT_BRK, NULL);
}

static void mmap_step(struct synth *s, struct task *t, int which)
{
	int file = t->fd >= 0;
	if (which == 0) {
		uint64_t a[6] = { 0, MEMSIZE, PROT_RW, file ? MAP_PRIVATE : MAP_PRIVATE | MAP_ANONYMOUS,
		                  file ? (uint64_t)t->fd : (uint64_t)-1, 0 };
		t->a = (uint64_t)synth_call(s, t->p, t->tid, VMT_SYS_MMAP, a,
		                            file ? LAT_FILE_MMAP : LAT_MMAP);
		synth_think(s, THINK_NS);
	} else {
		call(s, t, VMT_SYS_MUNMAP, t->a, MEMSIZE, file ? LAT_FILE_MUNMAP : LAT_MUNMAP, NULL);
	}
}

static void mmap1_setup(struct synth *s, struct task *t)
{
	(void)s;
	t->fd = -1;
}

/* mkstemp, unlink, ftruncate(128 MiB): not VMA calls, only the file */
static void mmap2_setup(struct synth *s, struct task *t)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/willitscale.%06d (deleted)", t->tid);
	t->fd = 3 + (t->tid - t->p->pid) % 60;
	t->p->fd_file[t->fd] = synth_file(s, t->p, path, MEMSIZE);
}

static int run(struct synth *s, const struct synth_opts *o, const struct wis_test *test)
{
	int ntasks = o->tasks ? o->tasks : 2;
	uint64_t iters = o->iterations ? o->iterations : 1000;
	if (ntasks > 60) {
		fprintf(stderr, "vmtrace: synth: at most 60 tasks\n");
		return -1;
	}
	struct synth_proc harness, children[60];
	struct synth_thread threads[60];
	struct task tasks[60];
	if (synth_start_process(s, &harness, o) < 0)
		return -1;
	for (int i = 0; i < ntasks; i++) {
		tasks[i].fd = -1;
		if (o->threads) {
			if (synth_thread_create(s, &harness, &threads[i]) < 0)
				return -1;
			tasks[i].p = &harness;
			tasks[i].tid = threads[i].tid;
		} else {
			if (synth_fork(s, &harness, &children[i], LAT_FORK) < 0)
				return -1;
			tasks[i].p = &children[i];
			tasks[i].tid = children[i].pid;
		}
	}
	for (int i = 0; i < ntasks; i++)
		test->setup(s, &tasks[i]);
	for (uint64_t it = 0; it < iters; it++)
		for (int which = 0; which < 2; which++)
			for (int i = 0; i < ntasks; i++)
				test->step(s, &tasks[i], which);
	for (int i = 0; i < ntasks; i++) {
		if (o->threads)
			synth_thread_exit(s, &harness, &threads[i]);
		else if (synth_exit_process(s, &children[i], 0) < 0)
			return -1;
	}
	if (o->threads)
		for (int i = 0; i < ntasks; i++)
			synth_thread_join(s, &harness, &threads[i]);
	return synth_exit_process(s, &harness, 0);
}

int synth_wis_brk1(struct synth *s, const struct synth_opts *o)
{
	static const struct wis_test t = { brk1_setup, brk_step };
	return run(s, o, &t);
}

int synth_wis_brk2(struct synth *s, const struct synth_opts *o)
{
	static const struct wis_test t = { brk2_setup, brk_step };
	return run(s, o, &t);
}

int synth_wis_mmap1(struct synth *s, const struct synth_opts *o)
{
	static const struct wis_test t = { mmap1_setup, mmap_step };
	return run(s, o, &t);
}

int synth_wis_mmap2(struct synth *s, const struct synth_opts *o)
{
	static const struct wis_test t = { mmap2_setup, mmap_step };
	return run(s, o, &t);
}
