/* malloc1-like: malloc and free 128 MiB COUNT times (glibc maps and unmaps
 * each block, and writes only its chunk header, on the block's first
 * page), then one block with pages written in runs and 64 pages with
 * every other one written (where a bitmap is the smaller coding), each
 * unmapped whole.
 * Usage: malloc_free COUNT */
#include "marker.h"
#include <stdlib.h>
#include <sys/mman.h>

#define BIG (128UL << 20)
#define PAGE 4096UL

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	MAIN_STARTS();
	for (long i = 0; i < n; i++) {
		char *volatile p = malloc(BIG);
		free(p);
	}
	char *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (unsigned long pg = 100; pg < 110; pg++)   /* runs: 100+10 5000+1 32760+8 */
		p[pg * PAGE] = 1;
	p[5000 * PAGE] = 1;
	for (unsigned long pg = 32760; pg < 32768; pg++)
		p[pg * PAGE] = 1;
	munmap(p, BIG);
	p = mmap(NULL, 64 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (unsigned long pg = 1; pg < 64; pg += 2)
		p[pg * PAGE] = 1;
	munmap(p, 64 * PAGE);
	return 0;
}
