/* live_test.c - vmtrace top's count of the VMAs each call site left
 * behind, one layout per case. */
#include "analysis/vmtrace_top_live.c"
#include "tests/tap.h"

#define PG 4096ull
#define H 0x10000000ull
#define A 0x7f0000000000ull

static struct vmt_event ev(int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                           uint64_t a3, int64_t result)
{
	struct vmt_event e = { .pid = 1, .sys = (uint16_t)sys, .result = result,
			       .args = { a0, a1, a2, a3 } };
	return e;
}

#define MMAP(addr, len, prot, flags) ev(VMT_SYS_MMAP, 0, len, prot, flags, (int64_t)(addr))
#define ANON 0x22u /* MAP_PRIVATE | MAP_ANONYMOUS */
#define FILEMAP 0x02u

/* counts of owners 0..3, each its own group unless merged says otherwise */
static void count(struct live_map *m, const uint32_t *group, uint64_t *c)
{
	static const uint32_t own[4] = { 0, 1, 2, 3 };

	memset(c, 0, 4 * sizeof(*c));
	live_count(m, group ? group : own, 4, c);
}

int main(void)
{
	struct live_map *m;
	struct vmt_event e;
	uint64_t c[4];

	m = live_new(PG);
	e = MMAP(A, PG, 3, ANON); live_event(m, &e, 0);
	count(m, NULL, c);
	is_int(c[0], 1, "an anonymous mmap leaves one VMA");
	e = ev(VMT_SYS_MUNMAP, A, PG, 0, 0, 0); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0], 0, "munmap of all of it leaves none");
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, 3 * PG, 3, ANON); live_event(m, &e, 0);
	e = ev(VMT_SYS_MUNMAP, A + PG, 100, 0, 0, 0); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0], 2, "munmap of a middle page (length rounded up) splits it in two");
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, 9 * PG, 0, ANON | 0x20000); live_event(m, &e, 0);
	e = ev(VMT_SYS_MPROTECT, A + PG, 8 * PG, 3, 0, 0); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0], 2, "a thread stack with its guard page is two VMAs");
	is_int(c[1], 0, "mprotect does not take ownership");
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, PG, 3, ANON); live_event(m, &e, 0);
	e = MMAP(A + PG, PG, 3, ANON); live_event(m, &e, 0);
	e = MMAP(A + 2 * PG, PG, 3, FILEMAP); live_event(m, &e, 0);
	e = MMAP(A + 3 * PG, PG, 3, FILEMAP); live_event(m, &e, 0);
	e = MMAP(A - PG, PG, 3, ANON); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0], 3, "adjacent anonymous ranges of one site merge, file ranges do not");
	is_int(c[1], 1, "the next site's range counts for it");
	{
		static const uint32_t same[4] = { 0, 0, 2, 3 };
		count(m, same, c);
		is_int(c[0], 3, "sites folded into one call site merge too");
	}
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, 4 * PG, 3, ANON); live_event(m, &e, 0);
	e = ev(VMT_SYS_MMAP, A + PG, PG, 1, ANON | 0x10, (int64_t)(A + PG)); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0], 2, "MAP_FIXED over the middle leaves the old site two pieces");
	is_int(c[1], 1, "and the new site one");
	live_free(m);

	m = live_new(PG);
	e = ev(VMT_SYS_BRK, 0, 0, 0, 0, (int64_t)H); live_event(m, &e, 0);
	e = ev(VMT_SYS_BRK, H + 3 * PG, 0, 0, 0, (int64_t)(H + 3 * PG)); live_event(m, &e, 1);
	e = ev(VMT_SYS_BRK, H + 5 * PG, 0, 0, 0, (int64_t)(H + 5 * PG)); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[1], 1, "brk growth by one site is one heap VMA");
	e = ev(VMT_SYS_BRK, H + PG, 0, 0, 0, (int64_t)(H + PG)); live_event(m, &e, 2);
	count(m, NULL, c);
	is_int(c[1], 1, "a shrink keeps the rest");
	e = ev(VMT_SYS_BRK, H, 0, 0, 0, (int64_t)H); live_event(m, &e, 2);
	count(m, NULL, c);
	is_int(c[1], 0, "brk back to the start leaves nothing");
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, 2 * PG, 3, ANON); live_event(m, &e, 0);
	e = ev(VMT_SYS_MREMAP, A, 2 * PG, 4 * PG, 0, (int64_t)A); live_event(m, &e, 1);
	count(m, NULL, c);
	is_int(c[0] + c[1], 2, "mremap growing in place adds the tail to the mremap's site");
	e = ev(VMT_SYS_MREMAP, A, 4 * PG, 4 * PG, 1, (int64_t)(A + 100 * PG)); live_event(m, &e, 2);
	count(m, NULL, c);
	is_int(c[0] + c[1], 0, "a moving mremap takes the old range away");
	is_int(c[2], 1, "and the moved range is the mremap's");
	live_free(m);

	m = live_new(PG);
	e = MMAP(A, PG, 3, ANON); live_event(m, &e, 0);
	e = MMAP(A + PG, PG, 3, ANON); e.err = 12; e.result = -1; live_event(m, &e, 1);
	live_exec(m, 2);
	count(m, NULL, c);
	is_int(c[0] + c[1], 1, "failed calls change nothing, nor does another pid's exec");
	live_exec(m, 1);
	count(m, NULL, c);
	is_int(c[0], 0, "exec drops the old image's ranges");
	live_free(m);

	return done_testing();
}
