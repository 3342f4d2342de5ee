/* hooks_mem.c - replacements for libc's VMA system call wrappers.  Each
 * behaves exactly like the wrapper it replaces (same argument checks done
 * in user space, same result and errno), and records the call. */
#include "hooks.h"
#include "empty_ranges.h"
#include "image.h"
#include "maps.h"
#include "neighbours.h"
#include "patch.h"
#include "raw.h"
#include "residency.h"
#include "stacks.h"
#include "stackset.h"
#include "sud.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>

static void **curbrk;     /* libc's __curbrk: sbrk trusts it */

void hooks_init(void)
{
	curbrk = patch_libc_symbol("__curbrk");
}

long shim_errno_ret(long r)
{
	if (raw_failed(r)) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif

/* What a call does to the ranges known to hold no page (empty_ranges.c). */
struct release {
	int dontneed;          /* a MADV_DONTNEED: [lo, hi) is empty after it */
	uint64_t lo, hi, faults;
	uint64_t old_brk;
	uint64_t fresh;        /* an anonymous private mmap: a count read before it */
};


/* Ranges a call unmaps or may move pages into stop being known empty
 * before it runs (empty_ranges.c): new pages elsewhere come by faults. */
__attribute__((hot)) static void forget_before(int sys, const long *a, uint64_t old_brk)
{
	uint64_t a0 = (uint64_t)a[0], a1 = (uint64_t)a[1];
	switch (sys) {
	case VMT_SYS_MUNMAP:
		empty_forget(a0, a0 + shim_page_up(a1));
		break;
	case VMT_SYS_MREMAP:
		empty_forget(a0, a0 + shim_page_up(a1));
		if (a[3] & MREMAP_FIXED)
			empty_forget((uint64_t)a[4], (uint64_t)a[4] + shim_page_up((uint64_t)a[2]));
		break;
	case VMT_SYS_BRK:
		if (old_brk && a0 && a0 < old_brk)
			empty_forget(a0, shim_page_up(old_brk));
		break;
	case VMT_SYS_SHMAT:
		empty_forget_all();   /* where it lands and its size are the segment's */
		break;
	case VMT_SYS_MADVISE:
		if (a[2] == MADV_HUGEPAGE || a[2] == MADV_COLLAPSE)
			empty_distrust();   /* khugepaged may fill huge pages there */
		break;
	}
}

/* Whether [lo, hi) is known to hold no page (empty_ranges.c), so the
 * residency question before a call on it can go. */
static int known_empty(uint64_t lo, uint64_t hi)
{
	uint64_t faults;
	return shim.residency && !shim_vfork_child &&
	       empty_lookup_fresh(lo, shim_page_up(hi), &faults) == EMPTY_NONE;
}

/* Which calls change or remove pages that may be resident. */
__attribute__((hot)) static void residency_before(int sys, uint64_t seq, const long *a, struct release *rel)
{
	uint64_t a0 = (uint64_t)a[0], a1 = (uint64_t)a[1];
	rel->dontneed = 0;
	rel->fresh = 0;
	rel->old_brk = sys == VMT_SYS_BRK && curbrk && *curbrk ? (uint64_t)*curbrk : 0;
	/* asked before forget_before drops the range it would answer for */
	int empty = (sys == VMT_SYS_MUNMAP || sys == VMT_SYS_MPROTECT ||
	             sys == VMT_SYS_PKEY_MPROTECT) && known_empty(a0, a0 + a1);
	forget_before(sys, a, rel->old_brk);
	switch (sys) {
	case VMT_SYS_MMAP:
		/* a fresh range holds no page: a count from before the call
		 * stands for it (empty_ranges.c) */
		if ((a[3] & MAP_ANONYMOUS) && (a[3] & MAP_TYPE) == MAP_PRIVATE &&
		    shim.residency && !shim_vfork_child)
			rel->fresh = empty_fresh_count();
		break;
	case VMT_SYS_MADVISE:
		if ((a[2] == MADV_DONTNEED || a[2] == MADV_DONTNEED_LOCKED) && shim.residency &&
		    !shim_vfork_child) {
			rel->dontneed = 1;
			rel->lo = a0;
			rel->hi = shim_page_up(a0 + a1);
			if (empty_lookup(rel->lo, rel->hi, &rel->faults) == EMPTY_NONE)
				break;
		}
		residency_range(seq, a0, a1);
		break;
	case VMT_SYS_MUNMAP:
	case VMT_SYS_MPROTECT:
	case VMT_SYS_PKEY_MPROTECT:
		if (!empty)
			residency_range(seq, a0, a1);
		break;
	case VMT_SYS_MREMAP:
		residency_range(seq, a0, a1);
		break;
	case VMT_SYS_BRK:
		if (rel->old_brk && a0 && a0 < rel->old_brk)
			residency_range(seq, shim_page_up(a0), rel->old_brk - shim_page_up(a0));
		break;
	}
}

/* A range MADV_DONTNEED emptied, or a fresh mapping, is known empty from
 * now on. */
__attribute__((hot)) static void residency_after(int sys, long r, const long *a, const struct release *rel)
{
	if (raw_failed(r))
		return;
	if (rel->dontneed)
		empty_note(rel->lo, rel->hi, rel->faults);
	else if (sys == VMT_SYS_MMAP && rel->fresh)
		empty_note((uint64_t)r, (uint64_t)r + shim_page_up((uint64_t)a[1]), rel->fresh);
}

/* The table of recent mappings (neighbours.c), and the question whether
 * a new anonymous mapping landed between two with pages. */
__attribute__((hot)) static void neighbours_after(int sys, uint64_t seq, const long *a, long r)
{
	uint64_t a0 = (uint64_t)a[0], len = shim_page_up((uint64_t)a[1]);
	if (raw_failed(r))
		return;
	switch (sys) {
	case VMT_SYS_MMAP:
		if ((a[3] & MAP_ANONYMOUS) && (a[3] & MAP_TYPE) == MAP_PRIVATE)
			neighbours_mapped(seq, (uint64_t)r, (uint64_t)r + len);
		else
			neighbours_moved((uint64_t)r, (uint64_t)r + len);
		break;
	case VMT_SYS_MUNMAP:
		neighbours_unmapped(a0, a0 + len);
		break;
	case VMT_SYS_MREMAP:
		if (!(a[3] & MREMAP_DONTUNMAP))
			neighbours_unmapped(a0, a0 + len);
		neighbours_moved((uint64_t)r, (uint64_t)r + shim_page_up((uint64_t)a[2]));
		break;
	}
}

/* libunwind's own mappings are not the program's (maps.c). */
static void own_internal(int sys, long a0, long a1, long r)
{
	uint64_t len = shim_page_up((uint64_t)a1);
	if (sys == VMT_SYS_MMAP && !raw_failed(r))
		maps_own((uint64_t)r, (uint64_t)r + len);
	else if (sys == VMT_SYS_MUNMAP && !raw_failed(r))
		maps_disown((uint64_t)a0, (uint64_t)a0 + len);
}

/* shmat's segment as a FILE record, the only place the trace has for its
 * size: dev and ino as /proc/self/maps shows an attachment (the shmem
 * mount's device, the shmid), size = shm_segsz, path "SYSV<key>".  IPC_STAT
 * needs the read permission shmat needs too; on failure, no record. */
static uint64_t shm_dev;   /* a memfd's: memfds live on the same mount */

static uint32_t sysv_file(int id)
{
	struct shmid_ds ds;
	if (raw_failed(raw3(SYS_shmctl, id, IPC_STAT, &ds)))
		return 0;
	if (!shm_dev) {
		struct stat st;
		long fd = raw2(SYS_memfd_create, "vmrec", MFD_CLOEXEC);
		if (!raw_failed(fd)) {
			if (!raw_failed(raw2(SYS_fstat, fd, &st)))
				shm_dev = st.st_dev;
			raw1(SYS_close, fd);
		}
	}
	char path[16] = "SYSV";
	uint32_t key = (uint32_t)ds.shm_perm.__key;
	for (int i = 0; i < 8; i++)
		path[4 + i] = "0123456789abcdef"[(key >> (28 - 4 * i)) & 15];
	path[12] = 0;
	return image_file_new(shm_dev, (uint64_t)(uint32_t)id, (uint64_t)ds.shm_segsz, path);
}

/* Asynchronous cancellation (SIGCANCEL at any instruction) would end the
 * thread between the kernel's completing a call and its record: while a
 * call is recorded the thread is deferred, and a cancel that came in the
 * meantime acts when asynchronous cancellation is restored, right after
 * (glibc checks for one then).  Deferred threads, the usual kind, pay one
 * load: glibc's setcanceltype changes nothing when the type is the same.
 * A vfork child must not touch its parent's thread state. */
__attribute__((hot)) static int cancel_defer(void)
{
	int old = PTHREAD_CANCEL_DEFERRED;
	if (!shim_vfork_child)
		pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &old);
	return old == PTHREAD_CANCEL_ASYNCHRONOUS;
}

