/* order_threads MODE THREADS SIZE N: THREADS threads at once, N times each:
 *   map       mmap SIZE bytes, write a byte, munmap
 *   mprotect  the same with an mprotect of its first page in between
 *   brk       brk(0), brk(+SIZE), brk(back) straight to the kernel, under a
 *             lock (as any two users of one break must be), then a brk(0)
 *             outside it, racing the other threads' moves
 *   fork      map, while the main thread forks N / 10 children that map
 *             and unmap SIZE bytes and exit
 * Threads reuse each other's freed ranges at once, so their calls overlap
 * in time on the same pages: the order of the trace must be one the
 * kernel could have produced (docs/trace-format.md, "Order"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *mode;
static pthread_mutex_t brk_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t size;
static long n;

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

static void *loop(void *arg)
{
	(void)arg;
	for (long i = 0; i < n; i++) {
		if (!strcmp(mode, "brk")) {
			pthread_mutex_lock(&brk_lock);
			long b = syscall(SYS_brk, 0);
			syscall(SYS_brk, b + (long)size);
			syscall(SYS_brk, b);
			pthread_mutex_unlock(&brk_lock);
			syscall(SYS_brk, 0);
			continue;
		}
		char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			fail("mmap");
		p[0] = 1;
		if (!strcmp(mode, "mprotect") && mprotect(p, 4096, PROT_READ) != 0)
			fail("mprotect");
		if (munmap(p, size) != 0)
			fail("munmap");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: order_threads map|mprotect|brk|fork THREADS SIZE N\n");
		return 2;
	}
	mode = argv[1];
	int k = atoi(argv[2]);
	size = strtoul(argv[3], NULL, 0);
	n = atol(argv[4]);
	pthread_t t[64];
	if (k < 1 || k > 64 || size < 4096)
		return 2;
	for (int i = 0; i < k; i++)
		if (pthread_create(&t[i], NULL, loop, NULL) != 0)
			return 1;
	for (long i = 0; !strcmp(mode, "fork") && i < n / 10; i++) {
		pid_t c = fork();
		if (c < 0)
			fail("fork");
		if (c == 0) {
			char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			_exit(p == MAP_FAILED || munmap(p, size) != 0);
		}
		int st;
		if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
			fail("child");
	}
	for (int i = 0; i < k; i++)
		pthread_join(t[i], NULL);
	return 0;
}
