/* exit_mapping FILE THREADS USEC: threads map and unmap without end,
 * SIGALRM handlers too, and the main thread exits after USEC while they
 * do.  The calls that succeeded are counted in FILE (a shared mapping,
 * read after the process is gone), as four longs: the threads' mmaps and
 * munmaps, the handlers' mmaps and munmaps.  Every call counted must be
 * in the trace: the process's END follows all of them. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

static long *count;

static void on_alarm(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	__atomic_add_fetch(&count[2], 1, __ATOMIC_RELAXED);
	if (munmap(p, 4096) == 0)
		__atomic_add_fetch(&count[3], 1, __ATOMIC_RELAXED);
}

static void *work(void *arg)
{
	(void)arg;
	for (;;) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		__atomic_add_fetch(&count[0], 1, __ATOMIC_RELAXED);
		if (munmap(p, 8192) == 0)
			__atomic_add_fetch(&count[1], 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		return 1;
	count = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (count == MAP_FAILED)
		return 1;
	close(fd);
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &it, NULL);
	int n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		pthread_t t;
		pthread_create(&t, NULL, work, NULL);
	}
	usleep((useconds_t)atoi(argv[3]));
	exit(0);
}
