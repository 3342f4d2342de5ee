/* hugetlb_memfd - map a memfd of huge pages (MFD_HUGETLB) and a plain
 * memfd privately, and ask MADV_PAGEOUT of each: EINVAL on the hugetlb
 * one (the kernel's can_madv_lru_vma), 0 on the other.  Prints PASS when
 * both answer so; exits 77 when no huge page can be had. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif
#define HUGE (2u << 20)

static int pageout(unsigned flags)
{
	int fd = memfd_create(flags ? "huge" : "plain", MFD_CLOEXEC | flags);
	if (fd < 0 || ftruncate(fd, HUGE) < 0)
		return -2;
	char *p = mmap(NULL, HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return -2;
	int r = madvise(p, HUGE, MADV_PAGEOUT) ? errno : 0;
	munmap(p, HUGE);
	close(fd);
	return r;
}

int main(void)
{
	int huge = pageout(MFD_HUGETLB);
	if (huge == -2) {
		printf("no huge page here\n");
		return 77;
	}
	int plain = pageout(0);
	if (huge == EINVAL && plain == 0) {
		printf("PASS\n");
		return 0;
	}
	printf("FAIL: MADV_PAGEOUT gave %d (hugetlb) and %d (plain)\n", huge, plain);
	return 1;
}
