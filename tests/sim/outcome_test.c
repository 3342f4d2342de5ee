/* outcome_test - the simulator names a change as the kernel back end does
 * (lib/outcome.c's vr_classify): the shapes real 6.1 and 6.12
 * kernels showed in tests/vm/differential.t, sim_vmas_around's ranges, and
 * rule texts that stay valid and their own after later calls. */
#include <string.h>
#include <sys/mman.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"

#define PG 4096ull
#define W 0x7e0000000000ull
#define RW (PROT_READ | PROT_WRITE)
#define FIXED (MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED)

static struct vr_result res;

static void call(struct sim_mm *mm, int sys, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	struct vmt_event ev = { .sys = (uint16_t)sys, .args = { a0, a1, a2, a3, (uint64_t)-1, 0 } };
	sim_apply(mm, &ev, NULL, &res);
}

static void map(struct sim_mm *mm, uint64_t p, uint64_t n, uint64_t prot)
{
	call(mm, VMT_SYS_MMAP, W + p * PG, n * PG, prot, FIXED);
}

static void prot(struct sim_mm *mm, uint64_t p, uint64_t n, uint64_t pr)
{
	call(mm, VMT_SYS_MPROTECT, W + p * PG, n * PG, pr, 0);
}

/* "outcome vma_count" of the last call */
static const char *said(char *buf, size_t n)
{
	snprintf(buf, n, "%s %lld", vr_outcome_name(res.outcome), (long long)res.vma_count);
	return buf;
}

int main(void)
{
	char b[64];
	struct sim_mm *mm;

	/* seed 1 on both kernels: a merge inside the range and a new edge at
	 * its end, count unchanged: split */
	mm = sim_mm_new(sim_profile_find("6.12"), NULL, NULL);
	map(mm, 1, 8, RW);
	call(mm, VMT_SYS_MUNMAP, W, 6 * PG, 0, 0);
	map(mm, 8, 4, PROT_READ);
	prot(mm, 6, 5, RW);
	is_str(said(b, sizeof b), "split 2", "rw|r-- made rw up to inside r--: split, 2 VMAs");
	const char *first = res.rule;
	ok(first && strstr(first, "merged with prev") && strstr(first, "outcome split"),
	   "the rule says it merged with prev and why the outcome is split: %s", first ? first : "(none)");
	char copy[200];
	snprintf(copy, sizeof copy, "%s", first ? first : "");

	struct sim_vma_view v[8];
	size_t n = sim_vmas_around(mm, W + 11 * PG, W + 12 * PG, v, 8);
	ok(n == 2 && v[0].start == W + 6 * PG && v[0].end == W + 11 * PG && v[1].end == W + 12 * PG,
	   "sim_vmas_around includes the touching neighbour");
	n = sim_vmas_intersecting(mm, W + 11 * PG, W + 12 * PG, v, 8);
	ok(n == 1 && v[0].start == W + 11 * PG, "sim_vmas_intersecting does not");
	is_int((int)sim_vmas_around(mm, W + 20 * PG, W + 21 * PG, v, 8), 0, "nothing around an empty range");

	prot(mm, 6, 6, PROT_READ);
	is_str(said(b, sizeof b), "merge_both 1", "all made r--: edges inside merged, count down: merge_both");
	is_str(first, copy, "the first call's rule text is unchanged after another call");
	ok(res.rule != first, "each call has its own rule text");
	sim_mm_free(mm);

	/* seed 11: 6.1 keeps VM_ACCOUNT when unfaulted rw memory goes
	 * PROT_NONE, so it no longer merges with an uncharged neighbour */
	static const struct { const char *kernel, *want; } acct[] = {
		{ "6.1", "split 3" }, { "6.12", "split 2" },
	};
	for (size_t i = 0; i < 2; i++) {
		mm = sim_mm_new(sim_profile_find(acct[i].kernel), NULL, NULL);
		map(mm, 29, 3, PROT_READ);
		map(mm, 22, 7, PROT_READ);
		prot(mm, 22, 7, RW);
		prot(mm, 26, 6, PROT_NONE);
		is_str(said(b, sizeof b), acct[i].want, "%s: rw|r-- made --- from inside rw", acct[i].kernel);
		sim_mm_free(mm);
	}

	/* whole VMA changed without a merge: the same edges, unchanged */
	mm = sim_mm_new(sim_profile_find("6.12"), NULL, NULL);
	map(mm, 0, 4, RW);
	map(mm, 4, 4, PROT_NONE);
	prot(mm, 0, 4, PROT_READ);
	is_str(said(b, sizeof b), "unchanged 2", "one VMA's protection changed, no edge moved: unchanged");
	call(mm, VMT_SYS_MLOCKALL, 1, 0, 0, 0);
	is_str(vr_outcome_name(res.outcome), "unchanged", "mlockall names no range: unchanged");
	sim_mm_free(mm);
	return done_testing();
}