static void cancel_restore(int async)
{
	if (async)
		pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
}

/* Every recorded call runs the functions marked hot (here, record.c,
 * residency.c, empty_ranges.c, vmt_writer.c): the compiler places them
 * together, so the path spans three code pages instead of seven, and the
 * kernel's work between two calls evicts fewer of its lines (a brk loop
 * without residency: 1.24-1.27 -> 1.22-1.23 of native). */
__attribute__((hot)) long shim_vma_call(int sys, long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	struct shim_call c;
	long r;
	if (!shim.enabled || shim_self.internal) {
		r = raw6(nr, a0, a1, a2, a3, a4, a5);
		if (shim_self.internal)
			own_internal(sys, a0, a1, r);
		return r;
	}
	int async = cancel_defer();
	uint8_t sud = sud_enter();
	call_begin(&c, sys, a0, a1, a2, a3, a4, a5);
	const long a[6] = { a0, a1, a2, a3, a4, a5 };
	struct release rel;
	residency_before(sys, c.seq, a, &rel);
	if (sys == VMT_SYS_MMAP && !(a3 & MAP_ANONYMOUS) && a4 >= 0)
		c.file_id = image_file_fd((int)a4);
	else if (sys == VMT_SYS_SHMAT)
		c.file_id = sysv_file((int)a0);
	call_clock(&c);
	r = raw6_exempt(nr, a0, a1, a2, a3, a4, a5);
	if (sys == VMT_SYS_MMAP && (a2 & PROT_EXEC) && c.file_id)
		stacks_modules_changed();
	residency_after(sys, r, a, &rel);
	neighbours_after(sys, c.seq, a, r);
	call_end(&c, r);
	sud_leave(sud);
	cancel_restore(async);
	return r;
}

