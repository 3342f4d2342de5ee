/* Threads one after another on the stack glibc caches: most leave the
 * part of it that glibc releases at their end untouched, one writes deep
 * in its own stack, and one has the main thread write into a deep buffer
 * of its stack.  The releases of the untouched ones need no page-table
 * scan (the recorder knows the range is still empty: no page fault since
 * the last release); the others must show the page that was written. */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { PLAIN, DEEP_SELF, DEEP_OTHER };
#define DEEP (96 << 10)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile char *shared;
static int written;

static __attribute__((noinline)) void deep_self(void)
{
	char buf[DEEP];
	buf[0] = 1;                  /* the lowest address: far below the top */
	__asm__ volatile("" : : "r"(buf) : "memory");
}

static __attribute__((noinline)) void deep_other(void)
{
	char buf[DEEP];
	pthread_mutex_lock(&mu);
	shared = buf;                /* untouched here: the main thread writes it */
	pthread_cond_broadcast(&cv);
	while (!written)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

static void *run(void *arg)
{
	int kind = (int)(long)arg;
	if (kind == DEEP_SELF)
		deep_self();
	else if (kind == DEEP_OTHER)
		deep_other();
	return NULL;
}

int main(void)
{
	static const int kinds[] = { PLAIN, PLAIN, PLAIN, DEEP_SELF, PLAIN, PLAIN, DEEP_OTHER, PLAIN, PLAIN };
	MAIN_STARTS();
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, run, (void *)(long)kinds[i]))
			return 1;
		if (kinds[i] == DEEP_OTHER) {
			pthread_mutex_lock(&mu);
			while (!shared)
				pthread_cond_wait(&cv, &mu);
			shared[0] = 2;
			written = 1;
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
		}
		pthread_join(t, NULL);
	}
	puts("PASS");
	return 0;
}
