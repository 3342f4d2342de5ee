/* A thread on a stack the program supplies (pthread_attr_setstack): glibc
 * never releases it with madvise, so its exit is recorded from its end
 * instead - after its thread-specific data destructors, one of which
 * unmaps what the thread mapped; then a thread on a stack glibc
 * allocates, for comparison. */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_key_t key;   /* created after the recorder's own */

static void unmap_page(void *page) { munmap(page, 4096); }

static void *run(void *arg)
{
	void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED)
		pthread_setspecific(key, page);
	return arg;
}

int main(void)
{
	MAIN_STARTS();
	size_t size = 256 << 10;
	void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_attr_t attr;
	pthread_t t;
	pthread_attr_init(&attr);
	if (pthread_key_create(&key, unmap_page))
		return 1;
	if (stack == MAP_FAILED || pthread_attr_setstack(&attr, stack, size) ||
	    pthread_create(&t, &attr, run, NULL) || pthread_join(t, NULL))
		return 1;
	if (pthread_create(&t, NULL, run, NULL) || pthread_join(t, NULL))
		return 1;
	munmap(stack, size);
	puts("PASS");
	return 0;
}
