/* mremap: grow in place, move, shrink, and to a fixed address. */
#include "marker.h"
#include <stdio.h>

int main(void)
{
	MAIN_STARTS();
	long pg = 4096;
	char *a = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *dst = mmap(NULL, 64 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	a[0] = 1;
	a = mremap(a, 4 * pg, 8 * pg, MREMAP_MAYMOVE);
	a = mremap(a, 8 * pg, 2 * pg, 0);
	a = mremap(a, 2 * pg, 2 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, dst + 16 * pg);
	void *bad = mremap(a + 1, pg, pg, 0);                 /* EINVAL */
	int ok = a[0] == 1 && bad == MAP_FAILED;
	munmap(dst, 64 * pg);
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
