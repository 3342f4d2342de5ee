/* residency.c - which pages of a range are mapped, just before a call that
 * removes or changes them, packed into a bitmap in recorder memory.  Ranges
 * with no such page write nothing: absence of a record means "nothing
 * resident".
 *
 * The question is asked with PAGEMAP_SCAN (Linux 6.7+) where it works: it
 * walks only the page tables that exist and answers in ranges, where
 * mincore fills one byte per page slot; on the 8 MiB stack glibc releases
 * at every thread exit that is 1.6 us against 5.3 us here.  It reports
 * pages mapped in this process (present or swapped out), which is what a
 * replay faults in; mincore, the fallback, reports page-cache residency
 * for file pages that may not be mapped. */
#include "residency.h"
#include "arena.h"
#include "highfd.h"
#include "maps.h"
#include "pagemap_scan.h"
#include "raw.h"
#include "record.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#define VEC 4096UL

#define PM_REGIONS 32

/* The fd of /proc/self/pagemap for process pm_pid; PM_UNTRIED before the
 * first question, PM_NONE once the kernel or the fd has said no. */
enum { PM_NONE = -2, PM_UNTRIED = -1 };
static _Atomic int pm_fd = PM_UNTRIED;
static int32_t pm_pid;

__attribute__((hot)) static int pagemap(void)
{
	/* a vfork child shares its parent's statics: it must not replace them */
	if (shim_vfork_child)
		return -1;
	int fd = atomic_load_explicit(&pm_fd, memory_order_acquire);
	if (fd >= 0 && pm_pid == shim.pid)
		return fd;
	if (fd == PM_NONE)
		return -1;
	/* first use, or a fork child holding its parent's (which would answer
	 * for the parent's memory) */
	long nfd = shim_move_high(raw4(SYS_openat, AT_FDCWD, "/proc/self/pagemap", O_RDONLY | O_CLOEXEC, 0));
	if (raw_failed(nfd)) {
		atomic_store(&pm_fd, PM_NONE);
		return -1;
	}
	if (atomic_compare_exchange_strong(&pm_fd, &fd, (int)nfd)) {
		if (fd >= 0)
			raw1(SYS_close, fd);
		pm_pid = shim.pid;
		return (int)nfd;
	}
	raw1(SYS_close, nfd);    /* another thread opened it first */
	fd = atomic_load(&pm_fd);
	return fd >= 0 ? fd : -1;
}

/* The answer is kept as runs (PAGEMAP_SCAN answers in ranges, and the
 * trace stores runs) while there are few of them, else as a bitmap in the
 * arena: a released 128 MiB block with one page resident is one run, not
 * a 4 KiB bitmap to clear, fill and encode. */
#define RUNS 64

struct answer {
	uint64_t npages, resident;
	uint8_t *bits;            /* NULL while the runs hold it */
	uint32_t nruns;
	struct vmt_run runs[RUNS];
};

static int set_bits(struct answer *a, uint64_t first, uint64_t count)
{
	if (!a->bits) {
		if (!(a->bits = arena_alloc((a->npages + 7) / 8)))
			return -1;
		for (uint32_t i = 0; i < a->nruns; i++)
			for (uint64_t pg = a->runs[i].first; pg < a->runs[i].first + a->runs[i].count; pg++)
				a->bits[pg / 8] |= (uint8_t)(1u << (pg % 8));
	}
	for (uint64_t pg = first; pg < first + count; pg++)
		a->bits[pg / 8] |= (uint8_t)(1u << (pg % 8));
	return 0;
}

/* Pages [first, first + count) are resident. */
static int add_run(struct answer *a, uint64_t first, uint64_t count)
{
	a->resident += count;
	if (a->bits)
		return set_bits(a, first, count);
	if (a->nruns && a->runs[a->nruns - 1].first + a->runs[a->nruns - 1].count == first) {
		a->runs[a->nruns - 1].count += count;
		return 0;
	}
	if (a->nruns < RUNS) {
		a->runs[a->nruns++] = (struct vmt_run){ first, count };
		return 0;
	}
	return set_bits(a, first, count);
}

/* The mapped pages of [start, start + a->npages pages) into a, asked of
 * the pagemap fd: 0, or -1 when PAGEMAP_SCAN cannot answer. */
