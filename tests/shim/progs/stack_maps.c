/* MAP_STACK and MAP_GROWSDOWN mappings, touched. */
#include "marker.h"
#include <stdio.h>

int main(void)
{
	MAIN_STARTS();
	long pg = 4096;
	char *s = mmap(NULL, 16 * pg, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	char *g = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN, -1, 0);
	s[15 * pg] = 1;
	g[3 * pg] = 1;
	munmap(s, 16 * pg);
	munmap(g, 4 * pg);
	puts("PASS");
	return 0;
}
