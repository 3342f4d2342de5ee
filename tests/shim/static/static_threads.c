/* A static program whose threads map and unmap in a loop while the main
 * thread ends the process with exit_group: the vmrec launcher records
 * every call alone, and the kernel ends the threads wherever they are
 * (tests/shim/launcher-exit-threads.t).  With "vfork", one more thread
 * is inside a vfork that never returns (its child waits for the
 * process's end): a recorded call the exit cannot wait for. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static int fds[2];

/* The child reads until the pipe's last writer, the process, is gone. */
static void *in_vfork(void *arg)
{
	(void)arg;
	char c;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
	if (vfork() == 0) {
		close(fds[1]);
		while (read(fds[0], &c, 1) > 0)
			;
		_exit(0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	int n = 4;
	for (int i = 0; i < 4; i++)
		pthread_create(&t, NULL, work, NULL);
	if (argc > 1 && strcmp(argv[1], "vfork") == 0 && pipe(fds) == 0) {
		pthread_create(&t, NULL, in_vfork, NULL);
		n++;
	}
	while (__atomic_load_n(&started, __ATOMIC_RELAXED) < n)
		usleep(100);
	usleep(20000);
	puts("static PASS");
	fflush(stdout);
	exit(0);
}
