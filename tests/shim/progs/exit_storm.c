/* Signals aimed at threads while they end: the recorder does its own
 * work at a thread's end (it hands the thread's writer back after the
 * program's last call there), and a handler that maps and unmaps may run
 * in the middle of it.  Every handler's calls must reach the trace.
 *
 * Each round starts a thread that maps and unmaps a few times and ends;
 * the main thread keeps signalling it (one signal at a time, each after
 * the last was handled and a short, varying pause, so the thread still
 * gets on) until it is gone.  Prints PASS or FAIL and the number of
 * handler mmaps the trace must hold. */
#include "marker.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int bad;
static int handled;            /* atomically */
static int tid;                /* the current round's thread, atomically */

static void on_usr1(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096) != 0)
		bad++;
	__atomic_add_fetch(&handled, 1, __ATOMIC_RELEASE);
}

static void *work(void *arg)
{
	(void)arg;
	__atomic_store_n(&tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || munmap(p, 8192) != 0)
			bad++;
	}
	return NULL;
}

static void pause_ns(long ns)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < ns);
}

int main(int argc, char **argv)
{
	MAIN_STARTS();
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	unsigned seed = 1;
	pid_t pid = getpid();
	for (int r = 0; r < rounds; r++) {
		pthread_t t;
		__atomic_store_n(&tid, 0, __ATOMIC_RELEASE);
		if (pthread_create(&t, NULL, work, NULL) != 0) {
			bad++;
			break;
		}
		int who;
		while (!(who = __atomic_load_n(&tid, __ATOMIC_ACQUIRE)))
			;
		for (;;) {
			int before = __atomic_load_n(&handled, __ATOMIC_ACQUIRE);
			if (syscall(SYS_tgkill, pid, who, SIGUSR1) != 0)
				break;      /* the thread is gone */
			/* wait for the handler (or the thread's end), then a pause
			 * of 0-8 us so the thread moves on between signals */
			for (int spin = 0; spin < 200000 && __atomic_load_n(&handled, __ATOMIC_ACQUIRE) == before; spin++)
				if (syscall(SYS_tgkill, pid, who, 0) != 0)
					break;
			seed = seed * 1103515245u + 12345u;
			pause_ns((long)(seed >> 16) % 8000);
		}
		pthread_join(t, NULL);
	}
	printf("%s %d\n", bad ? "FAIL" : "PASS", __atomic_load_n(&handled, __ATOMIC_ACQUIRE));
	return 0;
}
