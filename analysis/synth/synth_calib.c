/* synth_calib.c - the calls `vmreplay --calibrate` times on this kernel to
 * fit a cost per unit of the simulator's model (docs/kernel-profiles.md,
 * "Modelled time"): not a benchmark's loop but a mix that moves the units
 * apart.  At three tree sizes (a few, 512 and 8192 one-page mappings of
 * alternating protection, so the maple tree is one to five levels deep),
 * --iterations rounds (default 200) of:
 *
 *   mmap of one page (it may merge with its neighbour) and its munmap;
 *   mmap of 3 pages, mprotect of the middle one (a split into three) and
 *   back (a merge of three), mprotect of all three (flags only), madvise
 *   DONTNEED of them (never touched), munmap;
 *   mmap of 1 MiB PROT_NONE and its munmap;
 *   16 brk growths of a page and a shrink of 16 pages.
 *
 * Nothing is touched (no residency records), so each event's modelled
 * work is its call's own.  Latencies are placeholders. */
#include "analysis/synth/synth.h"

#define PROT_R 0x1u
#define PROT_RW 0x3u
#define MAP_PRIVATE_ANON 0x22u
#define MADV_DONTNEED 4u

static int64_t call(struct synth *s, struct synth_proc *p, int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                    uint64_t a3)
{
	uint64_t a[6] = { a0, a1, a2, a3, sys == VMT_SYS_MMAP ? (uint64_t)-1 : 0, 0 };
	int64_t r = synth_call(s, p, p->pid, sys, a, 1500);
	synth_think(s, 200);
	return r;
}

int synth_calibrate(struct synth *s, const struct synth_opts *o)
{
	static const int fill[3] = { 0, 512, 8192 - 512 };
	uint64_t rounds = o->iterations ? o->iterations : 200;
	struct synth_proc p;

	if (synth_start_process(s, &p, o) < 0)
		return -1;
	for (int phase = 0; phase < 3; phase++) {
		for (int i = 0; i < fill[phase]; i++)
			if (call(s, &p, VMT_SYS_MMAP, 0, VMT_PAGE, i & 1 ? PROT_R : PROT_RW, MAP_PRIVATE_ANON) < 0)
				return -1;
		for (uint64_t r = 0; r < rounds; r++) {
			int64_t a = call(s, &p, VMT_SYS_MMAP, 0, VMT_PAGE, PROT_RW, MAP_PRIVATE_ANON);
			if (a < 0)
				return -1;
			call(s, &p, VMT_SYS_MUNMAP, (uint64_t)a, VMT_PAGE, 0, 0);
			a = call(s, &p, VMT_SYS_MMAP, 0, 3 * VMT_PAGE, PROT_RW, MAP_PRIVATE_ANON);
			if (a < 0)
				return -1;
			call(s, &p, VMT_SYS_MPROTECT, (uint64_t)a + VMT_PAGE, VMT_PAGE, PROT_R, 0);
			call(s, &p, VMT_SYS_MPROTECT, (uint64_t)a + VMT_PAGE, VMT_PAGE, PROT_RW, 0);
			call(s, &p, VMT_SYS_MPROTECT, (uint64_t)a, 3 * VMT_PAGE, PROT_RW, 0);
			call(s, &p, VMT_SYS_MADVISE, (uint64_t)a, 3 * VMT_PAGE, MADV_DONTNEED, 0);
			call(s, &p, VMT_SYS_MUNMAP, (uint64_t)a, 3 * VMT_PAGE, 0, 0);
			a = call(s, &p, VMT_SYS_MMAP, 0, 1u << 20, 0, MAP_PRIVATE_ANON);
			if (a < 0)
				return -1;
			call(s, &p, VMT_SYS_MUNMAP, (uint64_t)a, 1u << 20, 0, 0);
			uint64_t b = p.space.brk;
			for (int i = 1; i <= 16; i++)
				call(s, &p, VMT_SYS_BRK, b + (uint64_t)i * VMT_PAGE, 0, 0, 0);
			call(s, &p, VMT_SYS_BRK, b, 0, 0, 0);
		}
	}
	return synth_exit_process(s, &p, 0);
}
