/* fork from a multi-threaded program: the child maps and exits while the
 * parent's other thread is blocked. */
#include "marker.h"
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *hold(void *arg)
{
	pthread_mutex_lock(&m);        /* waits until main unlocks */
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	MAIN_STARTS();
	pthread_t t;
	int st = -1;
	pthread_mutex_lock(&m);
	pthread_create(&t, NULL, hold, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(p, 8192);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	puts(WIFEXITED(st) && WEXITSTATUS(st) == 3 ? "PASS" : "FAIL");
	return 0;
}
