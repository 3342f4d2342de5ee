/* mbind_nodes - mbind with nodemasks: node 0 on two neighbouring pages
 * (one policy: they merge), node 0 and a node this machine lacks on a
 * third (EINVAL where there is no node 1), a NULL mask with MPOL_DEFAULT,
 * a mask past what the kernel reads (maxnode 1 reads no bit) and a mask
 * that cannot be read (EFAULT).  Prints each result. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MPOL_DEFAULT 0
#define MPOL_BIND 2
#define MPOL_PREFERRED 1

static long mbind_(void *a, unsigned long len, int mode, const unsigned long *mask, unsigned long maxnode)
{
	long r = syscall(SYS_mbind, a, len, mode, mask, maxnode, 0);
	return r < 0 ? -errno : r;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 6 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long node0[2] = { 1, 0 }, node01[1] = { 3 }, node1[1] = { 2 };
	if (p == MAP_FAILED)
		return 1;
	printf("%ld", mbind_(p + pg, pg, MPOL_BIND, node0, 65));
	printf(" %ld", mbind_(p + 2 * pg, pg, MPOL_BIND, node0, 129));
	printf(" %ld", mbind_(p + 3 * pg, pg, MPOL_PREFERRED, node01, 3));
	printf(" %ld", mbind_(p + 4 * pg, pg, MPOL_BIND, node1, 3));
	printf(" %ld", mbind_(p + 4 * pg, pg, MPOL_DEFAULT, NULL, 0));
	printf(" %ld", mbind_(p + 5 * pg, pg, MPOL_BIND, node1, 1));
	printf(" %ld\n", mbind_(p + 5 * pg, pg, MPOL_BIND, (const unsigned long *)8, 65));
	return 0;
}
