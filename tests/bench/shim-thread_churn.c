/* pthread create/join churn: every thread maps its stack (or reuses a
 * cached one), sets its guard, runs, releases it.  Prints nanoseconds per
 * create+join.  Usage: shim-thread_churn COUNT [floor]
 *
 * With "floor", natively, each thread makes the two system calls the
 * recorder cannot do without in a thread (docs/shim-cost.md): arming
 * Syscall User Dispatch (its safety net; the kernel clears it in every new
 * task) and one getrusage (whether its released stack can have pages), so
 * the bench can show how much of the recorded churn the kernel alone
 * costs. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#include "lib/compat.h"

static int floor_calls;
static __thread volatile char selector;   /* 0: SYSCALL_DISPATCH_FILTER_ALLOW */

static void *run(void *arg)
{
	if (floor_calls) {
		struct rusage ru;
		prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0, 0, &selector);
		getrusage(RUSAGE_SELF, &ru);
	}
	return arg;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000;
	floor_calls = argc > 2 && strcmp(argv[2], "floor") == 0;
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
