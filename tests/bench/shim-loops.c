/* Small syscall-bound loops, each like a will-it-scale or AIM9 case, for
 * the recorder's per-call cost.  Prints CPU nanoseconds (the machine is
 * shared: CPU time, so waiting for a core does not count) per iteration of
 * the loop alone.  Usage: shim-loops LOOP ITERATIONS [floor|dispatch|filter]
 *   brk1     brk up one page and back (will-it-scale brk1)
 *   mmap1    mmap 128 MiB anonymous, munmap it (mmap1)
 *   malloc1  malloc 128 MiB, free it (malloc1: glibc mmaps and munmaps it)
 *   sbrk     AIM9 page_test's sbrk loop without page touches: sbrk(-64 KiB),
 *            then 16 x sbrk(4 KiB)
 *   mmap4t   4 threads, each mmap 1 MiB, touch a page, munmap (mmap1's
 *            threads mode with a touch: overlapping calls, whose order the
 *            recorder must keep; ITERATIONS in all, split among them)
 * "dispatch" runs natively with Syscall User Dispatch armed, every
 * address exempt (so each system call takes the kernel's slow entry path,
 * as an armed recorded thread's do, and no selector is read: the
 * recorder's own calls come from exempt text); "floor" also asks, before
 * each call that releases memory, the PAGEMAP_SCAN question the recorder
 * asks there (docs/residency.md).  Together: what the kernel alone
 * costs of a run preloaded alone.  "filter" asks the same question under
 * the launcher's seccomp filter (shim/launch_filter.c) where a call from
 * outside the trampoline page passes instead of stopping a tracer: what
 * the kernel alone costs of a run under the vmrec launcher, where every
 * call the table records runs the filter to have its address checked. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "lib/compat.h"
#include "shim/launch_filter.h"

#include <linux/seccomp.h>

#define PAGE 4096L
#define BIG (128L << 20)

/* <linux/fs.h> of Linux 6.7 (PAGEMAP_SCAN); older headers lack it. */
struct pm_region { uint64_t start, end, categories; };
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_PRESENT_SWAPPED ((1u << 3) | (1u << 4))

static int pm_fd = -1;
static char selector;

/* The residency question, where the floor asks it. */
static void ask(void *start, long len)
{
	struct pm_region r[32];
	struct pm_scan_arg a = {
		.size = sizeof(a), .start = (uint64_t)(uintptr_t)start,
		.end = (uint64_t)(uintptr_t)start + (uint64_t)len,
		.vec = (uint64_t)(uintptr_t)r, .vec_len = 32,
		.category_anyof_mask = PM_PRESENT_SWAPPED, .return_mask = PM_PRESENT_SWAPPED,
	};
	if (pm_fd >= 0)
		ioctl(pm_fd, PM_SCAN, &a);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void brk1(long n)
{
	char *p = sbrk(0);
	for (long i = 0; i < n; i++) {
		brk(p + PAGE);
		ask(p, PAGE);
		brk(p);
	}
}

static void mmap1(long n)
{
	for (long i = 0; i < n; i++) {
		void *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ask(p, BIG);
		munmap(p, BIG);
	}
}

static void malloc1(long n)
{
	for (long i = 0; i < n; i++) {
		char *p = malloc(BIG);
		/* the chunk header sits 16 bytes into glibc's mapping */
		ask((void *)((uintptr_t)p & ~(uintptr_t)(PAGE - 1)), BIG + PAGE);
		free(p);
	}
}

static void sbrk16(long n)
{
	char *top = sbrk(0);
	sbrk(16 * PAGE);
	for (long i = 0; i < n; i++) {
		sbrk(-16 * PAGE);
		ask(top, 16 * PAGE);
		for (int j = 0; j < 16; j++)
			sbrk(PAGE);
	}
	brk(top);
}

static void *mmap_touch(void *arg)
{
	long n = (long)(intptr_t)arg;
	for (long i = 0; i < n; i++) {
		char *p = mmap(NULL, 1L << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			continue;
		p[0] = 1;
		ask(p, 1L << 20);
		munmap(p, 1L << 20);
	}
	return NULL;
}

static void mmap4t(long n)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, mmap_touch, (void *)(intptr_t)(n / 4 + 1));
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	static const struct { const char *name; void (*run)(long); } loops[] = {
		{ "brk1", brk1 }, { "mmap1", mmap1 }, { "malloc1", malloc1 }, { "sbrk", sbrk16 },
		{ "mmap4t", mmap4t },
	};
	if (argc < 3) {
		fprintf(stderr, "usage: shim-loops brk1|mmap1|malloc1|sbrk|mmap4t ITERATIONS [floor|dispatch|filter]\n");
		return 2;
	}
	long n = atol(argv[2]);
	const char *mode = argc > 3 ? argv[3] : "";
	for (size_t i = 0; i < sizeof(loops) / sizeof(loops[0]); i++) {
		if (strcmp(argv[1], loops[i].name))
			continue;
		if (!strcmp(mode, "floor") || !strcmp(mode, "filter"))
			pm_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
		int r;
		if (!strcmp(mode, "filter") &&
		    (r = launch_filter_install(LAUNCH_TRAMPOLINE, SECCOMP_RET_ALLOW)) < 0) {
			fprintf(stderr, "shim-loops: the launcher's filter: %s\n", strerror(-r));
			return 1;
		}
		if ((!strcmp(mode, "floor") || !strcmp(mode, "dispatch")) &&
		    prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0UL, ~0UL, &selector)) {
			perror("shim-loops: PR_SET_SYSCALL_USER_DISPATCH");
			return 1;
		}
		loops[i].run(n / 10 + 1);   /* warm: malloc's first mmap, the TLB */
		double t0 = now();
		loops[i].run(n);
		printf("%.1f\n", (now() - t0) / (double)n);
		return 0;
	}
	fprintf(stderr, "shim-loops: no loop %s\n", argv[1]);
	return 2;
}