void *hook_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (off & ~SHIM_PAGE_MASK) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	long r = shim_vma_call(VMT_SYS_MMAP, SYS_mmap, (long)addr, (long)len, prot, flags, fd, off);
	if ((flags & MAP_STACK) && !raw_failed(r) && shim.enabled &&
	    patch_in_libc((uint64_t)(uintptr_t)__builtin_return_address(0)))
		stackset_add((uint64_t)r, (uint64_t)r + len);   /* glibc's allocate_stack */
	return (void *)shim_errno_ret(r);
}

int hook_munmap(void *addr, size_t len)
{
	long r = shim_vma_call(VMT_SYS_MUNMAP, SYS_munmap, (long)addr, (long)len, 0, 0, 0, 0);
	if (!raw_failed(r) && shim.enabled)
		stackset_remove((uint64_t)(uintptr_t)addr, (uint64_t)(uintptr_t)addr + len);
	return (int)shim_errno_ret(r);
}

int hook_mprotect(void *addr, size_t len, int prot)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MPROTECT, SYS_mprotect, (long)addr,
	                                         (long)len, prot, 0, 0, 0));
}

int hook_pkey_mprotect(void *addr, size_t len, int prot, int pkey)
{
	if (pkey == -1)     /* glibc: the default key is plain mprotect */
		return hook_mprotect(addr, len, prot);
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_PKEY_MPROTECT, SYS_pkey_mprotect,
	                                         (long)addr, (long)len, prot, pkey, 0, 0));
}

