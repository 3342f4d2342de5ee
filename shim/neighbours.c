/* neighbours.c - see neighbours.h.
 *
 * The kernel merges a new anonymous mapping with the VMA before it and the
 * one after it only when their anon_vmas allow (is_mergeable_anon_vma):
 * two neighbours that each got their own anon_vma by a write fault, while
 * a hole lay between them, keep a boundary when a mapping fills the hole;
 * it merges with one of them.  A replay faults in only the pages the
 * trace names, so its neighbours have no anon_vma and it merges all three:
 * one VMA fewer (gcc's cc1: a small mmap filling the gap that THP
 * alignment left above a 2 MiB block).  Where that happened, the recorder
 * names one mapped page of each neighbour in a RESIDENCY record before the
 * call, and the replay faults them in first, as the original had.
 *
 * Asking the kernel about the VMAs around every mmap costs a system call
 * (PROCMAP_QUERY, ~2.8 us here, a third of an mmap/munmap pair), so a
 * table of the ranges the thread mapped lately (adjacent ones joined)
 * says first whether the new range lies between two of them; only then
 * is the kernel asked, and its answer decides.  Holes that other threads'
 * ranges bound are common (four threads mapping 4 KiB each: a third of
 * their mmaps, 64 KiB: one in ten), and a question there would cost
 * threaded loops 5-8%, so a filter of where any thread's mappings begin
 * and end is asked about them only in a process that has forked while
 * threaded (forkgate.h): there a boundary that lasts a moment reaches a
 * child's first checkpoint; elsewhere a replay sees it only if it lasts to
 * the exit.  Missed: a hole between VMAs neither holds (the initial map,
 * the heap, a range pushed out by RECENT newer ones apart from it or
 * whose filter slot another range took), another thread's before the
 * process first forked threaded or in one that never does, a neighbour
 * another thread changed between the call and the question (the answer
 * describes the later world), and kernels without PROCMAP_QUERY (before
 * 6.11).  The table is the thread's, one of TABLES picked by
 * its tid (no lock, and threads mapping at once rarely share a line; not
 * TLS, which must not grow: record.h), and a filter only: a change it
 * misses (another thread's munmap, a thread of the same pick, a signal
 * handler's call halfway through an update) costs a question or a miss,
 * never a wrong record. */
#include "neighbours.h"
#include "forkgate.h"
#include "highfd.h"
#include "raw.h"
#include "record.h"
#include "residency.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#define RECENT 32
#define TABLES 16
#define MARKS 1024              /* slots of each boundary filter (a power of 2) */
/* PROCMAP_QUERY's vma_flags, whose protection bits are PROT_*'s */
#define PQ_RWX 7u                       /* readable, writable, executable */
#define PQ_SHARED 8u

/* Mapped ranges the thread made, adjacent ones joined (a run of mappings
 * stacked one below the other is one range, so the table holds far more
 * than RECENT mappings); empty: lo == hi. */
struct table {
	struct { uint64_t lo, hi; } r[RECENT];
	unsigned next_slot;
	unsigned top;               /* slots from top on were never used */
} __attribute__((aligned(64)));
static struct table tables[TABLES];

/* Where any thread's anonymous private mappings begin and end, for the
 * hole that other threads' ranges bound (the table above holds the
 * thread's own): a slot per hash of the address, holding the address with
 * the mapping's protection in its low bits (a neighbour of another
 * protection cannot merge: no question for it, as for the PROT_NONE
 * mapping of a thread's stack), or another that shares the slot (lossy,
 * and racy by design: a filter, as the tables are).  A question costs
 * ~3 us, a look here two loads. */
static uint64_t mark_lo[MARKS], mark_hi[MARKS];

static unsigned mark_slot(uint64_t addr)
{
	return (unsigned)(((addr >> 12) * 0x9e3779b97f4a7c15ull) >> 54) & (MARKS - 1);
}

static void mark(uint64_t lo, uint64_t hi, uint32_t rwx)
{
	__atomic_store_n(&mark_lo[mark_slot(lo)], lo | rwx, __ATOMIC_RELAXED);
	__atomic_store_n(&mark_hi[mark_slot(hi)], hi | rwx, __ATOMIC_RELAXED);
}

