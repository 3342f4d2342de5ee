/* pthread create/join churn: every thread maps its stack (or reuses a
 * cached one), sets its guard, runs, releases it.  Prints nanoseconds per
 * create+join.  Usage: shim-thread_churn COUNT */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *run(void *arg) { return arg; }

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000;
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (long i = 0; i < n; i++) {
		pthread_t t;
		pthread_create(&t, NULL, run, NULL);
		pthread_join(t, NULL);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
	return 0;
}
