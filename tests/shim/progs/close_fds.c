/* Descriptor operations that used to break recording: close every fd
 * above 2 (close_range, as daemons and spawners do) or dup2 over them all,
 * then map (sizes 1..5 pages, PROT_READ) and run a child that maps too.
 *   close_fds range|dup2 */
#include "marker.h"
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc != 2)
		return 2;
	if (strcmp(argv[1], "range") == 0) {
		if (close_range(3, ~0U, 0) != 0)
			return 3;
	} else {
		for (int fd = 3; fd < 1024; fd++)
			dup2(1, fd);
	}
	for (int i = 0; i < 5; i++)
		mmap(NULL, 4096 * (i + 1), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	if (pid == 0) {
		mmap(NULL, 4096 * 7, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("PASS\n");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
