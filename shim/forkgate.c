/* forkgate.c - see forkgate.h.
 *
 * A Dekker handshake whose fast side costs no fence: a thread marks
 * itself in flight with a plain store, then reads `closed`; the forking
 * thread sets `closed`, makes every thread of the process pass a full
 * barrier with membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), then waits
 * until no other thread is in flight.  Either the thread saw `closed`
 * (and waits on a futex until the fork is done), or the forking thread
 * sees it in flight (and waits for its call to end).  The recorded calls
 * are what the kernel's fork would wait for anyway (they take the
 * mmap_lock that fork holds for writing); the membarrier and the futex
 * are the recorder's own calls, made only where a process that has more
 * than one thread forks.  Where membarrier is refused (a seccomp filter,
 * a kernel before 4.14) the gate stays open: forks overlap as before.
 *
 * A thread enrolls at its first recorded call, which may come while a
 * fork is under way in a process that had no other enrolled thread (a
 * program forking right after creating its threads: the first fork of
 * order_threads' fork mode overlapped its threads' first mmaps, and the
 * child's first checkpoint held a range the trace's order put after the
 * fork).  So the gate closes at every fork, and a thread's first call
 * pays the fence that membarrier gives the others; a fork with no other
 * thread enrolled waits for nothing and wakes no one.
 *
 * Once the process forked and has another thread making recorded calls
 * (at the fork, or enrolling after it), its recorded calls also take
 * one at a time (`order`, a futex lock taken before the call's seq and let
 * go once its end is read): no two of its calls overlap in the trace's
 * order, so the order the trace has is the one the kernel had.  Calls
 * that overlapped leave undecided which took the mmap_lock first, and a
 * thread held off the CPU for milliseconds inside a call made its change
 * at either end (docs/trace-format.md, "Order"); a fork child's first
 * checkpoint copies what that decided (order_threads fork under load:
 * one recording in twenty one VMA off).  The kernel serialises these
 * calls on the mmap_lock anyway, mostly.  A holder that never lets go (a
 * thread cancelled or longjmp'd out inside a hook, a call waiting on
 * another thread's recorded call) is waited for DRAIN_NS; then the lock
 * is given up for good and calls overlap as before.  A waiter kept off
 * longer by other holders that each let go in time waits on. */
#include "forkgate.h"
#include "raw.h"

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#define MAX_GATED 4096
#define MEMBARRIER_PRIVATE_EXPEDITED 8          /* MEMBARRIER_CMD_... */
#define MEMBARRIER_REGISTER_PRIVATE_EXPEDITED 16
/* How long a fork waits for a call in flight (a call that waits on the
 * forking thread itself, a userfaultfd fault it serves, never ends):
 * after it the fork goes on, overlapping that call.  A thread merely
 * held off the CPU takes long too: at a load of 10 on two CPUs a call
 * was in flight 205 ms, past the 100 ms this was, and the fork child
 * copied a range the trace's order put after the fork (order_threads
 * fork, 1 of 20 recordings). */
#define DRAIN_NS 1000000000L

struct gated {
	volatile int in_flight;
	int slot;                    /* index + 1 in `threads`, 0: none */
	int closing;                 /* this thread forks */
	int holds;                   /* it holds `order` */
	int stray;                   /* its call in flight is counted in `strays` */
};

static __thread struct gated self __attribute__((tls_model("initial-exec")));
static struct gated *volatile threads[MAX_GATED];
static volatile int nthreads;    /* registered; a few more than alive is harmless */
static volatile int closed;      /* a fork waits, or is under way */
static volatile int nwaiting;    /* threads in wait_open */
/* Calls in flight of threads with no slot: a thread's last calls after
 * forkgate_thread_gone (glibc's stack release, the program's own
 * thread-specific destructors, which run after the recorder's) and
 * threads past MAX_GATED.  A fork waits for them as for the enrolled
 * ones: else its seq fell inside such a call (a destructor's 32 MiB
 * populate in 18-20 of 20 forks of late_call_fork) and the child held a
 * mapping the trace's order put after the fork.  Counted with full
 * barriers on both sides, so no membarrier is needed for them. */
