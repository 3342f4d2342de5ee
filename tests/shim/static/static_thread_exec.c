/* A statically linked program (the launcher records all of it) whose
 * second thread calls execve: the kernel gives the new image the
 * leader's pid, and the launcher learns the thread's former tid from
 * PTRACE_GETEVENTMSG (tests/shim/launcher-threads.t).
 *   static_thread_exec PROGRAM */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static char **args;

static void *run(void *arg)
{
	(void)arg;
	execv(args[1], args + 1);
	perror("execv");
	_exit(127);
}

int main(int argc, char **argv)
{
	pthread_t th;
	if (argc < 2)
		return 2;
	args = argv;
	if (pthread_create(&th, NULL, run, NULL) != 0)
		return 1;
	pthread_join(th, NULL);
	return 1;
}