static int scan_fd(int fd, uint64_t start, struct answer *a)
{
	struct pm_region r[PM_REGIONS];
	struct pm_scan_arg q = {
		.size = sizeof(q), .start = start, .end = start + a->npages * SHIM_PAGE,
		.vec = (uint64_t)(uintptr_t)r, .vec_len = PM_REGIONS,
		.category_anyof_mask = PM_PRESENT | PM_SWAPPED, .return_mask = PM_PRESENT | PM_SWAPPED,
	};
	for (;;) {
		long got = raw3_exempt(SYS_ioctl, fd, PM_SCAN, &q);
		if (raw_failed(got)) {
			if (a->bits)
				memset(a->bits, 0, (a->npages + 7) / 8);
			a->nruns = 0;
			a->resident = 0;
			return -1;
		}
		for (long i = 0; i < got; i++)
			if (add_run(a, (r[i].start - start) / SHIM_PAGE, (r[i].end - r[i].start) / SHIM_PAGE)) {
				a->resident = 0;   /* no memory for the bitmap: no record */
				return 0;
			}
		if (got < PM_REGIONS || q.walk_end >= q.end)
			return 0;
		q.start = q.walk_end;
	}
}

/* The same of this process: -1 also when residency is asked with mincore
 * (the caller uses it). */
__attribute__((hot)) static int scan_mapped(uint64_t start, struct answer *a)
{
	int fd = shim.residency == RESIDENCY_MAPPED ? pagemap() : -1;
	if (fd < 0)
		return -1;
	if (scan_fd(fd, start, a) < 0) {
		atomic_store(&pm_fd, PM_NONE);   /* an old kernel, or the program closed it */
		return -1;
	}
	return 0;
}

/* mincore fails for a whole range with a hole in it: halve until the
 * mapped parts answer (holes are rare; unmapped pages are not resident). */
static void mincore_holes(uint64_t start, uint64_t n, unsigned char *vec)
{
	if (!raw_failed(raw3(SYS_mincore, start, n * SHIM_PAGE, vec)))
		return;
	if (n == 1) {
		vec[0] = 0;
		return;
	}
	mincore_holes(start, n / 2, vec);
	mincore_holes(start + n / 2 * SHIM_PAGE, n - n / 2, vec + n / 2);
}

/* Whether any page in vec[0..n) is resident, a word at a time: most
 * ranges (released thread stacks, guard pages) have none, and a byte loop
 * over 2048 pages showed up next to the mincore itself. */
static int any_resident(const unsigned char *vec, uint64_t n)
{
	uint64_t acc = 0, i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, vec + i, 8);
		acc |= w;
	}
	for (; i < n; i++)
		acc |= vec[i];
	return (acc & 0x0101010101010101ULL) != 0;
}

/* The same with mincore, where PAGEMAP_SCAN cannot answer (before 6.7):
 * -1 when the bitmap found no memory.  Its 4 KiB vector is in a frame of
 * its own: the recorder runs on the program's stacks, down to a signal
 * handler's on a PTHREAD_STACK_MIN thread (tests/shim/parked-signal.t). */
static __attribute__((noinline)) int scan_mincore(uint64_t start, struct answer *a)
{
	unsigned char vec[VEC];
	for (uint64_t done = 0; done < a->npages; ) {
		uint64_t n = a->npages - done < VEC ? a->npages - done : VEC;
		mincore_holes(start + done * SHIM_PAGE, n, vec);
		if (any_resident(vec, n))
			for (uint64_t i = 0; i < n; i++)
				if ((vec[i] & 1) && add_run(a, done + i, 1))
					return -1;
		done += n;
	}
	return 0;
}

/* An empty answer for len bytes (RESIDENCY_MAX_PAGES at most). */
static void answer_start(struct answer *a, uint64_t len)
{
	a->npages = (len + SHIM_PAGE - 1) / SHIM_PAGE;
	if (a->npages > RESIDENCY_MAX_PAGES)
		a->npages = RESIDENCY_MAX_PAGES;
	a->resident = 0;
	a->bits = NULL;
	a->nruns = 0;
}

/* pid's RESIDENCY record of the answer, where a page is resident; its
 * bitmap goes back to the arena. */
