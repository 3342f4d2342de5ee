/* newer_rules - one case of each VMA rule that 6.13 to 6.18 brought and
 * the simulator's host profile must follow (docs/kernel-profiles.md), in
 * a reservation of its own; tests/replay/newer-rules.t records it and
 * compares the kernel's replay with the simulator's, event by event.
 * Each case leaves nothing mapped.  Exit status 0 whatever the calls
 * answer: their results are what is compared. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

static long pg;

static char *fixed(char *at, long pages, int prot)
{
	return mmap(at, pages * pg, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
}

/* X5: one mremap(MREMAP_FIXED) moving three VMAs and the gap between
 * two of them; then one whose range starts in a gap */
static void multi_vma_move(char *r)
{
	fixed(r, 4, PROT_READ | PROT_WRITE);
	fixed(r + 6 * pg, 2, PROT_READ);
	fixed(r + 8 * pg, 3, PROT_READ | PROT_WRITE);
	r[8 * pg] = 1;
	mremap(r + pg, 12 * pg, 12 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 64 * pg);
	mremap(r + 62 * pg, 6 * pg, 6 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 128 * pg);
	munmap(r, 256 * pg);
}

/* X3: populating over guard markers fails with EFAULT, also after
 * MADV_DONTNEED and a move; without them it works */
static void populate_guarded(char *r)
{
	fixed(r, 10, PROT_READ | PROT_WRITE);
	madvise(r + 4 * pg, 2 * pg, MADV_GUARD_INSTALL);
	madvise(r, 10 * pg, MADV_POPULATE_READ);
	madvise(r, 10 * pg, MADV_POPULATE_WRITE);
	madvise(r, 10 * pg, MADV_DONTNEED);
	madvise(r + 4 * pg, pg, MADV_POPULATE_WRITE);
	mremap(r, 10 * pg, 10 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 64 * pg);
	madvise(r + 64 * pg, 10 * pg, MADV_POPULATE_WRITE);
	madvise(r + 64 * pg, 10 * pg, MADV_GUARD_REMOVE);
	madvise(r + 64 * pg, 10 * pg, MADV_POPULATE_WRITE);
	munmap(r, 256 * pg);
}

/* X3: MADV_COLLAPSE of a 2 MiB block holding a guard marker fails with
 * EINVAL, as it does on a VM_NOHUGEPAGE VMA (r is 2 MiB-aligned) */
static void collapse_guarded(char *r)
{
	long n = (2 << 20) / pg;

	fixed(r, n, PROT_READ | PROT_WRITE);
	madvise(r, n * pg, MADV_HUGEPAGE);
	madvise(r + 8 * pg, pg, MADV_GUARD_INSTALL);
	madvise(r, n * pg, MADV_COLLAPSE);
	madvise(r, n * pg, MADV_NOHUGEPAGE);
	madvise(r, n * pg, MADV_COLLAPSE);
	munmap(r, n * pg);
}

/* M5: in a fork child, a faulted VMA moved back with MREMAP_DONTUNMAP
 * next to an unfaulted one stays apart from it (merge.c's
 * merge_with_fork mremap_faulted_to_unfaulted_prev) */
static void copied_fork_child(char *r)
{
	pid_t pid;

	fixed(r + 4 * pg, 3, PROT_READ | PROT_WRITE);
	r[4 * pg] = 1;
	pid = fork();
	if (pid == 0) {
		mremap(r + 4 * pg, 3 * pg, 3 * pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 20 * pg);
		fixed(r + pg, 3, PROT_READ | PROT_WRITE);
		mremap(r + 20 * pg, 3 * pg, 3 * pg, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, r + 4 * pg);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	munmap(r, 256 * pg);
}

int main(void)
{
	char *r;

	pg = sysconf(_SC_PAGESIZE);
	r = mmap(NULL, 8 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return perror("mmap"), 1;
	munmap(r, 8 << 20);   /* a free range of our own: the cases map into it */
	r = (char *)(((uintptr_t)r + (2 << 20) - 1) & ~(uintptr_t)((2 << 20) - 1));
	multi_vma_move(r);
	populate_guarded(r);
	collapse_guarded(r);
	copied_fork_child(r);
	return 0;
}
