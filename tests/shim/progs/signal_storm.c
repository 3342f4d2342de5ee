/* Signals arrive inside recorded calls; their handler maps and unmaps
 * too.  Every call's result must be right and every call recorded. */
#include "marker.h"
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile int in_handler, bad;

static void on_alarm(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096) != 0)
		bad++;
	in_handler++;
}

int main(void)
{
	MAIN_STARTS();
	struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &it, NULL);
	int loops = 0;
	while (in_handler < 200 && loops < 2000000) {
		char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || mprotect(p, 4096, PROT_READ) != 0 || munmap(p, 8192) != 0)
			bad++;
		loops++;
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	/* calls the trace must hold: 3 per loop, 2 per signal */
	printf("%s %d\n", bad ? "FAIL" : "PASS", 3 * loops + 2 * in_handler);
	return 0;
}
