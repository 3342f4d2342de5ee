/* fork_first_calls ROUNDS: ROUNDS times, a new thread makes its first
 * recorded calls (mmap, munmap) the moment the main thread forks: the
 * fork gate must hold them off although no other thread had enrolled yet
 * (the first fork of a program that forks right after making threads).
 * The thread ends only after the fork: its last calls (glibc's madvise of
 * its stack) are not gated. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_barrier_t go, done;

static void *first_calls(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	for (int i = 0; i < 3; i++) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || munmap(p, 4096) != 0)
			return (void *)1;
	}
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	int rounds = argc == 2 ? atoi(argv[1]) : 0;
	if (rounds < 1) {
		fprintf(stderr, "usage: fork_first_calls ROUNDS\n");
		return 2;
	}
	for (int i = 0; i < rounds; i++) {
		pthread_t t;
		void *r;
		int st;
		pthread_barrier_init(&go, NULL, 2);
		pthread_barrier_init(&done, NULL, 2);
		if (pthread_create(&t, NULL, first_calls, NULL) != 0)
			return 1;
		pthread_barrier_wait(&go);
		pid_t c = fork();
		if (c == 0)
			_exit(0);
		if (c < 0 || waitpid(c, &st, 0) != c)
			return 1;
		pthread_barrier_wait(&done);
		if (pthread_join(t, &r) != 0 || r)
			return 1;
		pthread_barrier_destroy(&go);
		pthread_barrier_destroy(&done);
	}
	printf("forked\n");
	return 0;
}
