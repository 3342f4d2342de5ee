/* vfork_full N: a forked child fills the trace store with N brk calls
 * (grow and shrink a page), then this process, whose slab has room for
 * its own records, starts /nonexistent with posix_spawn (a CLONE_VFORK
 * child, which writes its records in chunks of its own: none has room
 * now) and exits 3. */
#include "marker.h"
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	MAIN_STARTS();
	long n = argc > 1 ? atol(argv[1]) : 100000;
	pid_t pid = fork();
	if (pid == 0) {
		for (long i = 0; i < n; i++) {
			sbrk(4096);
			sbrk(-4096);
		}
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	char *args[] = { "/nonexistent", NULL };
	if (posix_spawn(&pid, "/nonexistent", NULL, NULL, args, environ) == 0)
		waitpid(pid, &st, 0);
	printf("PASS\n");
	return 3;
}
