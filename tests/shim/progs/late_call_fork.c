/* late_call_fork [ROUNDS]: a thread's last calls, made by the program's
 * own thread-specific destructor after the recorder let the thread go
 * (its exit key runs first: it was made first), against a fork by the
 * main thread.  Each round the ending thread maps and populates 32 MiB
 * while the main thread forks; natively nothing is printed but "done". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (32u << 20)

static pthread_key_t late_key;
static volatile int calling;

static void late_calls(void *arg)
{
	(void)arg;
	__atomic_store_n(&calling, 1, __ATOMIC_RELEASE);
	void *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p != MAP_FAILED)
		munmap(p, SIZE);
}

static void *ending(void *arg)
{
	pthread_setspecific(late_key, arg);
	return NULL;
}

static void fork_and_wait(void)
{
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	if (c > 0)
		waitpid(c, NULL, 0);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	if (pthread_key_create(&late_key, late_calls) != 0)
		return 1;
	fork_and_wait();
	for (int i = 0; i < rounds; i++) {
		pthread_t t;
		__atomic_store_n(&calling, 0, __ATOMIC_RELAXED);
		if (pthread_create(&t, NULL, ending, (void *)1) != 0)
			return 1;
		while (!__atomic_load_n(&calling, __ATOMIC_ACQUIRE))
			;
		usleep(1000);   /* the populate of 32 MiB takes longer */
		fork_and_wait();
		pthread_join(t, NULL);
	}
	puts("done");
	return 0;
}
