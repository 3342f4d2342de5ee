/* shim-runcpu N PROGRAM ARGS... - run PROGRAM N times, one after the
 * other, and print the CPU milliseconds (user + system) they used in all:
 * on a shared machine CPU time is steadier than wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: shim-runcpu N PROGRAM [ARGS...]\n");
		return 2;
	}
	for (long i = atol(argv[1]); i > 0; i--) {
		pid_t pid = fork();
		if (pid == 0) {
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "shim-runcpu: %s failed\n", argv[2]);
			return 1;
		}
	}
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%.1f\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	                 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	return 0;
}