static void unmark_one(uint64_t *slots, uint64_t addr)
{
	uint64_t *m = &slots[mark_slot(addr)];
	if ((__atomic_load_n(m, __ATOMIC_RELAXED) & ~(uint64_t)PQ_RWX) == addr)
		__atomic_store_n(m, 0, __ATOMIC_RELAXED);
}

/* Some thread's range of protection rwx ends at lo and another's begins
 * at hi. */
static int marked_around(uint64_t lo, uint64_t hi, uint32_t rwx)
{
	return __atomic_load_n(&mark_hi[mark_slot(lo)], __ATOMIC_RELAXED) == (lo | rwx) &&
	       __atomic_load_n(&mark_lo[mark_slot(hi)], __ATOMIC_RELAXED) == (hi | rwx);
}

/* The calling thread's table. */
static struct table *mine(void)
{
	return &tables[(uint32_t)shim_self.tid % TABLES];
}

/* A slot for a new range: an empty one, else the next in turn. */
static unsigned slot(struct table *tb)
{
	for (unsigned i = 0; i < RECENT; i++)
		if (tb->r[i].lo == tb->r[i].hi) {
			if (i >= tb->top)
				tb->top = i + 1;
			return i;
		}
	unsigned i = tb->next_slot % RECENT;
	tb->next_slot = i + 1;
	return i;
}

/* Take [lo, hi) out of the table's ranges; *below and *above: the ranges
 * that end at lo and begin at hi after it, -1 none. */
static void forget(struct table *tb, uint64_t lo, uint64_t hi, int *below, int *above)
{
	*below = *above = -1;
	for (unsigned i = 0, n = tb->top < RECENT ? tb->top : RECENT; i < n; i++) {
		uint64_t a = tb->r[i].lo, b = tb->r[i].hi;
		if (a == b)
			continue;
		if (b > lo && a < hi) {
			if (a < lo && b > hi) {   /* a hole in the middle: the upper part apart */
				tb->r[i].hi = lo;
				unsigned j = slot(tb);
				tb->r[j].lo = hi;
				tb->r[j].hi = b;
				*below = (int)i;
				*above = (int)j;
				continue;
			}
			if (a < lo)
				b = lo;
			else if (b > hi)
				a = hi;
			else
				a = b = 0;
			tb->r[i].lo = a;
			tb->r[i].hi = b;
			if (a == b)
				continue;
		}
		if (b == lo)
			*below = (int)i;
		if (a == hi)
			*above = (int)i;
	}
}

/* [lo, hi) is mapped: joined with the ranges around it, or a range of
 * its own. */
static void remember(struct table *tb, uint64_t lo, uint64_t hi, int below, int above)
{
	if (below >= 0 && above >= 0) {
		tb->r[below].hi = tb->r[above].hi;
		tb->r[above].lo = tb->r[above].hi = 0;
	} else if (below >= 0) {
		tb->r[below].hi = hi;
	} else if (above >= 0) {
		tb->r[above].lo = lo;
	} else {
		unsigned i = slot(tb);
		tb->r[i].lo = lo;
		tb->r[i].hi = hi;
	}
}

/* PROCMAP_QUERY (Linux 6.11; not in Debian 12's headers: the kernel's
 * uapi layout, 104 bytes), on /proc/self/maps opened at the first
 * question (close-on-exec, moved to fd 900+) and again in a fork child. */
struct procmap_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY 0xc0686611UL      /* _IOWR('f', 17, struct procmap_query) */

enum { MAPS_NONE = -2, MAPS_UNTRIED = -1 };
static _Atomic int maps_fd = MAPS_UNTRIED;
static int32_t maps_pid;

static int maps(void)
{
	int fd = atomic_load_explicit(&maps_fd, memory_order_acquire);
	if (fd >= 0 && maps_pid == shim.pid)
		return fd;
	if (fd == MAPS_NONE)
		return -1;
	long nfd = shim_move_high(raw4(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0));
	if (raw_failed(nfd)) {
		atomic_store(&maps_fd, MAPS_NONE);
		return -1;
	}
	if (atomic_compare_exchange_strong(&maps_fd, &fd, (int)nfd)) {
		if (fd >= 0)
			raw1(SYS_close, fd);   /* the parent's, in a fork child */
		maps_pid = shim.pid;
		return (int)nfd;
	}
	raw1(SYS_close, nfd);
	fd = atomic_load(&maps_fd);
	return fd >= 0 ? fd : -1;
}

