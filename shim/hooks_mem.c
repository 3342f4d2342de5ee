/* hooks_mem.c - replacements for libc's VMA system call wrappers.  Each
 * behaves exactly like the wrapper it replaces (same argument checks done
 * in user space, same result and errno), and records the call. */
#include "hooks.h"
#include "arena.h"
#include "capture.h"
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
#include "umem.h"
#include "lib/compat.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <string.h>

static void **curbrk;     /* libc's __curbrk: sbrk trusts it */
static void hooks_matches_init(void);

/* What the table says of each row, read once (hooks_init) and packed for
 * the path every recorded call takes: loads, not calls into the table. */
static struct {
	uint8_t fx, resid, ranges, file;
} row[VMT_SYS_COUNT];

static void rows_init(void)
{
	for (int s = 1; s < VMT_SYS_COUNT; s++) {
		const uint64_t a[6] = { 0 };
		struct capture_file f;
		row[s].fx = (uint8_t)vmt_sys_effect(s);
		row[s].resid = (uint8_t)vmt_sys_residency(s);
		row[s].ranges = (uint8_t)vmt_sys_ranges(s);
		row[s].file = (uint8_t)capture_file(s, a, &f);   /* its calls may name a file */
	}
}

void hooks_init(void)
{
	curbrk = patch_libc_symbol("__curbrk");
	rows_init();
	hooks_matches_init();
}

