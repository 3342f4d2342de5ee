/* signal_storm_threads LOG: threads come and go, each mapping and
 * unmapping in a loop, while another thread sends them and the main
 * thread a storm of SIGUSR1, whose handler maps, unmaps and appends one
 * byte to LOG; after a while the main thread exits with all of it still
 * going (the exit closes the fork gate on calls, handlers and threads'
 * ends).  Every mmap the handlers logged must be in the trace, or counted
 * lost.  Prints PASS (every call's result was right) before it exits. */
#include "marker.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 4

static int bad, logfd;
static volatile pid_t tids[WORKERS + 1];

static void count(int *n) { __atomic_add_fetch(n, 1, __ATOMIC_RELAXED); }

static void on_usr1(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 4096) != 0)
		count(&bad);
	else
		(void)!write(logfd, "m", 1);
}

static void *work(void *arg)
{
	int slot = (int)(long)arg;
	tids[slot] = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < 200; i++) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || mprotect(p, 4096, PROT_READ) != 0 || munmap(p, 8192) != 0)
			count(&bad);
	}
	tids[slot] = 0;
	return NULL;
}

static void *storm(void *arg)
{
	(void)arg;
	pid_t pid = getpid();
	struct timespec tick = { 0, 20000 };
	for (unsigned i = 0;; i++) {
		pid_t tid = tids[i % (WORKERS + 1)];
		if (tid)
			syscall(SYS_tgkill, pid, tid, SIGUSR1);
		nanosleep(&tick, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc != 2 || (logfd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0600)) < 0) {
		fprintf(stderr, "usage: signal_storm_threads LOG\n");
		return 2;
	}
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	tids[WORKERS] = (pid_t)syscall(SYS_gettid);
	pthread_t t[WORKERS], s;
	pthread_create(&s, NULL, storm, NULL);
	for (int round = 0; round < 30; round++) {
		for (int i = 0; i < WORKERS; i++)
			pthread_create(&t[i], NULL, work, (void *)(long)i);
		for (int i = 0; i < WORKERS; i++)
			pthread_join(t[i], NULL);
	}
	for (int i = 0; i < WORKERS; i++)     /* the exit comes while they map */
		pthread_create(&t[i], NULL, work, (void *)(long)i);
	usleep(2000);
	printf("%s\n", __atomic_load_n(&bad, __ATOMIC_RELAXED) ? "FAIL" : "PASS");
	fflush(stdout);
	exit(0);
}
