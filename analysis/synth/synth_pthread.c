/* synth_pthread.c - stress-ng's pthread stressor (stress-ng
 * stress-pthread.c): each round creates up to --pthread-max threads with
 * default glibc stacks, lets them finish and joins them.  One thread is
 * glibc 2.36's pthread_create/exit/join on this host:
 *
 *   mmap(NULL, 8 MiB + 4 KiB, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK)
 *   mprotect(stack + 4 KiB, 8 MiB, PROT_READ|PROT_WRITE)    the guard stays
 *   clone3({CLONE_VM|...|CLONE_THREAD|..., stack, stack_size, tls})
 *   in the thread: madvise(unused stack, MADV_DONTNEED); exit(0)
 *   at join: munmap(stack, 8 MiB + 4 KiB)
 *
 * (glibc keeps up to 40 MiB of freed stacks in a cache; like the stressor
 * at its default thread count, this trace frees every stack at join.)
 * --tasks threads per round (default 16), --iterations rounds (default
 * 10).  Each live thread adds two VMAs: the guard and the stack. */
#include <stdlib.h>
#include "analysis/synth/synth.h"

int synth_pthread(struct synth *s, const struct synth_opts *o)
{
	int per_round = o->tasks ? o->tasks : 16;
	uint64_t rounds = o->iterations ? o->iterations : 10;
	struct synth_proc p;
	struct synth_thread *t = calloc((size_t)per_round, sizeof(*t));
	if (!t || synth_start_process(s, &p, o) < 0) {
		free(t);
		return -1;
	}
	int ret = 0;
	for (uint64_t r = 0; r < rounds && ret == 0; r++) {
		for (int i = 0; i < per_round && ret == 0; i++)
			ret = synth_thread_create(s, &p, &t[i]);
		for (int i = 0; i < per_round && ret == 0; i++)
			synth_thread_exit(s, &p, &t[i]);
		for (int i = 0; i < per_round && ret == 0; i++)
			synth_thread_join(s, &p, &t[i]);
	}
	free(t);
	return ret < 0 ? -1 : synth_exit_process(s, &p, 0);
}
