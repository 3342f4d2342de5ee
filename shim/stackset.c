/* stackset.c - a small fixed set of ranges under a lock: taken once per
 * thread stack glibc maps or unmaps, and once per thread end.  glibc keeps
 * at most 40 MiB of stacks cached, so the set stays small; when it
 * overflows, answers become "unknown" and threads keep the old path.  The
 * lock is only tried for a while (a signal handler's munmap may run while
 * its own thread holds it): a change that cannot take it leaves the set
 * unknown too. */
#include "stackset.h"
#include "trylock.h"

#define STACKS 512

static struct { uint64_t lo, hi; } stacks[STACKS];
static int nstacks, overflowed;
static int lock;

static int take(void)
{
	if (trylock_take(&lock))
		return 1;
	__atomic_store_n(&overflowed, 1, __ATOMIC_RELAXED);
	return 0;
}

static void give(void) { trylock_give(&lock); }

void stackset_add(uint64_t lo, uint64_t hi)
{
	if (!take())
		return;
	if (nstacks < STACKS) {
		stacks[nstacks].lo = lo;
		stacks[nstacks].hi = hi;
		nstacks++;
	} else {
		overflowed = 1;
	}
	give();
}

void stackset_remove(uint64_t lo, uint64_t hi)
{
	if (!__atomic_load_n(&nstacks, __ATOMIC_RELAXED))
		return;   /* every munmap comes here; most programs have no threads */
	if (!take())
		return;
	for (int i = 0; i < nstacks; )
		if (stacks[i].lo < hi && stacks[i].hi > lo)
			stacks[i] = stacks[--nstacks];
		else
			i++;
	give();
}

int stackset_holds(uint64_t addr)
{
	if (!take())
		return -1;
	int found = overflowed ? -1 : 0;
	for (int i = 0; i < nstacks; i++)
		if (addr >= stacks[i].lo && addr < stacks[i].hi) {
			found = 1;
			break;
		}
	give();
	return found;
}

void stackset_after_fork(void)
{
	lock = 0;   /* a thread that held it is not in the child */
}
