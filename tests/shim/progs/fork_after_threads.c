/* fork_after_threads - threads that recorded a call and exited, then a
 * fork while another thread lives: the recorder's fork gate must not
 * look at the exited threads (glibc has unmapped most of their stacks,
 * and their TLS with them).  Usage: fork_after_threads [THREADS]
 * Prints "forked" and exits 0. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_barrier_t all_up;
static int gate[2];

static void map_once(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096)) {
		perror("fork_after_threads: mmap");
		exit(1);
	}
}

static void *short_lived(void *arg)
{
	(void)arg;
	map_once();
	pthread_barrier_wait(&all_up);   /* all alive at once: more stacks than glibc caches */
	return NULL;
}

static void *waiter(void *arg)
{
	(void)arg;
	char c;
	map_once();
	return read(gate[0], &c, 1) == 1 ? NULL : (void *)1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 64;
	pthread_t t[1024], w;
	if (n < 1 || n > 1024 || pipe(gate))
		return 2;
	pthread_barrier_init(&all_up, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, short_lived, NULL))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (pthread_create(&w, NULL, waiter, NULL))
		return 1;
	usleep(20000);   /* the waiter has made its call */
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	int st;
	if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st))
		return 1;
	if (write(gate[1], "x", 1) != 1 || pthread_join(w, NULL))
		return 1;
	puts("forked");
	return 0;
}