static volatile int strays;
static int registered;           /* membarrier registered in this process: 1, refused: -1 */
int forkgate_forked_threaded;
static volatile int forked;      /* it forked: a thread enrolling from then on orders calls */
static volatile int ordered;     /* calls take `order` (forked while threaded) */
static volatile int order;       /* 0 free, 1 held, 2 held and maybe waited for */
static volatile unsigned order_turns;   /* times a holder let go (written holding it) */
static volatile int order_broken;   /* a holder did not let go in time: no more */
int forkgate_test_sig;

/* Slots are taken lowest first; the high-water mark, raised before a
 * slot is taken, bounds every scan (the table's untouched pages stay
 * untouched: after a fork, a page written is a page copied). */
static volatile int gated_hw;

static void enroll(void)
{
	for (int i = 0; i < MAX_GATED; i++) {
		struct gated *none = NULL;
		if (threads[i])
			continue;
		int hw = __atomic_load_n(&gated_hw, __ATOMIC_ACQUIRE);
		while (hw < i + 1 && !__atomic_compare_exchange_n(&gated_hw, &hw, i + 1, 0,
		                                                  __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
			;
		if (__atomic_compare_exchange_n(&threads[i], &none, &self, 0, __ATOMIC_ACQ_REL,
		                                __ATOMIC_RELAXED)) {
			self.slot = i + 1;
			if (__atomic_add_fetch(&nthreads, 1, __ATOMIC_SEQ_CST) > 1 && forked)
				ordered = 1;
			return;
		}
	}
	self.slot = -1;              /* no room: never waited for */
}

/* Counted first, so a fork that opens sees it (or it sees the gate open). */
static void wait_open(void)
{
	__atomic_add_fetch(&nwaiting, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&closed, __ATOMIC_ACQUIRE))
		raw4(SYS_futex, &closed, FUTEX_WAIT_PRIVATE, 1, 0);
	__atomic_sub_fetch(&nwaiting, 1, __ATOMIC_RELEASE);
}

/* A signal handler's call inside a recorded call: where the outer call
 * is in flight, a fork or an exit waits for it and the nested one with
 * it.  Where it is not (it waits at the gate, or has not reached it
 * yet), the nested call passes the gate as an outermost one does: else a
 * fork or an exit would not wait for it, and its record, parked for an
 * outer call that may never go on (the kernel ends a thread waiting at
 * an exit's gate), would be lost.  1: it marked itself in flight, and
 * forkgate_leave at its end restores the outer call's mark.  A thread
 * not enrolled yet (a handler inside its first call's entry) is not. */
int forkgate_nested(void)
{
	if (__builtin_expect(self.in_flight || self.closing || self.slot <= 0, 1))
		return 0;
	for (;;) {
		self.in_flight = 1;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);   /* rare: a fence of its own */
		if (!__atomic_load_n(&closed, __ATOMIC_RELAXED))
			return 1;
		self.in_flight = 0;
		wait_open();
	}
}

static uint64_t now_ns(void);
static void order_take(void);

static int enter_stray(void)
{
	for (;;) {
		__atomic_add_fetch(&strays, 1, __ATOMIC_SEQ_CST);
		self.in_flight = self.stray = 1;
		if (!__atomic_load_n(&closed, __ATOMIC_SEQ_CST)) {
			if (ordered && !__atomic_load_n(&order_broken, __ATOMIC_RELAXED))
				order_take();
			return 1;
		}
		__atomic_sub_fetch(&strays, 1, __ATOMIC_SEQ_CST);
		self.in_flight = self.stray = 0;
		wait_open();
	}
}

