/* uffd_monitor_calls - a userfaultfd monitor's calls, each right after a
 * sched_yield that marks it: UFFDIO_REGISTER, UFFDIO_UNREGISTER, twice.
 * Prints the range it registered; 77 when no userfaultfd can be had. */
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	struct uffdio_api api = { .api = UFFD_API };
	if (fd < 0 || ioctl(fd, UFFDIO_API, &api))
		return 77;
	size_t len = 16 * 4096;
	char *a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return 1;
	for (int i = 0; i < 2; i++) {
		struct uffdio_register reg = { .range = { (unsigned long)a, len },
		                               .mode = UFFDIO_REGISTER_MODE_MISSING };
		sched_yield();
		if (ioctl(fd, UFFDIO_REGISTER, &reg))
			return 1;
		struct uffdio_range r = { (unsigned long)a, len };
		sched_yield();
		if (ioctl(fd, UFFDIO_UNREGISTER, &r))
			return 1;
	}
	printf("start=%p, len=0x%zx\n", (void *)a, len);
	return 0;
}
