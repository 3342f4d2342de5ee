/* Threads come and go (their writers are pooled and taken by new ones)
 * while each maps and unmaps and SIGALRM handlers map and unmap too: every
 * thread's calls must reach the trace in seq order. */
#include "marker.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

/* Handlers run on several threads at once: counted atomically, or two
 * at the same time count one. */
static int bad, handled;

static void count(int *n) { __atomic_add_fetch(n, 1, __ATOMIC_RELAXED); }

static void on_alarm(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096) != 0)
		count(&bad);
	count(&handled);
}

static void *work(void *arg)
{
	(void)arg;
	for (int i = 0; i < 50; i++) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || munmap(p, 8192) != 0)
			count(&bad);
	}
	return NULL;
}

int main(void)
{
	MAIN_STARTS();
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 300 }, { 0, 300 } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t[4];
	for (int round = 0; round < 100; round++) {
		for (int i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, work, NULL);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("%s %d\n", __atomic_load_n(&bad, __ATOMIC_RELAXED) ? "FAIL" : "PASS",
	       __atomic_load_n(&handled, __ATOMIC_RELAXED));
	return 0;
}
