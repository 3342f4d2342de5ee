/* Threads that malloc and free, with glibc's internal mmap, mprotect,
 * brk and madvise calls: none of them through the PLT. */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void *work(void *arg)
{
	size_t size = (size_t)arg;
	void *p = malloc(size);
	free(p);
	return NULL;
}

int main(void)
{
	MAIN_STARTS();
	pthread_t t;
	for (int i = 0; i < 3; i++) {   /* one at a time: per-thread order is fixed */
		pthread_create(&t, NULL, work, (void *)(size_t)(200000 << i));
		pthread_join(t, NULL);
	}
	void *big = malloc(1 << 20);   /* mmap'd by malloc */
	free(big);
	puts("PASS");
	return 0;
}
