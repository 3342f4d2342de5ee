/* empty_ranges.c - ranges of this process known to hold no page.
 *
 * A range MADV_DONTNEED emptied holds no page until something makes one
 * present again: a page fault, which the kernel counts per process
 * (getrusage's minflt + majflt, including the faults by which mlock,
 * MAP_POPULATE and MADV_POPULATE_* fill pages in), or a call the recorder
 * sees moving pages in (mremap: its ranges are forgotten).  So while the
 * process's fault count is still what it was just before the DONTNEED, the
 * answer for that range is "no page" without a page-table scan.  A thread
 * churn is the case: glibc releases the same cached stack at every thread
 * end, with no fault in between, and the scan was most of a thread's cost.
 *
 * Pages can also become present without a fault of this process, so the
 * table is not trusted where that can happen: khugepaged filling a huge
 * page around one touched page (THP "always", or a range given
 * MADV_HUGEPAGE or MADV_COLLAPSE), userfaultfd's ioctls, a process sharing
 * this memory outside the thread group (clone with CLONE_VM; a vfork
 * child forgets every range).  What it cannot see is another process or a
 * kernel thread writing this memory (ptrace, process_vm_writev, vhost):
 * those would make a released range's pages resident unrecorded.
 *
 * A range is remembered at its first release and trusted from its second
 * (the first one has no count to compare with): a one-off release costs
 * nothing more than the scan it always had.  Only mapped ranges are kept
 * (munmap forgets), so a mapping the kernel places - in free space - never
 * meets one; mremap's destination and SysV attachments are forgotten
 * before the call.
 *
 * The lock is only ever tried (a signal handler's hook may run while its
 * thread holds it): a lookup or note that cannot take it does without, a
 * forget that cannot leaves `stale` set, and the holder clears every
 * range before it lets go. */
#include "empty_ranges.h"
#include "raw.h"
#include "trylock.h"

#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define RANGES 16
#define NO_COUNT UINT64_MAX    /* released once: not trusted yet */

static struct { uint64_t lo, hi, faults; } set[RANGES];
static unsigned next_slot;
static int distrusted;
static int lock, stale;
static int noted;   /* ever a range: until then a forget has nothing to do */
/* The last fault count read, by any thread (0: none yet).  Any count read
 * before a range became empty serves as that range's: the same count
 * later means no fault since the reading, so none since the range was
 * empty either. */
static uint64_t last_faults;
/* Fresh mappings whose release found a fault since (malloc's blocks with
 * their header written): after a few in a row, the fault count is not
 * asked at their release for a while (a question that would only come
 * before the scan), then tried again. */
static int fresh_misses, fresh_pause;

static int take(void) { return trylock_take(&lock); }

static void give(void)
{
	if (__atomic_exchange_n(&stale, 0, __ATOMIC_ACQ_REL))
		memset(set, 0, sizeof(set));
	trylock_give(&lock);
}

/* The process's page faults so far, never 0 (0 means "not read"). */
static uint64_t process_faults(void)
{
	struct rusage ru;
	if (raw_failed(raw2_exempt(SYS_getrusage, RUSAGE_SELF, &ru)))
		return 0;
	uint64_t n = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt + 1;
	__atomic_store_n(&last_faults, n, __ATOMIC_RELEASE);
	return n;
}

void empty_init(void)
{
	char buf[64] = "";
	long fd = raw4(SYS_openat, AT_FDCWD, "/sys/kernel/mm/transparent_hugepage/enabled",
	               O_RDONLY | O_CLOEXEC, 0);
	if (!raw_failed(fd)) {
		long n = raw3(SYS_read, fd, buf, sizeof(buf) - 1);
		buf[raw_failed(n) ? 0 : n] = 0;
		raw1(SYS_close, fd);
	}
	/* no file: a kernel without THP, where nothing collapses */
	if (strstr(buf, "[always]"))
		empty_distrust();
}

static int find(uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < RANGES; i++)
		if (set[i].hi && set[i].lo <= lo && hi <= set[i].hi)
			return i;
	return -1;
}

__attribute__((hot)) enum empty_answer empty_lookup(uint64_t lo, uint64_t hi, uint64_t *faults)
{
	*faults = 0;
	if (__atomic_load_n(&distrusted, __ATOMIC_RELAXED) || !take())
		return EMPTY_UNKNOWN;
	int i = __atomic_load_n(&stale, __ATOMIC_ACQUIRE) ? -1 : find(lo, hi);
	uint64_t then = i >= 0 ? set[i].faults : 0;
	give();
	if (i < 0)
		return EMPTY_UNKNOWN;
	*faults = process_faults();
	return *faults && then == *faults ? EMPTY_NONE : EMPTY_ASK;
}

uint64_t empty_fresh_count(void)
{
	if (__atomic_load_n(&distrusted, __ATOMIC_RELAXED))
		return 0;
	if (fresh_pause > 0) {
		fresh_pause--;     /* racy between threads: only a heuristic */
		return 0;
	}
	uint64_t n = __atomic_load_n(&last_faults, __ATOMIC_ACQUIRE);
	return n ? n : process_faults();   /* the first: every release reads one after */
}

__attribute__((hot)) enum empty_answer empty_lookup_fresh(uint64_t lo, uint64_t hi, uint64_t *faults)
{
	enum empty_answer a = empty_lookup(lo, hi, faults);
	if (a == EMPTY_ASK && ++fresh_misses >= 4) {
		fresh_misses = 0;
		fresh_pause = 256;
	} else if (a == EMPTY_NONE) {
		fresh_misses = 0;
	}
	return a;
}

static void forget_locked(uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < RANGES; i++)
		if (set[i].hi && set[i].lo < hi && lo < set[i].hi)
			set[i].hi = 0;
}

void empty_note(uint64_t lo, uint64_t hi, uint64_t faults)
{
	if (__atomic_load_n(&distrusted, __ATOMIC_RELAXED) || lo >= hi || !take())
		return;
	int i = find(lo, hi);
	if (i < 0 || set[i].lo != lo || set[i].hi != hi) {
		forget_locked(lo, hi);
		i = (int)(next_slot++ % RANGES);
	}
	set[i].lo = lo;
	set[i].hi = hi;
	set[i].faults = faults ? faults : NO_COUNT;
	__atomic_store_n(&noted, 1, __ATOMIC_RELEASE);
	give();
}

__attribute__((hot)) void empty_forget(uint64_t lo, uint64_t hi)
{
	if (!__atomic_load_n(&noted, __ATOMIC_ACQUIRE))
		return;   /* every munmap and shrinking brk comes here */
	if (!take()) {
		__atomic_store_n(&stale, 1, __ATOMIC_RELEASE);
		return;
	}
	forget_locked(lo, hi);
	give();
}

void empty_forget_all(void)
{
	__atomic_store_n(&stale, 1, __ATOMIC_RELEASE);
	if (take())
		give();
}

void empty_distrust(void)
{
	__atomic_store_n(&distrusted, 1, __ATOMIC_RELAXED);
	empty_forget_all();
}

void empty_passing_call(long nr)
{
	if (nr == SYS_userfaultfd)
		empty_distrust();
}

void empty_after_fork(void)
{
	lock = stale = noted = 0;   /* a thread that held it is not in the child */
	last_faults = 0;            /* the parent's count */
	fresh_misses = fresh_pause = 0;
	memset(set, 0, sizeof(set));
}
