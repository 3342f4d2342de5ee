/* pidfd_madvise - process_madvise through pidfds that the replay cannot
 * give it as recorded: none (EBADF), an ended process's (ESRCH), and a
 * live child's, on the child's memory (which the caller does not map).
 * Exits 0 when each call did what it is there for. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_COLD
#define MADV_COLD 20
#endif

static long pmadv(int pidfd, void *addr, size_t len, int advice)
{
	struct iovec iov = { addr, len };
	return syscall(SYS_process_madvise, pidfd, &iov, 1, advice, 0);
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *own = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int bad = 0, up[2], down[2];   /* child to parent, parent to child */
	if (own == MAP_FAILED || pipe(up) || pipe(down))
		return 2;
	own[0] = 1;
	if (pmadv(-1, own, pg, MADV_COLD) != -1 || errno != EBADF)
		bad |= 1, fprintf(stderr, "no pidfd: not EBADF\n");
	/* an ended process's pidfd */
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	int dead = (int)syscall(SYS_pidfd_open, c, 0);
	waitpid(c, NULL, 0);
	if (pmadv(dead, own, pg, MADV_COLD) != -1 || errno != ESRCH)
		bad |= 2, fprintf(stderr, "ended process: not ESRCH\n");
	/* a live child's memory, at an address the parent leaves unmapped */
	munmap(own, 2 * pg);
	c = fork();
	if (c == 0) {
		char *m = mmap(own, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
		m[0] = 1;
		if (write(up[1], "x", 1) != 1)
			_exit(1);
		char b;
		_exit(read(down[0], &b, 1) == 1 ? 0 : 1);
	}
	char b;
	if (read(up[0], &b, 1) != 1)
		return 2;
	int live = (int)syscall(SYS_pidfd_open, c, 0);
	if (pmadv(live, own, 2 * pg, MADV_COLD) != 2 * pg)
		bad |= 4, fprintf(stderr, "the child's memory: %s\n", errno ? "failed" : "short");
	if (write(down[1], "x", 1) != 1)
		return 2;
	waitpid(c, NULL, 0);
	return bad;
}
