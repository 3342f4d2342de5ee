/* remote_madvise - process_madvise on another process's memory: a child
 * maps and writes 4 MiB of its own (nothing of the parent's is there),
 * the parent advises parts of it through a pidfd: MADV_COLD of two
 * ranges, MADV_PAGEOUT, MADV_WILLNEED, MADV_COLLAPSE of an aligned 2 MiB
 * (needs THP; its result is printed either way), and MADV_DONTNEED, which
 * the kernel refuses on another process (EINVAL).  Then the child is
 * killed, as the kernel's process_madv selftest kills its own: it makes
 * no call after its mmap.  Prints each result.  Run as root (process_madvise
 * on another process needs CAP_SYS_NICE). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#define HUGE (2ul << 20)

static long pmadvise(int pidfd, const struct iovec *v, size_t n, int advice)
{
	long r = syscall(SYS_process_madvise, pidfd, v, n, advice, 0);
	return r < 0 ? -errno : r;
}

int main(void)
{
	int up[2];
	if (pipe(up) < 0)
		return 1;
	pid_t c = fork();
	if (c < 0)
		return 1;
	if (c == 0) {
		char *m = mmap(NULL, 3 * HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(1);
		char *a = (char *)(((uintptr_t)m + HUGE - 1) & ~(HUGE - 1));
		for (size_t i = 0; i < HUGE; i += 4096)
			a[i] = 1;
		if (write(up[1], &a, sizeof a) != sizeof a)
			_exit(1);
		for (;;)
			pause();
	}
	char *a;
	if (read(up[0], &a, sizeof a) != sizeof a)
		return 1;
	int pfd = (int)syscall(SYS_pidfd_open, c, 0);
	struct iovec two[2] = { { a, 65536 }, { a + 131072, 65536 } }, whole = { a, HUGE };
	printf("cold %ld\n", pmadvise(pfd, two, 2, MADV_COLD));
	printf("pageout %ld\n", pmadvise(pfd, two + 1, 1, MADV_PAGEOUT));
	printf("willneed %ld\n", pmadvise(pfd, two, 1, MADV_WILLNEED));
	long col = pmadvise(pfd, &whole, 1, MADV_COLLAPSE);
	printf("collapse %s\n", col == (long)HUGE ? "done" : "refused");
	printf("dontneed %ld\n", pmadvise(pfd, two, 1, MADV_DONTNEED));
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	return 0;
}
