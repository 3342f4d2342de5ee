/* exec_threads: four threads map, protect and unmap in a loop while the
 * main thread execs this program again with "child" (which maps once and
 * prints PASS): the kernel ends the threads at the exec, wherever they
 * are.  Each of their calls must be in the trace, or not made. */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;
static volatile int started;

static void *work(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
	for (;;) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED) {
			mprotect(p, 4096, PROT_READ);
			munmap(p, 8192);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc > 1 && !strcmp(argv[1], "child")) {
		void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(p, 4096);
		printf("PASS\n");
		return 0;
	}
	pthread_t t;
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, work, NULL);
	while (__atomic_load_n(&started, __ATOMIC_RELAXED) < 4)
		usleep(100);
	struct timespec ts = { 0, 5000000 };
	nanosleep(&ts, NULL);
	char *args[] = { argv[0], "child", NULL };
	execve("/proc/self/exe", args, environ);
	perror("execve");
	return 1;
}
