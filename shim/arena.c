/* arena.c - bump allocation with per-size-class free lists from one
 * MAP_NORESERVE reservation (only touched pages cost memory).  A spinlock
 * guards it: it is only used outside signal context (see record.c). */
#include "arena.h"
#include "raw.h"

#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#define ARENA_BYTES (256UL << 20)
/* Far below the mmap base (0x7f...) and far above a PIE's heap (0x55...). */
#define ARENA_HINT  0x3f0000000000UL
#define NCLASS 32

static char *base, *next, *limit;
/* Blocks under a page come from a chunk of their own, packed: cut from
 * the bump region they would each push the page-sized blocks after them
 * off their page boundaries, and every block would straddle one page
 * more than it needs (each first touch a page fault, ~20 us on some
 * guests).  So pages touched at start-up are the fewest the blocks take. */
#define SMALL_MAX   2048
#define SMALL_CHUNK (16UL << 10)
static char *small_next, *small_limit;
static void *freelist[NCLASS];
static volatile int lock;

static void lock_arena(void)
{
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void unlock_arena(void) { __atomic_store_n(&lock, 0, __ATOMIC_RELEASE); }

/* The reservation: ARENA_BYTES, or an eighth of RLIMIT_AS where that is
 * less (at least ARENA_MIN), so an address-space limit leaves the
 * program its room (the store's window is sized the same way). */
#define ARENA_MIN (8UL << 20)
static unsigned long arena_bytes(void)
{
	struct { uint64_t cur, max; } lim;
	if (raw_failed(raw4(SYS_prlimit64, 0, RLIMIT_AS, 0, &lim)) || lim.cur / 8 >= ARENA_BYTES)
		return ARENA_BYTES;
	return lim.cur / 8 < ARENA_MIN ? ARENA_MIN : (unsigned long)(lim.cur / 8) & ~4095UL;
}

int arena_init(void)
{
	unsigned long bytes = arena_bytes();
	long p = raw6(SYS_mmap, ARENA_HINT, bytes, PROT_READ | PROT_WRITE,
	              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (raw_failed(p))
		p = raw6(SYS_mmap, 0, bytes, PROT_READ | PROT_WRITE,
		         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw_failed(p))
		return (int)p;
	base = next = (char *)p;
	limit = base + bytes;
	return 0;
}

static int size_class(size_t size)
{
	int c = 4;                      /* 16 bytes minimum */
	while (((size_t)1 << c) < size)
		c++;
	return c;
}

static void *take(size_t size, int *recycled)
{
	int c = size_class(size);
	void *p = NULL;
	*recycled = 0;
	if (c >= NCLASS || !base)
		return NULL;
	lock_arena();
	if (freelist[c]) {
		p = freelist[c];
		freelist[c] = *(void **)p;
		*recycled = 1;
	} else if (((size_t)1 << c) <= SMALL_MAX) {
		if ((size_t)(small_limit - small_next) < ((size_t)1 << c) &&
		    (size_t)(limit - next) >= SMALL_CHUNK) {
			small_next = next;          /* the rest of the old chunk is left */
			small_limit = next += SMALL_CHUNK;
		}
		if ((size_t)(small_limit - small_next) >= ((size_t)1 << c)) {
			p = small_next;
			small_next += (size_t)1 << c;
		}
	} else if ((size_t)(limit - next) >= ((size_t)1 << c)) {
		p = next;
		next += (size_t)1 << c;
	}
	unlock_arena();
	return p;
}

void *arena_alloc(size_t size)
{
	int recycled;
	void *p = take(size, &recycled);
	/* fresh pages are zero already: touching them all would fault in
	 * memory nobody uses (a 2 MiB class for a 1.1 MiB request) */
	if (p && recycled)
		memset(p, 0, size);
	return p;
}

void *arena_alloc_raw(size_t size)
{
	int recycled;
	return take(size, &recycled);
}

void arena_free(void *p, size_t size)
{
	int c = size_class(size);
	if (!p || c >= NCLASS)
		return;
	lock_arena();
	*(void **)p = freelist[c];
	freelist[c] = p;
	unlock_arena();
}

int arena_contains(uint64_t start, uint64_t end)
{
	return base && start >= (uint64_t)base && end <= (uint64_t)limit;
}
