/* vma_runner - the real-kernel side of the simulator's differential test.
 * Opens the files named on the command line (fds 3, 4, 5), picks a free
 * window, then executes the operations it reads on stdin (struct
 * sim_gen_op, addresses relative to the window) one by one.  After start
 * and after every operation it writes its result and /proc/self/smaps to
 * stdout.  It never allocates, so the only VMA changes are the operations'. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "replay/sim/gen.h"

#define WINDOW (256ull << 20)

static char smaps[4 << 20];
static sigjmp_buf fault_jmp;

static void put(const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t k = write(1, c, n);
		if (k <= 0)
			_exit(3);
		c += k;
		n -= (size_t)k;
	}
}

static int get(void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t k = read(0, c, n);
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static void report(int64_t ret, int32_t err)
{
	int fd = open("/proc/self/smaps", O_RDONLY);
	uint32_t len = 0;
	ssize_t k;

	while (fd >= 0 && len < sizeof smaps && (k = read(fd, smaps + len, sizeof smaps - len)) > 0)
		len += (uint32_t)k;
	if (fd >= 0)
		close(fd);
	put(&ret, sizeof ret);
	put(&err, sizeof err);
	put(&len, sizeof len);
	put(smaps, len);
}

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

/* write one byte per page; -1 if that faults */
static int touch(uint64_t start, uint64_t len)
{
	volatile uint64_t x = start;

	if (sigsetjmp(fault_jmp, 1))
		return -1;
	for (; x < start + len; x += 4096)
		*(volatile char *)x = 1;
	return 0;
}

static long nr_of(int sys)
{
	switch (sys) {
	case VMT_SYS_MMAP: return SYS_mmap;
	case VMT_SYS_MUNMAP: return SYS_munmap;
	case VMT_SYS_MREMAP: return SYS_mremap;
	case VMT_SYS_MPROTECT: return SYS_mprotect;
	case VMT_SYS_MADVISE: return SYS_madvise;
	case VMT_SYS_MLOCK: return SYS_mlock;
	case VMT_SYS_MLOCK2: return SYS_mlock2;
	case VMT_SYS_MUNLOCK: return SYS_munlock;
	case VMT_SYS_MSEAL: return 462;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	struct sim_gen_op op;
	uint64_t w, cur_brk, hdr[2];
	void *p;

	for (int i = 1; i < argc; i++)
		if (open(argv[i], O_RDWR) != 2 + i)
			return 2;
	p = mmap(NULL, WINDOW, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED || munmap(p, WINDOW))
		return 2;
	w = (uint64_t)p;
	cur_brk = (uint64_t)syscall(SYS_brk, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	hdr[0] = w;
	hdr[1] = cur_brk;
	put(hdr, sizeof hdr);
	report(0, 0);
	while (get(&op, sizeof op) == 0) {
		uint64_t a[6];
		int64_t ret = 0;
		int32_t err = 0;

		for (int i = 0; i < 6; i++)
			a[i] = op.args[i] + ((op.rel >> i) & 1 ? w : 0);
		if (op.file)
			a[4] = 2 + op.file;
		if (op.sys == SIM_GEN_TOUCH) {
			if (touch(a[0], a[1]))
				ret = -1, err = EFAULT;
		} else if (op.sys == SIM_GEN_FORK) {
			pid_t pid = fork();
			int st;
			if (pid > 0) {
				while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
					;
				_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 4);
			}
			if (pid < 0)
				ret = -1, err = errno;
		} else if (op.sys == VMT_SYS_BRK) {
			uint64_t want = op.args[1] ? cur_brk - a[0] : cur_brk + a[0];
			ret = syscall(SYS_brk, want);
			cur_brk = (uint64_t)ret;
		} else {
			ret = syscall(nr_of(op.sys), a[0], a[1], a[2], a[3], a[4], a[5]);
			if (ret == -1)
				err = errno;
		}
		report(ret, err);
	}
	return 0;
}