static void answer_end(struct answer *a, uint64_t seq, int32_t pid, uint64_t start)
{
	if (a->resident) {
		struct vmt_record rec = { .type = VMT_REC_RESIDENCY };
		rec.u.residency = (struct vmt_residency){
			.seq = seq, .pid = pid, .start = start, .npages = a->npages,
			.bits = a->bits, .nruns = a->bits ? 0 : a->nruns, .runs = a->bits ? NULL : a->runs,
		};
		shim_write(&rec);
	}
	if (a->bits)
		arena_free(a->bits, (a->npages + 7) / 8);
}

__attribute__((hot)) void residency_range(uint64_t seq, uint64_t start, uint64_t len)
{
	struct answer a;

	if (!shim.residency || shim_self.depth > 1 || len == 0 || (start & ~SHIM_PAGE_MASK))
		return;
	answer_start(&a, len);
	if (scan_mapped(start, &a) < 0 && scan_mincore(start, &a) < 0)
		a.resident = 0;   /* no memory for the bitmap: no record */
	answer_end(&a, seq, shim.pid, start);
}

/* The first mapped page of [lo, hi), as a record of that one page: a page
 * the replay faults in so the VMA has an anon_vma, as the original's had
 * (neighbours.c).  PAGEMAP_SCAN only: it stops at the first page. */
void residency_first(uint64_t seq, uint64_t lo, uint64_t hi)
{
	struct pm_region r;
	int fd = shim.residency == RESIDENCY_MAPPED ? pagemap() : -1;
	if (fd < 0 || shim_self.depth > 1 || lo >= hi || ((lo | hi) & ~SHIM_PAGE_MASK))
		return;
	struct pm_scan_arg q = {
		.size = sizeof(q), .start = lo, .end = hi, .vec = (uint64_t)(uintptr_t)&r, .vec_len = 1,
		.max_pages = 1, .category_anyof_mask = PM_PRESENT | PM_SWAPPED,
		.return_mask = PM_PRESENT | PM_SWAPPED,
	};
	if (raw3_exempt(SYS_ioctl, fd, PM_SCAN, &q) != 1)
		return;
	static const struct vmt_run one = { 0, 1 };
	struct vmt_record rec = { .type = VMT_REC_RESIDENCY };
	rec.u.residency = (struct vmt_residency){ .seq = seq, .pid = shim.pid, .start = r.start,
	                                          .npages = 1, .nruns = 1, .runs = &one };
	shim_write(&rec);
}

struct fork_scan { uint64_t seq, budget; };

static int scan_vma(const struct maps_line *l, void *arg)
{
	struct fork_scan *f = arg;
	uint64_t pages = (l->end - l->start) / SHIM_PAGE;
	if (l->perms[1] != 'w' || l->perms[3] != 'p' || maps_is_recorder(l))
		return 0;
	if (pages > f->budget)
		pages = f->budget;
	residency_range(f->seq, l->start, pages * SHIM_PAGE);
	f->budget -= pages;
	return f->budget == 0;
}

void residency_fork(uint64_t seq)
{
	struct fork_scan f = { seq, RESIDENCY_FORK_PAGES };
	maps_each(scan_vma, &f);
}

/* Another process's mapped pages of [start, start + len): a record with
 * its pid, from its /proc/PID/pagemap (process_madvise through a pidfd
 * of it; the replay faults them in in that process's replay, before the
 * call).  PAGEMAP_SCAN only; none when it cannot be asked. */
void residency_of(uint64_t seq, int32_t pid, uint64_t start, uint64_t len)
{
	char path[32] = "/proc/", num[12];
	struct answer a;
	int i = sizeof num;
	uint32_t v = (uint32_t)pid;
	if (shim.residency != RESIDENCY_MAPPED || shim_self.depth > 1 || pid <= 0 || len == 0 ||
	    (start & ~SHIM_PAGE_MASK))
		return;
	num[--i] = 0;
	do num[--i] = (char)('0' + v % 10); while ((v /= 10) && i > 0);
	strcat(strcat(path, num + i), "/pagemap");
	long fd = raw4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	if (raw_failed(fd))
		return;
	answer_start(&a, len);
	if (scan_fd((int)fd, start, &a) < 0)
		a.resident = 0;
	answer_end(&a, seq, pid, start);
	raw1(SYS_close, fd);
}
