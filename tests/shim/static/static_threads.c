/* A static program whose threads map and unmap in a loop while the main
 * thread ends the process with exit_group: the vmrec launcher records
 * every call alone, and the kernel ends the threads wherever they are
 * (tests/shim/launcher-exit-threads.t). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int started;

static void *work(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
	for (;;) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, 8192);
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, work, NULL);
	while (__atomic_load_n(&started, __ATOMIC_RELAXED) < 4)
		usleep(100);
	usleep(20000);
	puts("static PASS");
	fflush(stdout);
	exit(0);
}
