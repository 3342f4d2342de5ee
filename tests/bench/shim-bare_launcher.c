/* shim-bare_launcher PROGRAM ARGS...: fork, exec PROGRAM, wait, exit with
 * its status - the least any launcher costs a recording (a static
 * program of its own, as vmrec is, between the caller and PROGRAM), the
 * floor of make bench's start-up rows. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: shim-bare_launcher PROGRAM ARGS...\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("shim-bare_launcher: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