/* The VMA covering addr: 1, or 0 (none, or no answer). */
static int vma_at(int fd, uint64_t addr, struct procmap_query *q)
{
	*q = (struct procmap_query){ .size = sizeof(*q), .query_addr = addr };
	long r = raw3_exempt(SYS_ioctl, fd, PROCMAP_QUERY, q);
	if (r == -ENOTTY || r == -EINVAL)
		atomic_store(&maps_fd, MAPS_NONE);   /* a kernel before 6.11 */
	return !raw_failed(r);
}

/* Private, anonymous, the protection of the new range. */
static int like(const struct procmap_query *q, uint32_t rwx)
{
	return !(q->vma_flags & PQ_SHARED) && !q->inode && (q->vma_flags & PQ_RWX) == rwx;
}

enum { STALE_BELOW = 1, STALE_ABOVE = 2 };

/* Asks the kernel about the VMAs at and around [lo, hi) and writes the
 * neighbours' pages where it merged with one only; returns which sides
 * the kernel has nothing mapped against (STALE_*: the table's range there
 * was unmapped unseen, by another thread). */
static int ask(uint64_t seq, uint64_t lo, uint64_t hi)
{
	struct procmap_query at, below, above;
	int fd = maps();
	if (fd < 0 || !vma_at(fd, lo, &at) || (at.vma_start < lo && at.vma_end > hi))
		return 0;   /* merged with both (unwritten neighbours): one question */
	/* a side it merged with is the new range's VMA: no question for it */
	int has_below = at.vma_start < lo ? (below = at, 1) : vma_at(fd, lo - 1, &below);
	int has_above = at.vma_end > hi ? (above = at, 1) : vma_at(fd, hi, &above);
	if (!has_below || !has_above)
		return (has_below ? 0 : STALE_BELOW) | (has_above ? 0 : STALE_ABOVE);
	uint32_t rwx = (uint32_t)(at.vma_flags & PQ_RWX);
	if (!like(&at, rwx) || !like(&below, rwx) || !like(&above, rwx))
		return 0;   /* a neighbour it could not merge with */
	/* the parts that are not the new range: a page of each, if any */
	residency_first(seq, below.vma_start, lo < below.vma_end ? lo : below.vma_end);
	residency_first(seq, hi > above.vma_start ? hi : above.vma_start, above.vma_end);
	return 0;
}

__attribute__((hot)) void neighbours_mapped(uint64_t seq, uint64_t lo, uint64_t hi, int prot)
{
	uint32_t rwx = (uint32_t)prot & PQ_RWX;   /* PROT_* and PROCMAP_QUERY's bits agree */
	int below, above;
	if (shim_vfork_child)
		return;
	struct table *tb = mine();
	forget(tb, lo, hi, &below, &above);   /* a MAP_FIXED may replace ranges of the table */
	remember(tb, lo, hi, below, above);
	int others = (below < 0 || above < 0) &&
	             __atomic_load_n(&forkgate_forked_threaded, __ATOMIC_RELAXED) &&
	             marked_around(lo, hi, rwx);
	mark(lo, hi, rwx);
	if (((below < 0 || above < 0) && !others) || !shim.residency)
		return;
	int stale = ask(seq, lo, hi);
	if (stale & STALE_BELOW)   /* the ends another thread unmapped */
		unmark_one(mark_hi, lo);
	if (stale & STALE_ABOVE)
		unmark_one(mark_lo, hi);
	/* what another thread unmapped goes, so it costs one question only */
	for (unsigned i = 0; stale && i < tb->top && i < RECENT; i++)
		if (tb->r[i].lo <= lo && hi <= tb->r[i].hi) {
			if (stale & STALE_BELOW)
				tb->r[i].lo = lo;
			if (stale & STALE_ABOVE)
				tb->r[i].hi = hi;
			break;
		}
}

__attribute__((hot)) void neighbours_unmapped(uint64_t lo, uint64_t hi)
{
	int below, above;
	if (!shim_vfork_child) {
		forget(mine(), lo, hi, &below, &above);
		unmark_one(mark_lo, lo);
		unmark_one(mark_hi, hi);
	}
}

void neighbours_moved(uint64_t lo, uint64_t hi)
{
	int below, above;
	if (!shim_vfork_child) {
		struct table *tb = mine();
		forget(tb, lo, hi, &below, &above);
		remember(tb, lo, hi, below, above);
	}
}
