/* Threads with asynchronous cancellation map and unmap one fixed page of
 * their own in a loop and are cancelled at any point.  Afterwards each
 * page is mapped or not; the trace's last call on it must say the same.
 * Prints one line per thread: ADDRESS mapped|unmapped. */
#include "marker.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define THREADS 16
#define BASE 0x500000000000ull

static void *work(void *arg)
{
	void *at = arg;
	int old;
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &old);
	for (;;) {
		mmap(at, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		munmap(at, 4096);
	}
	return NULL;
}

int main(void)
{
	MAIN_STARTS();
	pthread_t t[THREADS];
	for (int i = 0; i < THREADS; i++) {
		void *at = (void *)(uintptr_t)(BASE + (uint64_t)i * 0x100000);
		pthread_create(&t[i], NULL, work, at);
		for (volatile int spin = 0; spin < 20000 * (i + 1); spin++)
			;
		pthread_cancel(t[i]);
		pthread_join(t[i], NULL);
	}
	unsigned char v;
	for (int i = 0; i < THREADS; i++) {
		uint64_t at = BASE + (uint64_t)i * 0x100000;
		printf("%#llx %s\n", (unsigned long long)at,
		       mincore((void *)(uintptr_t)at, 4096, &v) == 0 ? "mapped" : "unmapped");
	}
	return 0;
}
