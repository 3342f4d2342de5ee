/* synth_aim9.c - AIM Suite IX's brk_test and page_test (lkp-tests
 * programs/aim9, AIM9 source creat-clo.c):
 *
 *   brk_test:  old = sbrk(0); sbrk(1 MiB);
 *              repeat 1000 { sbrk(-64 KiB); 16 x sbrk(4096) }; brk(old)
 *   page_test: the same, 100 repetitions, and after each sbrk(4096) one
 *              byte in every 128 of the new page is written, so each
 *              64 KiB shrink zaps the 16 pages the last round faulted in.
 *
 * glibc answers sbrk(0) from its cached break, so only the brk calls
 * reach the kernel.  page_test's touches are residency records (16 pages,
 * all resident) just before every shrink after the first.  Latency: a
 * constant 1400 ns per brk (measured native on this host: ~1.4 us). */
#include "analysis/synth/synth.h"

#define LAT_BRK   1400
#define THINK_NS  60       /* the loop around sbrk */
#define TOUCH_NS  900      /* 32 stores that fault in one page */

static void brk_to(struct synth *s, struct synth_proc *p, uint64_t addr)
{
	uint64_t a[6] = { addr };
	synth_call(s, p, p->pid, VMT_SYS_BRK, a, LAT_BRK);
	synth_think(s, THINK_NS);
}

static int aim9(struct synth *s, const struct synth_opts *o, int touch, uint64_t reps)
{
	struct synth_proc p;
	if (synth_start_process(s, &p, o) < 0)
		return -1;
	uint64_t old = p.space.brk, cur = old + (1u << 20);
	brk_to(s, &p, cur);
	for (uint64_t r = 0; r < reps; r++) {
		if (touch && r > 0)
			synth_residency(s, &p, cur - (64u << 10), 16);
		cur -= 64u << 10;
		brk_to(s, &p, cur);
		for (int i = 0; i < 16; i++) {
			cur += VMT_PAGE;
			brk_to(s, &p, cur);
			if (touch)
				synth_think(s, TOUCH_NS);
		}
	}
	brk_to(s, &p, old);
	return synth_exit_process(s, &p, 0);
}

int synth_brk_test(struct synth *s, const struct synth_opts *o)
{
	return aim9(s, o, 0, o->iterations ? o->iterations : 1000);
}

int synth_page_test(struct synth *s, const struct synth_opts *o)
{
	return aim9(s, o, 1, o->iterations ? o->iterations : 100);
}
