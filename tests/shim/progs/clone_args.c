/* A thread (glibc's clone3) and a process made by clone(2) with parent
 * and child tid pointers: their arguments are compared with strace's. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

static int child(void *arg) { (void)arg; return 0; }
static void *run(void *arg) { return arg; }

int main(void)
{
	static char stack[65536] __attribute__((aligned(16)));
	pid_t ptid, ctid;
	pthread_t t;
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	int pid = clone(child, stack + sizeof stack, CLONE_PARENT_SETTID | CLONE_CHILD_SETTID | SIGCHLD,
	                NULL, &ptid, NULL, &ctid);
	waitpid(pid, NULL, 0);
	return 0;
}
