/* The hole between two anonymous VMAs that two other threads mapped and
 * wrote is filled by a third thread: the kernel merges the new mapping
 * with one neighbour only (their anon_vmas differ), and the boundary
 * lasts to the exit checkpoint.  The recorder's table of a thread's own
 * mappings does not hold the neighbours here: each thread made one.
 *
 *   fixed  the hole filled with MAP_FIXED
 *   hint   the hole filled by a mapping placed at its hint */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const long pg = 4096;
static char *base;
static int hint;

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
	/* free space for the three, apart: a reservation given back */
	base = mmap(NULL, 8 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED || munmap(base, 8 * pg) != 0)
		return 1;
	int ok = in_thread(outer, base + 2 * pg) && in_thread(outer, base + 4 * pg) &&
	         in_thread(middle, base + 3 * pg);
	printf("%s\n", ok ? "PASS" : "FAIL");
	return 0;
}
