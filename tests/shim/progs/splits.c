/* mprotect and madvise that split a mapping and merge it back. */
#include "marker.h"
#include <stdio.h>
#include <string.h>

int main(void)
{
	MAIN_STARTS();
	long pg = 4096;
	char *p = mmap(NULL, 10 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(p, 1, 10 * pg);
	mprotect(p + 3 * pg, 2 * pg, PROT_READ);              /* split in three */
	madvise(p + 6 * pg, 2 * pg, MADV_DONTNEED);
	madvise(p, 10 * pg, MADV_NOHUGEPAGE);                 /* flags split, then whole */
	mprotect(p + 3 * pg, 2 * pg, PROT_READ | PROT_WRITE); /* merge back */
	munmap(p + 4 * pg, pg);                               /* a hole */
	munmap(p, 10 * pg);
	puts("PASS");
	return 0;
}
