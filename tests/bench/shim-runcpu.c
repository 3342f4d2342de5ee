/* shim-runcpu [-w] N PROGRAM ARGS... - run PROGRAM N times, one after the
 * other, and print the CPU milliseconds (user + system) they used in all:
 * on a shared machine CPU time is steadier than wall time.
 * -w: a start-up row's figures: PROGRAM's output goes to /dev/null, a
 * failing run counts too, and the wall microseconds follow the CPU
 * milliseconds on the line ("CPU_MS WALL_US"). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int wall = argc > 1 && strcmp(argv[1], "-w") == 0;
	argv += wall;
	argc -= wall;
	if (argc < 3) {
		fprintf(stderr, "usage: shim-runcpu [-w] N PROGRAM [ARGS...]\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = atol(argv[1]); i > 0; i--) {
		pid_t pid = fork();
		if (pid == 0) {
			int null = wall ? open("/dev/null", O_WRONLY) : -1;
			if (null >= 0) {
				dup2(null, 1);
				dup2(null, 2);
				close(null);
			}
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int st;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 ||
		    (!wall && (!WIFEXITED(st) || WEXITSTATUS(st)))) {
			fprintf(stderr, "shim-runcpu: %s failed\n", argv[2]);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%.1f", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	               (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	if (wall)
		printf(" %lld", ((long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL +
		                 (t1.tv_nsec - t0.tv_nsec)) / 1000);
	printf("\n");
	return 0;
}
