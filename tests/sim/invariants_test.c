/* invariants_test - random and hostile calls (unaligned, zero, huge, bad
 * flags) on every profile never break the address space: VMAs stay sorted,
 * page-aligned, non-empty and non-overlapping, and the count is what
 * iteration sees.  Run under `make asan` this is also the crash test. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"
#include "replay/sim/sim_int.h"   /* sim_tree_valid */

#define PG 4096ull
#define BASE 0x7f0000000000ull

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static uint64_t any_addr(void)
{
	switch (rnd() % 6) {
	case 0: return 0;
	case 1: return rnd();                               /* anything */
	case 2: return BASE - (rnd() % 4096) * PG + rnd() % 3;  /* maybe unaligned */
	default: return BASE - (rnd() % 1024) * PG;
	}
}

static uint64_t any_len(void)
{
	switch (rnd() % 6) {
	case 0: return 0;
	case 1: return rnd();
	case 2: return (rnd() % 8) * (2ull << 20) + (rnd() % 2) * PG;
	default: return (1 + rnd() % 64) * PG - (rnd() % 2);
	}
}

static const char *check(const struct sim_mm *mm)
{
	struct sim_vma_view v;
	uint64_t prev_end = 0;
	size_t n = 0;

	for (size_t i = 0; !sim_vma_at(mm, i, &v); i++, n++) {
		if (v.start >= v.end)
			return "empty VMA";
		if ((v.start | v.end) & (PG - 1))
			return "unaligned VMA";
		if (v.start < prev_end)
			return "overlap or disorder";
		prev_end = v.end;
	}
	if (n != sim_vma_count(mm))
		return "count differs from iteration";
	return sim_tree_valid(&mm->tree) ? NULL : "a node's cached gap, size or max gap is stale";
}

int main(void)
{
	static const int syss[] = {
		VMT_SYS_MMAP, VMT_SYS_MMAP, VMT_SYS_MMAP, VMT_SYS_MUNMAP, VMT_SYS_MREMAP, VMT_SYS_MPROTECT,
		VMT_SYS_PKEY_MPROTECT, VMT_SYS_MADVISE, VMT_SYS_MLOCK, VMT_SYS_MLOCK2, VMT_SYS_MUNLOCK,
		VMT_SYS_MLOCKALL, VMT_SYS_MUNLOCKALL, VMT_SYS_MSEAL, VMT_SYS_BRK, VMT_SYS_SHMAT, VMT_SYS_FORK,
		VMT_SYS_EXECVE, 0, 999,
	};
	for (size_t p = 0; p < sim_profile_count(); p++) {
		struct sim_mm *mm = sim_mm_new(sim_profile_at(p), NULL, NULL);
		const char *bad = NULL;
		int i;

		sim_mm_set_mmap_base(mm, BASE);
		sim_mm_set_brk(mm, 0x555555560000ull, 0x555555560000ull);
		for (i = 0; i < 6000 && !bad; i++) {
			struct vmt_event ev = { 0 };
			struct vmt_file file = { .id = 1, .size = 1 << 20, .path = "f" };
			struct vr_result r;

			ev.sys = (uint16_t)syss[rnd() % (sizeof syss / sizeof syss[0])];
			ev.args[0] = any_addr();
			ev.args[1] = any_len();
			ev.args[2] = rnd() % 4 ? rnd() % 8 : rnd();
			ev.args[3] = rnd() % 3 ? (rnd() % 2 ? MAP_PRIVATE : MAP_SHARED) | MAP_ANONYMOUS |
			             (rnd() % 2 ? MAP_FIXED : 0) | (rnd() % 5 ? 0 : MAP_STACK | MAP_GROWSDOWN) : rnd();
			ev.args[4] = rnd() % 2 ? any_addr() : (uint64_t)-1;
			if (ev.sys == VMT_SYS_MADVISE)
				ev.args[2] = rnd() % 30;
			if (ev.sys == VMT_SYS_MMAP && rnd() % 4 == 0) {
				ev.args[3] &= ~(uint64_t)MAP_ANONYMOUS;
				ev.file_id = 1;
			}
			sim_apply(mm, &ev, ev.file_id ? &file : NULL, &r);
			if (rnd() % 50 == 0) {
				uint8_t bits[8] = { 0xff, 0x0f, 0, 0xff, 1, 2, 3, 4 };
				struct vmt_residency res = { 0, 0, any_addr() & ~(PG - 1), 64, bits, 0, NULL };
				sim_touch(mm, &res);
			}
			if (rnd() % 200 == 0) {
				struct sim_mm *child = sim_mm_fork(mm);
				sim_mm_free(mm);
				mm = child;
			}
			bad = check(mm);
		}
		ok(!bad, "%s: %d random calls keep the address space sound%s%s", sim_profile_name(sim_profile_at(p)), i,
		   bad ? ": " : "", bad ? bad : "");
		ok(sim_vma_count(mm) > 10, "%s: ... and it is not trivially empty (%zu VMAs)", sim_profile_name(sim_profile_at(p)),
		   sim_vma_count(mm));
		sim_mm_free(mm);
	}
	return done_testing();
}
