/* Residency in a fork child is the child's own: the parent touches pages
 * 0-3 of an 8-page mapping and forks; the child, which inherits 0-3,
 * touches 4-5 and releases all 8; then the parent releases its 8. */
#include "marker.h"
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	MAIN_STARTS();
	long pg = 4096;
	char *p = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(p, 1, 4 * pg);
	pid_t pid = fork();
	if (pid == 0) {
		memset(p + 4 * pg, 2, 2 * pg);
		madvise(p, 8 * pg, MADV_DONTNEED);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	madvise(p, 8 * pg, MADV_DONTNEED);
	puts("PASS");
	return 0;
}
