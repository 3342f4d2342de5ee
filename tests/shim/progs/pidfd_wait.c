/* pidfd_wait [N]: a parent that waits for N children as the kernel's
 * selftest harness waits for each test: poll the child's pidfd, then
 * waitpid(WNOHANG).  Natively a child whose pidfd is readable is always
 * there to reap; prints how many were not, exits 1 if any. */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50, missed = 0;
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		int fd = (int)syscall(SYS_pidfd_open, p, 0);
		struct pollfd pf = { fd, POLLIN, 0 };
		poll(&pf, 1, 10000);
		int st;
		if (waitpid(p, &st, WNOHANG) != p) {
			missed++;
			waitpid(p, &st, 0);
		}
		close(fd);
	}
	printf("%d of %d children not reapable when their pidfd said so\n", missed, n);
	return missed != 0;
}
