/* vma_calls - each VMA-changing call issue 34 added to the table, made
 * once on a range of its own of one mapping, through libc's wrapper where
 * glibc has one (prctl, ioctl, process_madvise, remap_file_pages) and
 * syscall(2) where it has none (mbind, set_mempolicy_home_node,
 * map_shadow_stack), and calls whose result they change: MADV_COLLAPSE
 * after PR_SET_THP_DISABLE, a writable executable mapping after
 * PR_SET_MDWE.  Prints each call's name and result ("-1 EINVAL" where the
 * kernel lacks the feature) and the ioctls and prctls it makes that are
 * not recorded, so a recording can be checked against it.  Argument
 * "nomdwe" leaves PR_SET_MDWE out (a replay would inherit it). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif
#ifndef PR_SET_MEMORY_MERGE
#define PR_SET_MEMORY_MERGE 67
#endif
#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#define SYS_set_mempolicy_home_node_ 450
#define SYS_map_shadow_stack_ 453

static void said(const char *what, long r)
{
	if (r == -1)
		printf("%s -1 %s\n", what, strerrorname_np(errno));
	else
		printf("%s %ld\n", what, r);
}

int main(int argc, char **argv)
{
	int mdwe = !(argc > 1 && !strcmp(argv[1], "nomdwe"));
	const size_t pg = 4096, n = 64;
	/* one mapping, a range of its own for each call, gaps between */
	char *m = mmap(NULL, n * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	memset(m, 1, n * pg);
	unsigned long node = 1;
	said("mbind", syscall(SYS_mbind, m + 2 * pg, pg, 2 /* MPOL_BIND */, &node, 64, 0));
	said("set_mempolicy_home_node", syscall(SYS_set_mempolicy_home_node_, m + 6 * pg, pg, 0, 0));
	said("prctl(PR_SET_VMA)", prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, m + 10 * pg, pg, "vma_calls"));
	said("prctl(PR_SET_THP_DISABLE)", prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0));
	said("madvise(MADV_COLLAPSE)", madvise(m + 14 * pg, 2 * pg, MADV_COLLAPSE));
	said("prctl(PR_SET_MEMORY_MERGE)", prctl(PR_SET_MEMORY_MERGE, 1, 0, 0, 0));
	said("prctl(PR_GET_THP_DISABLE)", prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0));   /* not recorded */
	int pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	struct iovec iov[2] = { { m + 18 * pg, pg }, { m + 21 * pg, 2 * pg } };
	said("process_madvise", process_madvise(pidfd, iov, 2, MADV_COLD, 0));
	int uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	said("ioctl(UFFDIO_API)", ioctl(uffd, UFFDIO_API, &api));                 /* not recorded */
	struct uffdio_register reg = { .range = { (unsigned long)(m + 26 * pg), 4 * pg },
	                               .mode = UFFDIO_REGISTER_MODE_MISSING };
	said("ioctl(UFFDIO_REGISTER)", ioctl(uffd, UFFDIO_REGISTER, &reg));
	struct uffdio_range unreg = { (unsigned long)(m + 27 * pg), pg };
	said("ioctl(UFFDIO_UNREGISTER)", ioctl(uffd, UFFDIO_UNREGISTER, &unreg));
	said("ioctl(FIONREAD)", ioctl(0, FIONREAD, &(int){ 0 }) == -1 ? -1 : 0);   /* not recorded */
	char path[] = "/tmp/vma_calls.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, 8 * pg) < 0)
		return 1;
	char *f = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED)
		return 1;
	said("remap_file_pages", remap_file_pages(f + 2 * pg, pg, 0, 5, 0));
	said("map_shadow_stack", syscall(SYS_map_shadow_stack_, 0, pg, 1));
	if (mdwe) {
		said("prctl(PR_SET_MDWE)", prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0));
		void *x = mmap(NULL, pg, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		said("mmap(PROT_WRITE|PROT_EXEC)", x == MAP_FAILED ? -1 : 0);
	}
	munmap(f, 8 * pg);
	close(fd);
	unlink(path);
	munmap(m, n * pg);
	return 0;
}
