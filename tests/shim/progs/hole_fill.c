/* A new mapping fills the hole between two anonymous VMAs.  The kernel
 * merges it with both only when their anon_vmas allow: two neighbours
 * written apart (each its own anon_vma) keep a boundary, so the trace must
 * let a replay fault a page of each in before the call; two halves of one
 * written VMA share theirs and merge with it, so nothing may be faulted
 * in there (a replay that did would keep a boundary the original lost).
 *
 *   apart-fixed  the hole filled with MAP_FIXED
 *   apart-hint   the hole filled by a mapping placed at its hint
 *   shared       the halves of one VMA written before it was split */
#include "marker.h"
#include <stdio.h>

static const long pg = 4096;

/* Three pages at `at` (free space), the middle one unmapped; the outer
 * ones written before the split when `before`, after it otherwise. */
static char *holed(char *at, int before)
{
	char *p = mmap(at, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != at)
		return NULL;
	if (before)
		p[0] = p[2 * pg] = 1;
	munmap(p + pg, pg);
	if (!before)
		p[0] = p[2 * pg] = 1;
	return p;
}

int main(void)
{
	MAIN_STARTS();
	/* free space for the three, apart: a reservation given back */
	char *base = mmap(NULL, 16 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED || munmap(base, 16 * pg) != 0)
		return 1;
	char *a = holed(base + pg, 0), *b = holed(base + 6 * pg, 0), *c = holed(base + 11 * pg, 1);
	if (!a || !b || !c)
		return 1;
	int ok = mmap(a + pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == a + pg &&
	         mmap(b + pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == b + pg &&
	         mmap(c + pg, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == c + pg;
	printf("%s\n", ok ? "PASS" : "FAIL");
	return 0;
}