long shim_errno_ret(long r)
{
	if (raw_failed(r)) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

/* What a call does to the ranges known to hold no page (empty_ranges.c). */
struct release {
	int dontneed;          /* a MADV_DONTNEED: [lo, hi) is empty after it */
	uint64_t lo, hi, faults;
	uint64_t old_brk;
	uint64_t fresh;        /* an anonymous private mmap: a count read before it */
};

/* Ranges a call unmaps or may move pages into stop being known empty
 * before it runs (empty_ranges.c): new pages elsewhere come by faults. */
__attribute__((hot)) static void forget_before(int sys, int fx, const long *a, uint64_t old_brk)
{
	uint64_t a0 = (uint64_t)a[0], a1 = (uint64_t)a[1];
	switch (fx) {
	case VMT_FX_UNMAP:
		empty_forget(a0, a0 + shim_page_up(a1));
		break;
	case VMT_FX_REMAP:
		empty_forget(a0, a0 + shim_page_up(a1));
		if (a[3] & MREMAP_FIXED)
			empty_forget((uint64_t)a[4], (uint64_t)a[4] + shim_page_up((uint64_t)a[2]));
		break;
	case VMT_FX_BRK:
		if (old_brk && a0 && a0 < old_brk)
			empty_forget(a0, shim_page_up(old_brk));
		break;
	case VMT_FX_ATTACH:
		empty_forget_all();   /* where it lands and its size are the segment's */
		break;
	case VMT_FX_CHANGE:
		if (sys == VMT_SYS_MADVISE && (a[2] == MADV_HUGEPAGE || a[2] == MADV_COLLAPSE))
			empty_distrust();   /* khugepaged may fill huge pages there */
		else if (sys == VMT_SYS_PROCESS_MADVISE && a[3] == MADV_COLLAPSE)
			empty_distrust();
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

/* A range madvise empties (empty_ranges.c): 1 when it is known empty
 * already, so its residency question can go. */
static int note_dontneed(const long *a, struct release *rel)
{
	if ((a[2] != MADV_DONTNEED && a[2] != MADV_DONTNEED_LOCKED) || !shim.residency || shim_vfork_child)
		return 0;
	rel->dontneed = 1;
	rel->lo = (uint64_t)a[0];
	rel->hi = shim_page_up((uint64_t)a[0] + (uint64_t)a[1]);
	return empty_lookup(rel->lo, rel->hi, &rel->faults) == EMPTY_NONE;
}

/* The pages a call may change or remove, asked as the table's residency
 * column says (docs/residency.md). */
__attribute__((hot)) static void residency_before(int sys, uint64_t seq, const long *a, struct release *rel,
                                                  const struct vmt_ranges *ranges)
{
	uint64_t a0 = (uint64_t)a[0], a1 = (uint64_t)a[1];
	int fx = row[sys].fx, resid = row[sys].resid;
	rel->dontneed = 0;
	rel->fresh = 0;
	rel->old_brk = fx == VMT_FX_BRK && curbrk && *curbrk ? (uint64_t)*curbrk : 0;
	/* asked before forget_before drops the range it would answer for:
	 * a range known empty has no page to change or remove (but madvise's
	 * own question is whether it empties one) */
	int empty = resid == VMT_RESID_RANGE && (fx == VMT_FX_UNMAP || sys == VMT_SYS_MPROTECT ||
	                                        sys == VMT_SYS_PKEY_MPROTECT) && known_empty(a0, a0 + a1);
	forget_before(sys, fx, a, rel->old_brk);
	/* a fresh range holds no page: a count from before the call stands
	 * for it (empty_ranges.c) */
	if (sys == VMT_SYS_MMAP && (a[3] & MAP_ANONYMOUS) && (a[3] & MAP_TYPE) == MAP_PRIVATE &&
	    shim.residency && !shim_vfork_child)
		rel->fresh = empty_fresh_count();
	switch (resid) {
	case VMT_RESID_RANGE:
		if (sys == VMT_SYS_MADVISE && note_dontneed(a, rel))
			break;
		if (!empty)
			residency_range(seq, a0, a1);
		break;
	case VMT_RESID_BRK:
		if (rel->old_brk && a0 && a0 < rel->old_brk)
			residency_range(seq, shim_page_up(a0), rel->old_brk - shim_page_up(a0));
		break;
	case VMT_RESID_RANGES:
		for (uint32_t i = 0; ranges && i < ranges->n; i++)
			residency_range(seq, ranges->ranges[i].start, ranges->ranges[i].len);
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
	switch (row[sys].fx) {
	case VMT_FX_MAP:
		if (sys == VMT_SYS_MMAP && (a[3] & MAP_ANONYMOUS) && (a[3] & MAP_TYPE) == MAP_PRIVATE)
			neighbours_mapped(seq, (uint64_t)r, (uint64_t)r + len, (int)a[2]);
		else
			neighbours_moved((uint64_t)r, (uint64_t)r + len);
		break;
	case VMT_FX_UNMAP:
		neighbours_unmapped(a0, a0 + len);
		break;
	case VMT_FX_REMAP:
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
	int fx = row[sys].fx;
	if (fx == VMT_FX_MAP && !raw_failed(r))
		maps_own((uint64_t)r, (uint64_t)r + len);
	else if (fx == VMT_FX_UNMAP && !raw_failed(r))
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
	return image_file_new(shm_dev, (uint64_t)(uint32_t)id, (uint64_t)ds.shm_segsz, path, 0);
}

/* The process a pidfd names (its fdinfo's "Pid:" line): -1 one that has
 * ended, 0 when fd is no pidfd; PIDFD_SELF_THREAD and
 * PIDFD_SELF_THREAD_GROUP (6.15) name the caller. */
#define PIDFD_SELF_THREAD_ (-10000)
#define PIDFD_SELF_THREAD_GROUP_ (-20000)
static int32_t pidfd_pid(int fd)
{
	int32_t self = shim_vfork_child ? (int32_t)raw0(SYS_getpid) : shim.pid;
	if (fd == PIDFD_SELF_THREAD_ || fd == PIDFD_SELF_THREAD_GROUP_)
		return self;
	if (fd < 0)
		return 0;
	char path[40] = "/proc/self/fdinfo/", num[16], buf[512];
	int i = sizeof num;
	unsigned v = (unsigned)fd;
	num[--i] = 0;
	do num[--i] = (char)('0' + v % 10); while ((v /= 10) && i > 0);
	strcat(path, num + i);
	long f = raw3(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (raw_failed(f))
		return 0;
	long n = raw3(SYS_read, f, buf, sizeof buf - 1);
	raw1(SYS_close, f);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	const char *p = strstr(buf, "\nPid:");
	if (!p)
		return 0;
	p += 5;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-')
		return -1;
	int32_t pid = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		pid = pid * 10 + (*p - '0');
	return pid;
}

/* What a call's arguments point to (capture.c), read before it: a few
 * ranges on the stack, more from the recorder's arena. */
#define RANGES_ON_STACK 16
struct ranges_read {
	struct capture_ranges c;
	struct vmt_range stack[RANGES_ON_STACK];
	struct vmt_range *heap;
	size_t heap_bytes;
	int have;
};

static void ranges_before(struct ranges_read *rr, int sys, const uint64_t *a)
{
	rr->heap = NULL;
	umem_self(shim_vfork_child ? (int32_t)raw0(SYS_getpid) : shim.pid);
	rr->have = capture_ranges(&rr->c, sys, a, rr->stack, RANGES_ON_STACK, &umem_capture);
	if (!rr->have && rr->c.need) {
		rr->heap_bytes = rr->c.need * sizeof(struct vmt_range);
		rr->heap = arena_alloc(rr->heap_bytes);
		if (rr->heap)
			rr->have = capture_ranges(&rr->c, sys, a, rr->heap, rr->c.need, &umem_capture);
	}
}

/* The RANGES record, right before its event. */
static void ranges_write(struct ranges_read *rr, uint64_t seq, const uint64_t *a, long r)
{
	if (rr->have) {
		capture_ranges_after(&rr->c, a, r, &umem_capture);
		struct vmt_record rec = { .type = VMT_REC_RANGES };
		rec.u.ranges = rr->c.r;
		rec.u.ranges.seq = seq;
		rec.u.ranges.pid = shim_vfork_child ? (int32_t)raw0(SYS_getpid) : shim.pid;
		if (shim_vfork_child)
			shim_vfork_write(&rec);
		else
			shim_write(&rec);
	}
	if (rr->heap)
		arena_free(rr->heap, rr->heap_bytes);
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
 * kernel's work between two calls evicts fewer of its lines. */
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
	/* the table says what else the call's records need: what its
	 * arguments point to, which file it names */
	struct ranges_read rr;
	int reads = row[sys].ranges != VMT_RANGES_NONE;
	/* What the arguments point to is read before the call only where
	 * its residency question needs it (process_madvise's iovec): the
	 * rest (a uffd range, a name, a nodemask) is input the call leaves
	 * as it was, read after it, so nothing of the recorder's but the
	 * seq and the clock comes between the program and the kernel.  A
	 * userfaultfd monitor races the threads it serves: one whose
	 * UFFDIO_UNREGISTER comes late loses a kernel race it wins
	 * natively (docs/shim.md, "Never harming the program"). */
	int late = reads && row[sys].resid != VMT_RESID_RANGES;
	const struct vmt_ranges *own = NULL;
	rr.have = 0;
	if (__builtin_expect(reads && !late, 0)) {
		ranges_before(&rr, sys, c.args);
		/* process_madvise's record names the pidfd's process (format
		 * 6); another process's pages would be answered from ours:
		 * only ours are asked */
		if (rr.have && sys == VMT_SYS_PROCESS_MADVISE)
			rr.c.r.target = pidfd_pid((int)a0);
		if (rr.have && (sys != VMT_SYS_PROCESS_MADVISE ||
		                rr.c.r.target == (shim_vfork_child ? (int32_t)raw0(SYS_getpid) : shim.pid)))
			own = &rr.c.r;
	}
	struct release rel;
	residency_before(sys, c.seq, a, &rel, own);
	if (__builtin_expect(reads, 0) && rr.have && !own && rr.c.r.target > 0)   /* the pidfd's process's */
		for (uint32_t i = 0; i < rr.c.r.n; i++)
			residency_of(c.seq, rr.c.r.target, rr.c.r.ranges[i].start, rr.c.r.ranges[i].len);
	struct capture_file f;
	if (row[sys].file && capture_file(sys, c.args, &f))
		c.file_id = f.kind == CAPTURE_FILE_FD ? image_file_fd(f.fd) : sysv_file(f.fd);
	call_clock(&c);
	r = raw6_exempt(nr, a0, a1, a2, a3, a4, a5);
	if (__builtin_expect(late, 0))
		ranges_before(&rr, sys, c.args);
	if (sys == VMT_SYS_MMAP && (a2 & PROT_EXEC) && c.file_id)
		stacks_modules_changed();
	residency_after(sys, r, a, &rel);
	neighbours_after(sys, c.seq, a, r);
	if (__builtin_expect(reads, 0))
		ranges_write(&rr, c.seq, c.args, r);
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

/* The calls of a number the table records only for some values of an
 * argument (ioctl's uffd commands, prctl's options): the values, read
 * from the table once, so every other call passes with a compare or four. */
struct matches {
	int arg, n;
	uint32_t value[8];
};
static struct matches ioctl_cmds, prctl_options;

static void matches_init(struct matches *m, long nr)
{
	m->n = 0;
	for (int s = 1; s < VMT_SYS_COUNT; s++) {
		uint32_t v;
		if (vmt_sys_nr(s) == nr && vmt_sys_match(s, &m->arg, &v) &&
		    m->n < (int)(sizeof m->value / sizeof m->value[0]))
			m->value[m->n++] = v;
	}
}

static void hooks_matches_init(void)
{
	matches_init(&ioctl_cmds, SYS_ioctl);
	matches_init(&prctl_options, SYS_prctl);
}

/* The row a call is when its argument has one of the values, else NONE. */
__attribute__((always_inline)) static inline int matched(const struct matches *m, long nr, const long *a)
{
	for (int i = 0; i < m->n; i++)
		if ((uint32_t)a[m->arg] == m->value[i]) {
			const uint64_t u[6] = { (uint64_t)a[0], (uint64_t)a[1], (uint64_t)a[2],
			                        (uint64_t)a[3], (uint64_t)a[4], (uint64_t)a[5] };
			return capture_sys(nr, u);
		}
	return VMT_SYS_NONE;
}

/* ioctl and prctl: only the table's commands are recorded; every other
 * passes straight to the kernel (through libc's exempt syscall
 * instruction, so dispatch never traps it) with libc's result and errno. */
int hook_ioctl(int fd, unsigned long req, void *arg)
{
	const long a[6] = { fd, (long)req, (long)arg, 0, 0, 0 };
	int sys = matched(&ioctl_cmds, SYS_ioctl, a);
	long r = sys == VMT_SYS_NONE ? raw3_exempt(SYS_ioctl, fd, req, arg)
	                             : shim_vma_call(sys, SYS_ioctl, fd, (long)req, (long)arg, 0, 0, 0);
	return (int)shim_errno_ret(r);
}

int hook_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)
{
	const long a[6] = { option, (long)a2, (long)a3, (long)a4, (long)a5, 0 };
	int sys = matched(&prctl_options, SYS_prctl, a);
	long r = sys == VMT_SYS_NONE ? raw6_exempt(SYS_prctl, option, (long)a2, (long)a3, (long)a4, (long)a5, 0)
	                             : shim_vma_call(sys, SYS_prctl, option, (long)a2, (long)a3, (long)a4,
	                                             (long)a5, 0);
	return (int)shim_errno_ret(r);
}

ssize_t hook_process_madvise(int pidfd, const void *iov, size_t n, int advice, unsigned flags)
{
	return shim_errno_ret(shim_vma_call(VMT_SYS_PROCESS_MADVISE, SYS_process_madvise, pidfd,
	                                    (long)iov, (long)n, advice, flags, 0));
}

int hook_remap_file_pages(void *start, size_t size, int prot, size_t pgoff, int flags)
{
	return (int)shim_errno_ret(shim_vma_call(VMT_SYS_REMAP_FILE_PAGES, SYS_remap_file_pages,
	                                         (long)start, (long)size, prot, (long)pgoff, flags, 0));
}

/* syscall(2): VMA calls are recorded, fork/exec/exit go through the process
 * hooks; everything else is issued unchanged.  clone, clone3 and vfork never
 * reach here (see hooks_proc.c: they cannot return through a C frame). */
long shim_syscall_c(long nr, long a0, long a1, long a2, long a3, long a4, long a5)
{
	const uint64_t args[6] = { (uint64_t)a0, (uint64_t)a1, (uint64_t)a2, (uint64_t)a3, (uint64_t)a4,
	                           (uint64_t)a5 };
	int sys = capture_sys(nr, args), handled = 0;
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