int hook_madvise(void *addr, size_t len, int advice)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MADVISE, SYS_madvise, (long)addr,
	                                         (long)len, advice, 0, 0, 0));
}

int hook_posix_madvise(void *addr, size_t len, int advice)
{
	if (advice == POSIX_MADV_DONTNEED)  /* glibc: not MADV_DONTNEED, a no-op */
		return 0;
	long r = shim_vma_call(VMT_SYS_MADVISE, SYS_madvise, (long)addr, (long)len, advice, 0, 0, 0);
	return raw_failed(r) ? (int)-r : 0;
}

void *hook_mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *new_addr = NULL;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) {
		va_list ap;
		va_start(ap, flags);
		new_addr = va_arg(ap, void *);
		va_end(ap);
	}
	return (void *)shim_errno_ret(shim_vma_call(VMT_SYS_MREMAP, SYS_mremap, (long)old,
	                                            (long)old_len, (long)new_len, flags,
	                                            (long)new_addr, 0));
}

__attribute__((hot)) int hook_brk(void *addr)
{
	long r = shim_vma_call(VMT_SYS_BRK, SYS_brk, (long)addr, 0, 0, 0, 0, 0);
	if (curbrk)
		*curbrk = (void *)r;
	if ((unsigned long)r < (unsigned long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int hook_mlock(const void *addr, size_t len)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MLOCK, SYS_mlock, (long)addr,
	                                         (long)len, 0, 0, 0, 0));
}

int hook_mlock2(const void *addr, size_t len, unsigned flags)
{
	if (flags == 0)
		return hook_mlock(addr, len);
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MLOCK2, SYS_mlock2, (long)addr,
	                                         (long)len, flags, 0, 0, 0));
}

int hook_munlock(const void *addr, size_t len)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MUNLOCK, SYS_munlock, (long)addr,
	                                         (long)len, 0, 0, 0, 0));
}

int hook_mlockall(int flags)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MLOCKALL, SYS_mlockall, flags,
	                                         0, 0, 0, 0, 0));
}

int hook_munlockall(void)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_MUNLOCKALL, SYS_munlockall, 0,
	                                         0, 0, 0, 0, 0));
}

void *hook_shmat(int id, const void *addr, int flags)
{
	return (void *)shim_errno_ret(shim_vma_call(VMT_SYS_SHMAT, SYS_shmat, id, (long)addr,
	                                            flags, 0, 0, 0));
}

int hook_shmdt(const void *addr)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_SHMDT, SYS_shmdt, (long)addr,
	                                         0, 0, 0, 0, 0));
}

/* syscall(2): VMA calls are recorded, fork/exec/exit go through the process
 * hooks; everything else is issued unchanged.  clone, clone3 and vfork never
 * reach here (see hooks_proc.c: they cannot return through a C frame). */
long shim_syscall_c(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	int sys = vmt_sys_from_nr(nr), handled = 0;
	uint8_t sud = sud_enter();
	long r;
	empty_passing_call(nr);
	if (sys == VMT_SYS_NONE)
		r = raw6(nr, a0, a1, a2, a3, a4, a5);
	else
		r = shim_proc_syscall(nr, a0, a1, a2, a3, a4, a5, &handled);
	if (sys != VMT_SYS_NONE && !handled)
		r = shim_vma_call(sys, nr, a0, a1, a2, a3, a4, a5);
	sud_leave(sud);
	return shim_errno_ret(r);
}
