/* posix_spawn (clone(CLONE_VM|CLONE_VFORK)), fork + execve and fork +
 * fexecve (execveat) of this program again with "child": every child and
 * every new image is recorded into the same trace. */
#include "marker.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		void *p = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		munmap(p, 3 * 4096);
		return 5;
	}
	char *args[] = { argv[0], "child", NULL };
	pid_t pid;
	int st1 = -1, st2 = -1;
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ) != 0)
		return 1;
	waitpid(pid, &st1, 0);
	pid = fork();
	if (pid == 0) {
		execve("/proc/self/exe", args, environ);
		_exit(127);
	}
	waitpid(pid, &st2, 0);
	int st3 = -1, fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	pid = fork();
	if (pid == 0) {
		fexecve(fd, args, environ);
		_exit(127);
	}
	waitpid(pid, &st3, 0);
	int ok = WEXITSTATUS(st1) == 5 && WEXITSTATUS(st2) == 5 && WEXITSTATUS(st3) == 5;
	puts(ok ? "PASS" : "FAIL");
	return 0;
}
