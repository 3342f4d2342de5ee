/* parked_signal thread|exit|gate: a SIGUSR1 handler that maps, unmaps and
 * says "mapped", for VMREC_TEST_SIGNAL to raise where the recorder holds
 * the thread's writer: in the key destructor of a thread on a stack too
 * small for glibc to release at its end (so no later call of the thread's
 * is recorded), or after the process's trace was finished; or (gate) in
 * a thread that maps in a loop and finds the gate closed by the process's
 * exit, where it waits until the kernel ends it; or (end-exit) in the
 * end of a thread on a small stack, whose handler has the main thread
 * exit while it sleeps. */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile int exit_now, end_exit;

static void on_usr1(int sig)
{
	(void)sig;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && munmap(p, 4096) == 0)
		(void)!write(1, "mapped\n", 7);
	if (end_exit) {
		exit_now = 1;
		usleep(200000);
	}
}

static void *run(void *arg)
{
	(void)arg;
	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		munmap(p, 8192);
	return NULL;
}

static volatile int looping;

static void *loop(void *arg)
{
	(void)arg;
	for (;;) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED)
			munmap(p, 8192);
		looping = 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "thread") && strcmp(argv[1], "exit") &&
	                  strcmp(argv[1], "gate") && strcmp(argv[1], "end-exit"))) {
		fprintf(stderr, "usage: parked_signal thread|exit|gate|end-exit\n");
		return 2;
	}
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	end_exit = !strcmp(argv[1], "end-exit");
	if (!strcmp(argv[1], "thread") || end_exit) {
		pthread_attr_t at;
		pthread_t t;
		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, PTHREAD_STACK_MIN);
		if (pthread_create(&t, &at, run, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
		while (end_exit && !exit_now)
			usleep(1000);
		if (end_exit) {
			printf("PASS\n");
			exit(0);
		}
		pthread_join(t, NULL);
	}
	if (!strcmp(argv[1], "gate")) {
		pthread_t t;
		if (pthread_create(&t, NULL, loop, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
		while (!looping)
			usleep(1000);
	}
	printf("PASS\n");
	fflush(stdout);
	return 0;
}
