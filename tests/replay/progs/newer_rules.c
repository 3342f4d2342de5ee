/* newer_rules - one case of each VMA rule that 6.13 to 6.18 brought and
 * the simulator's host profile must follow (docs/kernel-profiles.md), in
 * a reservation of its own; tests/replay/newer-rules.t records it and
 * compares the kernel's replay with the simulator's, event by event.
 * Each case leaves nothing mapped.  Exit status 0 whatever the calls
 * answer: their results are what is compared. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

static long pg;

static char *fixed(char *at, long pages, int prot)
{
	return mmap(at, pages * pg, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* X5: one mremap(MREMAP_FIXED) moving three VMAs and the gap between
 * two of them; then one whose range starts in a gap */
static void multi_vma_move(char *r)
{
	fixed(r, 4, PROT_READ | PROT_WRITE);
	fixed(r + 6 * pg, 2, PROT_READ);
	fixed(r + 8 * pg, 3, PROT_READ | PROT_WRITE);
	r[8 * pg] = 1;
	mremap(r + pg, 12 * pg, 12 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 64 * pg);
	mremap(r + 62 * pg, 6 * pg, 6 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 128 * pg);
	munmap(r, 256 * pg);
}

int main(void)
{
	char *r;

	pg = sysconf(_SC_PAGESIZE);
	r = mmap(NULL, 1024 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return perror("mmap"), 1;
	munmap(r, 1024 * pg);   /* a free range of our own: the cases map into it */
	multi_vma_move(r);
	return 0;
}
