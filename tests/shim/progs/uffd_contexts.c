/* uffd_contexts - register neighbouring ranges of one mapping with two
 * userfaultfds (the VMAs stay apart: their contexts differ), then two
 * more with one (they merge).  Prints the VMA counts it expects to have
 * made the kernel give, "PASS" when /proc/self/maps agrees; 77 when no
 * userfaultfd can be had. */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int uffd(void)
{
	int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	return fd >= 0 && ioctl(fd, UFFDIO_API, &api) == 0 ? fd : -1;
}

static int reg(int fd, char *a, size_t len)
{
	struct uffdio_register r = { .range = { (unsigned long)a, len }, .mode = UFFDIO_REGISTER_MODE_MISSING };
	return ioctl(fd, UFFDIO_REGISTER, &r);
}

/* VMAs of /proc/self/maps inside [a, a + len) */
static int vmas(char *a, size_t len)
{
	char line[512];
	unsigned long s, e;
	int n = 0;
	FILE *m = fopen("/proc/self/maps", "r");
	while (m && fgets(line, sizeof line, m))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && s >= (unsigned long)a && e <= (unsigned long)a + len)
			n++;
	if (m)
		fclose(m);
	return n;
}

int main(void)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	int u1 = uffd(), u2 = uffd();
	if (u1 < 0 || u2 < 0) {
		printf("no userfaultfd here\n");
		return 77;
	}
	char *a = mmap(NULL, 8 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED || reg(u1, a, 2 * pg) || reg(u2, a + 2 * pg, 2 * pg) ||
	    reg(u1, a + 4 * pg, 2 * pg) || reg(u1, a + 6 * pg, 2 * pg))
		return 1;
	int n = vmas(a, 8 * pg);
	printf(n == 3 ? "PASS\n" : "FAIL: %d VMAs, not 3\n", n);
	return n != 3;
}