int forkgate_hold(void)
{
	if (self.in_flight || self.closing)
		return 0;
	for (;;) {
		__atomic_add_fetch(&strays, 1, __ATOMIC_SEQ_CST);
		self.in_flight = self.stray = 1;
		if (!__atomic_load_n(&closed, __ATOMIC_SEQ_CST))
			return 1;
		__atomic_sub_fetch(&strays, 1, __ATOMIC_SEQ_CST);
		self.in_flight = self.stray = 0;
		wait_open();
	}
}

static void order_take(void)
{
	int free_ = 0;
	if (__atomic_compare_exchange_n(&order, &free_, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		self.holds = 1;
		return;
	}
	/* DRAIN_NS from the last time it changed hands: a waiter that other
	 * threads' turns keep off for longer (the lock is not fair: one just
	 * woken may find it taken again, and futex wakes one waiter a turn)
	 * waits on; only a holder that keeps it that long gives it up for
	 * good, and every later call of the process with it */
	unsigned seen = __atomic_load_n(&order_turns, __ATOMIC_RELAXED);
	uint64_t until = now_ns() + DRAIN_NS;
	while (__atomic_exchange_n(&order, 2, __ATOMIC_ACQUIRE) != 0) {
		uint64_t now = now_ns();
		unsigned turns = __atomic_load_n(&order_turns, __ATOMIC_RELAXED);
		if (turns != seen) {
			seen = turns;
			until = now + DRAIN_NS;
		}
		if (now >= until || __atomic_load_n(&order_broken, __ATOMIC_RELAXED)) {
			__atomic_store_n(&order_broken, 1, __ATOMIC_RELAXED);
			raw4(SYS_futex, &order, FUTEX_WAKE_PRIVATE, 0x7fffffff, 0);
			return;
		}
		struct timespec left = { (time_t)((until - now) / 1000000000u), (long)((until - now) % 1000000000u) };
		raw4(SYS_futex, &order, FUTEX_WAIT_PRIVATE, 2, &left);
	}
	self.holds = 1;
}

void forkgate_order_done(void)
{
	if (!self.holds)
		return;
	self.holds = 0;
	__atomic_store_n(&order_turns, order_turns + 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&order, 0, __ATOMIC_RELEASE) == 2)
		raw4(SYS_futex, &order, FUTEX_WAKE_PRIVATE, 1, 0);
}

int forkgate_enter(void)
{
	/* in flight already: a signal handler's call in the tail of the
	 * thread's outermost call (its parked records being written), which
	 * keeps the mark until it is done */
	if (self.closing || self.in_flight)
		return 0;
	int first = !self.slot;
	if (first)
		enroll();
	if (__builtin_expect(self.slot < 0, 0))
		return enter_stray();
	for (;;) {
		self.in_flight = 1;
		/* no fence: membarrier gives this thread one when a fork closes;
		 * but a fork under way may not have counted it yet */
		if (__builtin_expect(first, 0))
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
		else
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
		if (__builtin_expect(!__atomic_load_n(&closed, __ATOMIC_RELAXED), 1)) {
			if (__builtin_expect(ordered, 0) && !__atomic_load_n(&order_broken, __ATOMIC_RELAXED))
				order_take();
			return 1;
		}
		if (__builtin_expect(forkgate_test_sig, 0))
			raw3(SYS_tgkill, raw0(SYS_getpid), raw0(SYS_gettid), forkgate_test_sig);
		self.in_flight = 0;
		wait_open();
	}
}

