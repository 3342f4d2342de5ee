/* threads_loop THREADS N: THREADS threads at once, each mapping and
 * unmapping one anonymous page N times (many slabs of records sealed by
 * several writers together, for the launcher to drain). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static long n;

static void *loop(void *arg)
{
	(void)arg;
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || munmap(p, 4096) != 0) {
			perror("threads_loop");
			exit(1);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: threads_loop THREADS N\n");
		return 2;
	}
	int k = atoi(argv[1]);
	n = atol(argv[2]);
	pthread_t t[64];
	if (k < 1 || k > 64)
		return 2;
	for (int i = 0; i < k; i++)
		if (pthread_create(&t[i], NULL, loop, NULL) != 0)
			return 1;
	for (int i = 0; i < k; i++)
		pthread_join(t[i], NULL);
	return 0;
}
