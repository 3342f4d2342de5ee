/* Children killed before they run: the parent forks and at once sends
 * SIGKILL, on one CPU, so the child is most often gone before it ran an
 * instruction (strace's start-up probe does this).  Prints how many of N
 * children the kill found before they said they had run. */
#include "marker.h"
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20, before = 0;
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	sched_setaffinity(0, sizeof one, &one);
	volatile int *ran = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ran == MAP_FAILED)
		return 1;
	MAIN_STARTS();
	for (int i = 0; i < n; i++) {
		*ran = 0;
		pid_t p = fork();
		if (p == 0) {
			*ran = 1;
			_exit(0);
		}
		if (p < 0)
			return 1;
		kill(p, SIGKILL);
		before += !*ran;
		waitpid(p, NULL, 0);
	}
	printf("%d of %d killed before they ran\n", before, n);
	return 0;
}
