/* Fresh anonymous mappings released: ROUNDS untouched (known empty, no
 * page-table scan needed), then one a second thread writes a page of,
 * one filled by MAP_POPULATE, and one read once after an mprotect (the
 * zero page is mapped).  Usage: fresh_maps ROUNDS */
#include "marker.h"
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096UL
#define LEN (256 * PAGE)

static void *write_page(void *p)
{
	((volatile char *)p)[3 * PAGE] = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	pthread_t t;
	MAIN_STARTS();
	for (long i = 0; i < n; i++) {
		char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(p, LEN);
	}
	char *p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_create(&t, NULL, write_page, p);
	pthread_join(t, NULL);
	munmap(p, LEN);
	p = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	munmap(p, 16 * PAGE);
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(p, LEN, PROT_READ);
	if (((volatile char *)p)[5 * PAGE])
		return 1;
	munmap(p, LEN);
	return 0;
}