void forkgate_leave(void)
{
	if (__builtin_expect(self.stray, 0)) {
		self.stray = 0;
		__atomic_sub_fetch(&strays, 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&self.in_flight, 0, __ATOMIC_RELEASE);
}

/* After the gate closed: the strays' calls end (DRAIN_NS at most). */
static void drain_strays(void)
{
	if (!__atomic_load_n(&strays, __ATOMIC_SEQ_CST))
		return;
	uint64_t until = now_ns() + DRAIN_NS;
	while (__atomic_load_n(&strays, __ATOMIC_ACQUIRE) && now_ns() < until)
		raw0(SYS_sched_yield);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	raw2(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Close the gate; 1 when other threads are enrolled (0: none to wait for). */
static int close_gate(int fork)
{
	self.closing = 1;
	/* a full fence after it: a thread counted after the load below
	 * fences after counting itself, and finds the gate closed */
	__atomic_store_n(&closed, 1, __ATOMIC_SEQ_CST);
	if (fork)
		forked = 1;
	return __atomic_load_n(&nthreads, __ATOMIC_SEQ_CST) > (self.slot > 0);
}

/* Every other thread past a full barrier, then their calls in flight
 * ended (DRAIN_NS at most); -1 where membarrier is refused. */
static int drain(void)
{
	if (!registered)
		registered = raw_failed(raw3(SYS_membarrier, MEMBARRIER_REGISTER_PRIVATE_EXPEDITED, 0, 0)) ? -1 : 1;
	if (registered < 0 || raw_failed(raw3(SYS_membarrier, MEMBARRIER_PRIVATE_EXPEDITED, 0, 0)))
		return -1;
	uint64_t until = now_ns() + DRAIN_NS;
	for (int i = 0, n = __atomic_load_n(&gated_hw, __ATOMIC_SEQ_CST); i < n; i++) {
		struct gated *t = threads[i];
		while (t && t != &self && __atomic_load_n(&t->in_flight, __ATOMIC_ACQUIRE) && now_ns() < until)
			raw0(SYS_sched_yield);
	}
	return 0;
}

void forkgate_close(void)
{
	int others = close_gate(1);
	drain_strays();
	if (!others)
		return;                  /* no other thread enrolled yet */
	__atomic_store_n(&forkgate_forked_threaded, 1, __ATOMIC_RELAXED);
	ordered = 1;
	if (drain() < 0) {
		forkgate_open();
		self.closing = 1;
	}
}

void forkgate_exec(void)
{
	int others = close_gate(0);
	drain_strays();
	if (others && drain() < 0) {
		forkgate_open();
		self.closing = 1;
	}
}

/* The gate stays closed: the kernel ends the threads that wait at it.
 * Where membarrier is refused, a thread may still start a call as the
 * gate closes; it is not waited for. */
void forkgate_exit(void)
{
	int others = close_gate(0);
	drain_strays();
	if (others)
		drain();
}

void forkgate_open(void)
{
	self.closing = 0;
	if (__atomic_exchange_n(&closed, 0, __ATOMIC_SEQ_CST) && __atomic_load_n(&nwaiting, __ATOMIC_SEQ_CST))
		raw4(SYS_futex, &closed, FUTEX_WAKE_PRIVATE, 0x7fffffff, 0);
}

/* The child has one thread, this one, and a new address space that
 * membarrier has not been registered for; it has not forked, and its
 * calls are ordered once it did while threaded. */
void forkgate_child(void)
{
	for (int i = 0; i < gated_hw; i++)   /* a page written is a page copied */
		if (threads[i])
			threads[i] = NULL;
	gated_hw = 0;
	nthreads = 0;
	closed = 0;
	nwaiting = 0;
	registered = 0;
	forked = ordered = order = order_broken = strays = 0;
	order_turns = 0;
	self.stray = 0;
	self.slot = 0;
	self.closing = 0;
	self.in_flight = 0;
	self.holds = 0;
}

void forkgate_thread_start(void)
{
	self.slot = self.closing = self.in_flight = self.holds = self.stray = 0;
}

/* The thread's last calls (glibc's madvise of its stack, after the exit
 * key's destructor) go ungated: enrolled again, the thread would leave
 * behind a slot pointing into its TLS, which a later fork reads and every
 * new thread's enroll() walks past (thread churn paid 25% for it). */
void forkgate_thread_gone(void)
{
	forkgate_order_done();
	if (self.slot > 0) {
		__atomic_store_n(&threads[self.slot - 1], NULL, __ATOMIC_RELEASE);
		__atomic_sub_fetch(&nthreads, 1, __ATOMIC_RELAXED);
	}
	self.slot = -1;
}
