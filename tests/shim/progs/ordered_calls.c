/* ordered_calls THREADS N: THREADS threads each map and unmap a page (so
 * the recorder knows them), then the main thread forks a child that
 * exits, then the threads map 64 KiB, write it and unmap it N times each
 * while the main thread forks N / 10 more children that map and unmap
 * 64 KiB: a process that forked while threaded, its threads' calls
 * overlapping in time on neighbouring pages.  Prints "done". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE 0x10000

static pthread_barrier_t known, forked;
static long n;

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static void map_unmap(size_t size, int touch)
{
	char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		fail("mmap");
	if (touch)
		p[0] = 1;
	if (munmap(p, size))
		fail("munmap");
}

static void fork_one(void)
{
	pid_t c = fork();
	if (c < 0)
		fail("fork");
	if (c == 0) {
		char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		_exit(p == MAP_FAILED || munmap(p, SIZE) != 0);
	}
	int st;
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		fail("child");
}

static void *loop(void *arg)
{
	(void)arg;
	map_unmap(4096, 0);
	pthread_barrier_wait(&known);
	pthread_barrier_wait(&forked);
	for (long i = 0; i < n; i++)
		map_unmap(SIZE, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: ordered_calls THREADS N\n");
		return 2;
	}
	int k = atoi(argv[1]);
	n = atol(argv[2]);
	pthread_t t[64];
	if (k < 1 || k > 64 || n < 0)
		return 2;
	pthread_barrier_init(&known, NULL, (unsigned)k + 1);
	pthread_barrier_init(&forked, NULL, (unsigned)k + 1);
	for (int i = 0; i < k; i++)
		if (pthread_create(&t[i], NULL, loop, NULL) != 0)
			return 1;
	pthread_barrier_wait(&known);
	fork_one();
	pthread_barrier_wait(&forked);
	for (long i = 0; i < n / 10; i++)
		fork_one();
	for (int i = 0; i < k; i++)
		pthread_join(t[i], NULL);
	puts("done");
	return 0;
}
