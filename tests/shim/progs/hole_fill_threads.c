/* The hole between two anonymous VMAs that two other threads mapped and
 * wrote is filled by a third thread: the kernel merges the new mapping
 * with one neighbour only (their anon_vmas differ), and the boundary
 * reaches a fork child's first checkpoint and the exit.  The recorder's
 * table of a thread's own mappings does not hold the neighbours here:
 * each thread made one.  The process has forked once while threaded
 * before (a thread that mapped a page waits meanwhile), as a program
 * whose threads' passing boundaries a fork child copies has.
 *
 *   fixed  the hole filled with MAP_FIXED
 *   hint   the hole filled by a mapping placed at its hint */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const long pg = 4096;
static char *base;
static int hint;
static pthread_barrier_t there, go;

static void *sleeper(void *arg)
{
	(void)arg;
	void *p = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_barrier_wait(&there);
	pthread_barrier_wait(&go);
	return p;
}

/* a child that exits at once (its first checkpoint: the parent's map) */
static int fork_one(void)
{
	int st;
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	return c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && !WEXITSTATUS(st);
}

static void *outer(void *arg)
{
	char *at = arg;
	char *p = mmap(at, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != at)
		return NULL;
	p[0] = 1;
	return p;
}

static void *middle(void *arg)
{
	char *at = arg;
	char *p = mmap(at, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (hint ? 0 : MAP_FIXED), -1, 0);
	return p == at ? p : NULL;
}

/* fn(at) in a thread of its own, its result */
static void *in_thread(void *(*fn)(void *), char *at)
{
	pthread_t t;
	void *r = NULL;
	if (pthread_create(&t, NULL, fn, at) != 0 || pthread_join(t, &r) != 0)
		return NULL;
	return r;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "fixed") && strcmp(argv[1], "hint"))) {
		fprintf(stderr, "usage: hole_fill_threads fixed|hint\n");
		return 2;
	}
	hint = !strcmp(argv[1], "hint");
	MAIN_STARTS();
	pthread_t s;
	pthread_barrier_init(&there, NULL, 2);
	pthread_barrier_init(&go, NULL, 2);
	if (pthread_create(&s, NULL, sleeper, NULL) != 0)
		return 1;
	pthread_barrier_wait(&there);
	int ok = fork_one();
	/* free space for the three, apart: a reservation given back */
	base = mmap(NULL, 8 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED || munmap(base, 8 * pg) != 0)
		return 1;
	ok = ok && in_thread(outer, base + 2 * pg) && in_thread(outer, base + 4 * pg) &&
	     in_thread(middle, base + 3 * pg) && fork_one();
	pthread_barrier_wait(&go);
	pthread_join(s, NULL);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return 0;
}
