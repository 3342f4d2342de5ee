/* A statically linked program (the launcher records all of it) whose
 * calls keep their ranges in memory: process_madvise of its own pidfd
 * with two iovec ranges of resident pages, and prctl(PR_SET_VMA) naming
 * a mapping.  Prints each call's result.
 *   static_ranges */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif
#define MADV_COLD_ 20

int main(void)
{
	char *p = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, 4 * 4096);
	int pidfd = (int)syscall(434 /* pidfd_open */, getpid(), 0);
	struct iovec iov[2] = { { p, 4096 }, { p + 2 * 4096, 2 * 4096 } };
	long r = syscall(440 /* process_madvise */, pidfd, iov, 2, MADV_COLD_, 0);
	/* EINVAL where the kernel has no CONFIG_ANON_VMA_NAME: recorded all the same */
	long n = prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)p, 4096,
	               (unsigned long)"vmrec-ranges");
	printf("%ld %ld\n", r, n);
	return 0;
}
