/* Results and errno are exactly libc's: failing calls set the same errno,
 * successful ones leave errno alone.  Prints one line per check. */
#include "marker.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CHECK(what, cond) printf("%s %s errno=%d\n", (cond) ? "PASS" : "FAIL", what, errno)

int main(void)
{
	MAIN_STARTS();
	errno = 1234;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK("mmap ok keeps errno", p != MAP_FAILED && errno == 1234);
	errno = 0;
	CHECK("mmap bad fd", mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 999, 0) == MAP_FAILED);
	errno = 0;
	CHECK("mmap unaligned offset", mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 1) == MAP_FAILED);
	errno = 0;
	CHECK("munmap unaligned", munmap((char *)p + 1, 4096) == -1);
	errno = 0;
	CHECK("mprotect unmapped", mprotect((void *)0x1000, 4096, PROT_READ) == -1);
	errno = 0;
	CHECK("madvise bad advice", madvise(p, 4096, 12345) == -1);
	errno = 0;
	CHECK("mremap bad", mremap((char *)p + 1, 4096, 8192, 0) == MAP_FAILED);
	errno = 0;
	CHECK("posix_madvise returns the error", posix_madvise(p, 4096, 12345) != 0 && errno == 0);
	errno = 77;
	CHECK("sbrk(0) keeps errno", sbrk(0) != (void *)-1 && errno == 77);
	errno = 0;
	CHECK("brk far away fails", brk((void *)(UINTPTR_MAX / 2)) == -1);
	errno = 0;
	CHECK("syscall(SYS_munmap) unaligned", syscall(SYS_munmap, (char *)p + 1, 4096) == -1);
	errno = 0;
	CHECK("mlock2 bad flags", mlock2(p, 4096, 0x80) == -1);
	errno = 5;
	CHECK("munmap ok keeps errno", munmap(p, 4096) == 0 && errno == 5);
	return 0;
}
