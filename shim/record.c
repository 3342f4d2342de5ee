/* record.c - sequence numbers, timestamps and per-thread writers.
 *
 * Each thread owns one vmt_writer (writers are not thread-safe).  `busy`
 * lets an exit or fatal-signal path flush other threads' writers: whoever
 * wins the compare-and-swap writes, the other side backs off.  A hook that
 * runs inside a signal handler while the same thread is already recording
 * (inside a hook, or in the recorder's own writing at the thread's end)
 * parks its event in `pending`; whoever writes for the thread next writes
 * it.  A record the recorder cannot keep is counted in shim.lost, which
 * the process's END says. */
#include "record.h"
#include "capture.h"
#include "forkgate.h"
#include "stackset.h"
#include "arena.h"
#include "raw.h"
#include "stacks.h"
#include "sud.h"
#include "vmt_meta.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Sealed slabs a writer keeps to take again once drained: the launcher
 * wakes when a slab is sealed and drains it while the writer fills the
 * next; a few spares cover its wake-up and the drain itself. */
#define SPARES 3

/* A writer and where it puts its records: its slab in the store (every
 * record as soon as it is written) and the chunks it makes of them. */
struct shim_writer {
	struct vmt_writer *w;
	struct vmt_store_put put;
	struct vmt_sink sink;
	uint64_t last_seq;          /* the largest seq it holds in its open chunk */
	/* drained: 1 once the launcher drains the store (head->drainer), and
	 * records go only into the slab; gave_up: the launcher fell behind,
	 * this writer makes its own chunks for good.  spare: slabs it sealed,
	 * to take again once the launcher has made their chunks */
	int drained, gave_up;
	struct vmt_store_slab *spare[SPARES];
};

/* VMREC_TEST_SIGNAL=WHERE:SIG, for tests only: this thread sends itself
 * SIG at WHERE, a point where the recorder holds the thread's writer
 * (thread-exit: the key destructor's hand-back; process-end: after the
 * trace's last write; gate-entry: a call that finds the fork gate closed,
 * its mark still set, forkgate.c), so a test can put a signal handler's
 * call into that window every run.  Read once at start; the points are cold. */
enum { AT_NONE, AT_THREAD_EXIT, AT_PROCESS_END };
static int test_at, test_sig;

static void test_signal(int where)
{
	if (__builtin_expect(test_at == where, 0))
		raw3(SYS_tgkill, raw0(SYS_getpid), raw0(SYS_gettid), test_sig);
}

#define MAX_THREADS 4096
static struct shim_thread *threads[MAX_THREADS];
/* Slots are taken lowest first and a scan stops at the high-water mark,
 * raised before a slot is taken: the tables' untouched pages stay
 * untouched (a read of one faults in a page; after a fork, a write
 * copies it). */
static int threads_hw, overflow_hw;

static void raise_hw(int *hw, int to)
{
	int cur = __atomic_load_n(hw, __ATOMIC_ACQUIRE);
	while (cur < to && !__atomic_compare_exchange_n(hw, &cur, to, 0, __ATOMIC_SEQ_CST,
	                                                __ATOMIC_ACQUIRE))
		;
}
static pthread_key_t exit_key;
static int have_exit_key;

/* Writers of exited threads, kept with whatever they buffered: a new
 * thread continues one instead of allocating (events carry their own tid),
 * so thread churn costs no allocation and no write per thread. */
#define POOL 64
static struct shim_writer *pool[POOL];
static int npool;
static volatile int pool_lock;

static void lock_pool(void)
{
	while (__atomic_exchange_n(&pool_lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void unlock_pool(void) { __atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE); }

static struct shim_writer *pool_take(void)
{
	struct shim_writer *w = NULL;
	lock_pool();
	if (npool)
		w = pool[--npool];
	unlock_pool();
	return w;
}

static void check(struct shim_writer *w, int r);
static int writer_close(struct shim_writer *w);
static int put(struct shim_writer *sw, const struct vmt_record *rec);

/* A record this process could not keep: END says how many. */
static void lose(void) { __atomic_add_fetch(&shim.lost, 1, __ATOMIC_RELAXED); }

/* Events parked past a thread's own SHIM_PENDING, any thread's: a storm
 * of handlers that map, one right after another, parked up to 29 during
 * one chunk's encoding here.  A slot is claimed by its owner word (CLAIMED
 * while it is filled), given its thread last, and freed by that thread's
 * drain; not TLS (record.h says why). */
#define OVERFLOW 256
#define CLAIMED ((struct shim_thread *)1)
static struct { struct shim_thread *owner; struct vmt_event ev; } overflow[OVERFLOW];

/* Park an event for the thread's next write.  Only this thread parks and
 * drains its events, but a signal may nest anywhere: a slot is reserved
 * before it is filled, and a drain runs only in a frame outside every
 * parking one. */
static int park(struct shim_thread *t, const struct vmt_event *ev)
{
	int k = __atomic_fetch_add(&t->npending, 1, __ATOMIC_RELAXED);
	if (k < SHIM_PENDING) {
		t->pending[k] = *ev;
		return 0;
	}
	__atomic_fetch_sub(&t->npending, 1, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < OVERFLOW; i++) {
		struct shim_thread *none = NULL;
		if (__atomic_load_n(&overflow[i].owner, __ATOMIC_RELAXED))
			continue;
		raise_hw(&overflow_hw, (int)i + 1);
		if (__atomic_compare_exchange_n(&overflow[i].owner, &none, CLAIMED, 0,
		                                __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			overflow[i].ev = *ev;
			__atomic_fetch_add(&t->noverflow, 1, __ATOMIC_RELAXED);
			__atomic_store_n(&overflow[i].owner, t, __ATOMIC_RELEASE);
			return 0;
		}
	}
	lose();
	return -1;
}

/* The thread's events in the overflow, written and their slots freed. */
static void drain_overflow(struct shim_thread *t, struct shim_writer *w)
{
	while (__atomic_load_n(&t->noverflow, __ATOMIC_RELAXED))
		for (unsigned i = 0; i < OVERFLOW; i++) {
			if (__atomic_load_n(&overflow[i].owner, __ATOMIC_ACQUIRE) != t)
				continue;
			struct vmt_record p = { .type = VMT_REC_EVENT };
			p.u.event = overflow[i].ev;
			__atomic_store_n(&overflow[i].owner, NULL, __ATOMIC_RELEASE);
			__atomic_fetch_sub(&t->noverflow, 1, __ATOMIC_RELAXED);
			check(w, put(w, &p));
		}
}

static void pool_give(struct shim_writer *w)
{
	lock_pool();
	if (npool < POOL) {
		pool[npool++] = w;
		w = NULL;
	}
	unlock_pool();
	if (w)
		writer_close(w);
}

static void pool_flush(void)
{
	lock_pool();
	for (int i = 0; i < npool; i++)
		check(pool[i], vmt_writer_flush(pool[i]->w));
	unlock_pool();
}

/* the writer fills its buffers before it reads them (vmt_writer.c) */
static void *alloc_cb(size_t size, void *opaque) { (void)opaque; return arena_alloc_raw(size); }
static void free_cb(void *p, size_t size, void *opaque) { (void)opaque; arena_free(p, size); }
static const struct vmt_alloc shim_alloc = { alloc_cb, free_cb, NULL };


static struct shim_writer *writer_new(int32_t pid, int32_t tid, int with_slab)
{
	struct shim_writer *sw = arena_alloc(sizeof *sw);
	if (!sw)
		return NULL;
	sw->last_seq = 0;
	sw->drained = sw->gave_up = 0;
	memset(sw->spare, 0, sizeof sw->spare);
	sw->put.store = &shim.store;
	sw->put.slab = with_slab ? vmt_store_slab_new(&shim.store, pid, tid) : NULL;
	sw->sink = (struct vmt_sink){ vmt_store_sink_put, &sw->put };
	struct vmt_writer_prefs prefs = { .alloc = &shim_alloc, .sink = &sw->sink };
	sw->w = vmt_writer_fdopen(-1, pid, tid, &prefs);
	if (!sw->w) {
		arena_free(sw, sizeof *sw);
		return NULL;
	}
	return sw;
}

static int writer_close(struct shim_writer *sw)
{
	int r = vmt_writer_close(sw->w);
	if (r < 0)
		shim_output_failed(r == VMT_ENOSPC ? "the trace store is full" : vmt_strerror(r));
	arena_free(sw, sizeof *sw);
	return r;
}

/* The slab is full and the launcher drains: seal it and log into a
 * spare the launcher has drained, else into a new slab.  A launcher that
 * has drained none of the spares is behind by thousands of records, or
 * gone (killed): the writer makes its own chunks again from the new slab
 * on, so a dead launcher costs a few slabs of store space, never a wait.
 * No new slab (the store is full): NULL, and the writer keeps the full
 * one, where its END still has room (vmt_store_log). */
static struct vmt_store_slab *next_slab(struct shim_writer *sw)
{
	struct vmt_store_slab *sl = sw->put.slab, *next = NULL;
	int i, free_at = -1;
	for (i = 0; i < SPARES; i++) {
		if (!sw->spare[i]) {
			free_at = free_at < 0 ? i : free_at;
		} else if (__atomic_load_n(&sw->spare[i]->state, __ATOMIC_ACQUIRE) == VMT_SLAB_DRAINED) {
			next = sw->spare[i];
			__atomic_store_n(&next->state, VMT_SLAB_ACTIVE, __ATOMIC_RELAXED);   /* empty: starts over */
			sw->spare[i] = sl;
			break;
		}
	}
	if (!next) {
		next = vmt_store_slab_new(&shim.store, sl->pid, sl->tid);
		if (!next)
			return NULL;
		if (free_at >= 0) {
			sw->spare[free_at] = sl;
		} else {
			sw->drained = 0;   /* the sealed ones are the launcher's or the finisher's */
			sw->gave_up = 1;
			memset(sw->spare, 0, sizeof sw->spare);
		}
	}
	vmt_store_seal(&shim.store, sl);
	sw->put.slab = next;
	return next;
}

/* Where the launcher drains, a record is written once, raw into the slab;
 * the launcher, in another process, makes the chunks. */
__attribute__((hot)) static int put_drained(struct shim_writer *sw, const struct vmt_record *rec)
{
	struct vmt_store_slab *sl = sw->put.slab, *next;
	int logged = vmt_store_log(sl, rec);
	if (logged == 1 && (next = next_slab(sw))) {
		sl = next;
		if (!sw->drained)
			return put(sw, rec);   /* given up on the launcher: the new slab is empty */
		logged = vmt_store_log(sl, rec);
	}
	if (!logged)
		return 0;
	/* a header, a record bigger than a slab, or no slab left: a chunk of
	 * its own at once, naming no record of the slab (which has others) */
	sw->put.slab = NULL;
	int r = vmt_write(sw->w, rec);
	if (!r && rec->type != VMT_REC_HEADER)
		r = vmt_writer_flush(sw->w);
	sw->put.slab = sl;
	if (r && rec->type != VMT_REC_HEADER)
		lose();                    /* in no slab and in no chunk */
	return r;
}

/* The record goes into the slab first, so it survives any death of the
 * process from here on, then into the writer's chunk. */
__attribute__((hot)) static int put(struct shim_writer *sw, const struct vmt_record *rec)
{
	struct vmt_store_slab *sl = sw->put.slab;
	if (sl && !sw->drained && !sw->gave_up && __atomic_load_n(&shim.store.head->drainer, __ATOMIC_ACQUIRE)) {
		/* the launcher drains from now on: what this writer's chunk
		 * holds goes out first, so the slab holds nothing twice */
		if (!vmt_writer_flush(sw->w))
			sw->drained = 1;
	}
	if (sl && sw->drained)
		return put_drained(sw, rec);
	/* A chunk's records must not go back in seq (readers merge chunks by
	 * it): a writer taken from the pool holds another thread's later
	 * calls, and a call's seq is taken at its entry, so a call that began
	 * before them ends after.  Such a record starts a chunk of its own. */
	uint64_t seq;
	if (rec->type == VMT_REC_EVENT)
		seq = rec->u.event.seq;
	else if (!vmt_meta_seq(rec, &seq))
		seq = sw->last_seq;
	if (seq < sw->last_seq)
		vmt_writer_flush(sw->w);
	sw->last_seq = seq;
	int logged = sl ? vmt_store_log(sl, rec) : 2;
	if (logged == 1) {          /* full: its records into a chunk first */
		vmt_writer_flush(sw->w);
		logged = vmt_store_log(sl, rec);
	}
	/* alone in a chunk, at once (no slab: the store is full), so a write
	 * that fails is one record lost, and counted */
	if (logged && rec->type != VMT_REC_HEADER) {
		int r = vmt_writer_flush(sw->w);
		if (!r)
			r = vmt_write(sw->w, rec);
		if (!r)
			r = vmt_writer_flush(sw->w);
		if (r)
			lose();
		return r;
	}
	return vmt_write(sw->w, rec);
}

uint64_t shim_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Event times and latencies come from the TSC once its rate against
 * CLOCK_MONOTONIC is known (measured over the process's first 50 ms and
 * refined every second): a call then costs one rdtsc at each end instead
 * of a clock_gettime as well (~25 ns here).  Each thread anchors the TSC
 * to CLOCK_MONOTONIC itself every 100 ms, so threads share only the rate,
 * a word stored whole; the calibration's own start point may race between
 * threads, which at worst delays a refinement. */
static uint64_t cal_tsc, cal_ns;
static double ns_per_tick;
static __thread struct { uint64_t ns, tsc, until; } anchor __attribute__((tls_model("initial-exec")));

#define ANCHOR_NS 100000000.0

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void calibrate(uint64_t ns, uint64_t tsc)
{
	if (!cal_ns) {
		cal_ns = ns;
		cal_tsc = tsc;
	} else if (ns - cal_ns > (ns_per_tick ? 1000000000u : 50000000u) && tsc > cal_tsc) {
		double rate = (double)(ns - cal_ns) / (double)(tsc - cal_tsc);
		if (ns_per_tick) {
			cal_ns = ns;
			cal_tsc = tsc;
		}
		ns_per_tick = rate;
	}
}

__attribute__((hot)) void call_clock(struct shim_call *c)
{
	uint64_t tsc = rdtsc();
	double rate = ns_per_tick;
	/* unsigned: a TSC behind the anchor (another CPU's) re-anchors too */
	if (rate && tsc - anchor.tsc < anchor.until) {
		c->t0 = anchor.ns + (uint64_t)((double)(tsc - anchor.tsc) * rate);
		c->tsc0 = tsc;
		return;
	}
	c->t0 = shim_now();
	c->tsc0 = rdtsc();
	calibrate(c->t0, c->tsc0);
	rate = ns_per_tick;
	anchor.ns = c->t0;
	anchor.tsc = c->tsc0;
	anchor.until = rate ? (uint64_t)(ANCHOR_NS / rate) : 0;
}

static uint64_t latency(const struct shim_call *c)
{
	if (!c->t0)
		return 0;
	if (ns_per_tick)
		return (uint64_t)((double)(rdtsc() - c->tsc0) * ns_per_tick);
	return shim_now() - c->t0;
}

uint64_t shim_next_seq(void)
{
	static uint64_t none;       /* not recording: nothing reads it */
	return __atomic_fetch_add(shim.seq ? shim.seq : &none, 1, __ATOMIC_RELAXED);
}

/* The counter's value now, read after a call returned: a call that takes
 * its seq from here on (its fetch_add comes after this load in the
 * counter's order) began after this one ended, so [seq, seq_end) is the
 * call's interval (docs/trace-format.md, "Order").  A load, not an add:
 * no cache line is claimed for it. */
uint64_t shim_seq_now(void)
{
	return shim.seq ? __atomic_load_n(shim.seq, __ATOMIC_ACQUIRE) : 0;
}

static int stack_released(void);
static void thread_exit(int released);

/* The thread's key destructor.  Where glibc will release the stack with
 * madvise, the exit event follows that call; on a stack of the program's
 * own it is written here, so the key asks to run again until glibc's last
 * destructor round: the program's own keys' destructors, which may unmap
 * what the thread mapped, run first (as ASan's teardown does). */
static void on_thread_exit(void *arg)
{
	uintptr_t round = (uintptr_t)arg;
	int released = stack_released();
	if (round < PTHREAD_DESTRUCTOR_ITERATIONS && !released &&
	    pthread_setspecific(exit_key, (void *)(round + 1)) == 0)
		return;
	thread_exit(released);
}

void shim_threads_init(void)
{
	have_exit_key = pthread_key_create(&exit_key, on_thread_exit) == 0;
	const char *t = getenv("VMREC_TEST_SIGNAL"), *colon = t ? strchr(t, ':') : NULL;
	if (colon && colon[1]) {
		test_at = !strncmp(t, "thread-exit:", 12) ? AT_THREAD_EXIT
		        : !strncmp(t, "process-end:", 12) ? AT_PROCESS_END : AT_NONE;
		test_sig = atoi(colon + 1);
		if (!strncmp(t, "gate-entry:", 11))
			forkgate_test_sig = test_sig;
	}
}

/* t->slot is the registry index + 1 (0: not registered). */
static void register_thread(struct shim_thread *t)
{
	for (int i = 0; i < MAX_THREADS; i++) {
		struct shim_thread *none = NULL;
		if (__atomic_load_n(&threads[i], __ATOMIC_RELAXED))
			continue;
		raise_hw(&threads_hw, i + 1);
		if (__atomic_compare_exchange_n(&threads[i], &none, t, 0,
		                                __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			t->slot = i + 1;
			return;
		}
	}
}

static void unregister_thread(struct shim_thread *t)
{
	if (t->slot && __atomic_load_n(&threads[t->slot - 1], __ATOMIC_ACQUIRE) == t)
		__atomic_store_n(&threads[t->slot - 1], NULL, __ATOMIC_RELEASE);
	t->slot = 0;
}

void shim_output_failed(const char *what)
{
	static const char pre[] = "vmrec: cannot write the trace (";
	static const char post[] = "); the program keeps running, the trace is incomplete\n";
	if (__atomic_exchange_n(&shim.out_failed, 1, __ATOMIC_RELAXED))
		return;
	/* once per recording, not per process: the store is the tree's */
	if (shim.store.head && __atomic_exchange_n(&shim.store.head->warned, 1, __ATOMIC_RELAXED))
		return;
	raw3(SYS_write, 2, pre, sizeof pre - 1);
	raw3(SYS_write, 2, what, strlen(what));
	raw3(SYS_write, 2, post, sizeof post - 1);
}

__attribute__((hot)) static struct shim_writer *writer_get(struct shim_thread *t)
{
	if (t->w && t->pid == shim.pid)
		return t->w;
	if (!shim.store.base)
		return NULL;
	if (t->pid != shim.pid || !t->tid) {
		t->pid = shim.pid;
		t->tid = (int32_t)raw0(SYS_gettid);
	}
	t->w = pool_take();
	if (!t->w)
		t->w = writer_new(t->pid, t->tid, 1);
	if (!t->w) {
		shim_output_failed("out of recorder memory");
		return NULL;
	}
	if (!t->exiting)
		register_thread(t);
	return t->w;
}

static void write_exit_event(void);

static void check(struct shim_writer *w, int r)
{
	if (r < 0)
		shim_output_failed(vmt_writer_error(w->w));
}

/* Called with t->busy held. */
__attribute__((hot)) static void write_locked(struct shim_thread *t, const struct vmt_record *rec)
{
	if (!rec && !t->npending && !t->noverflow && !t->w)
		return;
	struct shim_writer *w = writer_get(t);
	if (!w) {
		lose();
		return;
	}
	if (rec)
		check(w, put(w, rec));
	/* a signal may park another event while these are written: reset the
	 * queue only if it did not grow (a handler runs to completion first) */
	for (int i = 0, n;;) {
		n = __atomic_load_n(&t->npending, __ATOMIC_RELAXED);
		for (; i < n; i++) {
			struct vmt_record p = { .type = VMT_REC_EVENT };
			p.u.event = t->pending[i];
			check(w, put(w, &p));
		}
		if (__atomic_compare_exchange_n(&t->npending, &n, 0, 0, __ATOMIC_RELAXED,
		                                __ATOMIC_RELAXED))
			break;
	}
	drain_overflow(t, w);
	if (t->exiting) {
		pool_give(w);
		t->w = NULL;
	}
}

static int claim(struct shim_thread *t, int who)
{
	int free_ = 0;
	return __atomic_compare_exchange_n(&t->busy, &free_, who, 0,
	                                   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void release(struct shim_thread *t) { __atomic_store_n(&t->busy, 0, __ATOMIC_RELEASE); }

/* How long a write waits for another thread's flush of this thread's
 * writer (one chunk, microseconds) before it parks its event instead. */
#define FLUSH_WAIT 100000

__attribute__((hot)) int shim_write(const struct vmt_record *rec)
{
	struct shim_thread *t = &shim_self;
	int saved = errno;
	if (!shim.enabled || shim_vfork_child)
		return -1;          /* a vfork child's counts would be its parent's */
	for (int spin = 0; !claim(t, 1); spin++) {
		/* busy 2: an exit or exec path flushes this writer from another
		 * thread, for a moment.  busy 1: this thread holds it itself, a
		 * signal handler's call interrupted the recorder's own writing
		 * (the thread's end hands its writer back after the program's
		 * last call there); its event waits for the thread's next write. */
		if (__atomic_load_n(&t->busy, __ATOMIC_RELAXED) == 2 && spin < FLUSH_WAIT) {
			__builtin_ia32_pause();
			continue;
		}
		if (rec->type == VMT_REC_EVENT && park(t, &rec->u.event) == 0)
			return 0;
		if (rec->type != VMT_REC_EVENT)
			lose();
		return -1;
	}
	write_locked(t, rec);
	release(t);
	errno = saved;
	return 0;
}

/* Events a signal handler parked after the holder of the writer had
 * drained the queue (a handler that ran between its drain and its
 * release, or inside a hook after its write): written as soon as the
 * thread is out of every hook and holds nothing, or they would wait for
 * a next write that never comes (a thread's last call, its end with no
 * stack release to record).  A handler that parks during this write is
 * seen by the next round; one after the last look finds the writer free
 * and writes its own.  busy 1 here: this is a handler inside the holder,
 * which looks again after its release. */
static void write_parked(struct shim_thread *t)
{
	for (int spin = 0; __atomic_load_n(&t->npending, __ATOMIC_RELAXED) ||
	                   __atomic_load_n(&t->noverflow, __ATOMIC_RELAXED);) {
		if (claim(t, 1)) {
			write_locked(t, NULL);
			release(t);
		} else if (__atomic_load_n(&t->busy, __ATOMIC_RELAXED) == 2 && spin++ < FLUSH_WAIT) {
			__builtin_ia32_pause();
		} else {
			return;
		}
	}
}

/* A vfork child: a writer of its own for one record, written at once. */
/* The first record of a vfork child announces it (image 0: a copy of its
 * parent's) under a sequence number reserved by call_begin. */
static int32_t vfork_announced;

static void write_detached(const struct vmt_record *rec, uint64_t announce_seq)
{
	int saved = errno;
	int32_t pid = rec->type == VMT_REC_FILE ? rec->u.file.pid
	            : rec->type == VMT_REC_ARGV ? rec->u.argv.pid : rec->u.event.pid;
	if (!shim.store.base)
		return;
	struct shim_writer *w = writer_new(pid, pid, 0);
	/* its records go out in one chunk at the close: where that fails
	 * (no room) they are lost, and counted in shim.lost, which is the
	 * parent's (this task runs on its memory): its END says them */
	int n = 0, r = w ? 0 : -1;
	if (announce_seq && vfork_announced != pid) {
		struct vmt_record p = { .type = VMT_REC_PROCESS };
		p.u.process = (struct vmt_process){
			.seq = announce_seq, .time_ns = rec->u.event.time_ns, .pid = pid,
			.ppid = shim.pid, .image = 0, .exe = "", .cmdline = "",
		};
		if (w && !r)
			r = vmt_write(w->w, &p);
		n++;
		vfork_announced = pid;
	}
	if (rec->type != VMT_REC_EVENT || rec->u.event.sys) {
		if (w && !r)
			r = vmt_write(w->w, rec);
		n++;
	}
	if (w) {
		if (r)
			check(w, r);
		if (writer_close(w) < 0)
			r = -1;
	} else {
		shim_output_failed("out of recorder memory");
	}
	if (r)
		__atomic_add_fetch(&shim.lost, (uint64_t)n, __ATOMIC_RELAXED);
	errno = saved;
}

/* A vfork child's files are named in its own pid's id space, from 1 in
 * the order it names them (the parent is suspended: nothing else counts). */
static int32_t vfork_files_pid;
static uint32_t vfork_files;

uint32_t shim_vfork_files(void)
{
	return vfork_files_pid == (int32_t)raw0(SYS_getpid) ? vfork_files : 0;
}

uint32_t shim_vfork_file(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type)
{
	struct vmt_record rec = { .type = VMT_REC_FILE };
	int32_t pid = (int32_t)raw0(SYS_getpid);
	if (vfork_files_pid != pid) {
		vfork_files_pid = pid;
		vfork_files = 0;
	}
	rec.u.file = (struct vmt_file){ .id = ++vfork_files, .pid = pid, .dev = dev,
	                                .ino = ino, .size = size, .path = path, .fs_type = fs_type };
	write_detached(&rec, 0);
	return vfork_files;
}

void shim_vfork_write(const struct vmt_record *rec)
{
	write_detached(rec, 0);
}

void shim_announce_vfork_child(const struct shim_call *c)
{
	struct vmt_record none = { .type = VMT_REC_EVENT };
	none.u.event.pid = (int32_t)raw0(SYS_getpid);
	none.u.event.time_ns = shim_now();
	if (c->announce_seq)
		write_detached(&none, c->announce_seq);
}

__attribute__((hot)) void call_begin(struct shim_call *c, int sys, uint64_t a0, uint64_t a1, uint64_t a2,
                uint64_t a3, uint64_t a4, uint64_t a5)
{
	c->announce_seq = 0;
	c->gated = 0;
	if (!shim_vfork_child) {    /* a vfork child must leave its parent's state */
		/* the depth counts this call once it passed the gate: a signal
		 * handler's call at the gate's entry (under this call's mark, or
		 * while it waits) is an outermost one and writes its own record;
		 * parked, it waited for a call that may wait at the gate until
		 * the process's exit ends the thread */
		if (shim_self.depth == 0)
			c->gated = (uint8_t)forkgate_enter();
		else
			c->gated = (uint8_t)forkgate_nested();
		shim_self.depth++;
	} else if (vfork_announced != (int32_t)raw0(SYS_getpid))
		c->announce_seq = shim_next_seq();
	c->sys = sys;
	c->flags = shim_trap_flags;
	c->file_id = 0;
	c->args[0] = a0; c->args[1] = a1; c->args[2] = a2;
	c->args[3] = a3; c->args[4] = a4; c->args[5] = a5;
	c->seq = shim_next_seq();
	c->t0 = 0;
}

/* glibc's last call in a thread: madvise(stack, size, MADV_DONTNEED) of
 * the unused part of its own stack, ending just below the stack pointer
 * (a PTHREAD_STACK_MIN and a page at most).  Other calls after the TSD
 * destructors (a sanitizer's clean-up) are not it. */
static int is_stack_release(const struct vmt_event *ev)
{
	uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0);
	uint64_t end = ev->args[0] + ev->args[1];
	return ev->sys == VMT_SYS_MADVISE && ev->args[2] == MADV_DONTNEED &&
	       !ev->err && end <= sp && sp - end <= (64u << 10);
}

__attribute__((hot)) void call_end(struct shim_call *c, long ret)
{
	struct shim_thread *t = &shim_self;
	/* only the event is set: zeroing the whole record (400 bytes, for the
	 * header's host strings) was half of this function's time */
	struct vmt_record rec;
	rec.type = VMT_REC_EVENT;
	struct vmt_event *ev = &rec.u.event;
	*ev = (struct vmt_event){
		.seq = c->seq, .seq_end = shim_seq_now(), .latency_ns = latency(c),
		.time_ns = c->t0 ? c->t0 : shim_now(),
		.pid = shim.pid, .tid = t->tid && t->pid == shim.pid ? t->tid : (int32_t)raw0(SYS_gettid),
		.file_id = c->file_id,
	};
	if (c->gated && t->depth == 1 && !shim_vfork_child)
		forkgate_order_done();      /* what this call took, not the call it interrupted */
	capture_event(ev, c->sys, c->args, ret, c->flags);
	if (shim.stacks && t->depth == 1)
		ev->stack_id = stacks_capture(shim.stacks);

	if (shim_vfork_child) {
		ev->pid = ev->tid = (int32_t)raw0(SYS_getpid);
		write_detached(&rec, c->announce_seq);
		return;
	} else if (t->depth > 1) {          /* inside a signal during a hook */
		park(t, ev);
	} else {
		shim_write(&rec);
	}
	/* parked records before leaving the gate: an exit waits for them too */
	if (--t->depth == 0 && __builtin_expect(t->npending || t->noverflow, 0))
		write_parked(t);
	if (c->gated)
		forkgate_leave();
	if (t->exit_pending && t->depth == 0 && is_stack_release(ev))
		write_exit_event();
}

void shim_flush_self(void)
{
	struct shim_thread *t = &shim_self;
	if (!claim(t, 1))
		return;
	if (t->npending || t->noverflow)
		write_locked(t, NULL);
	if (t->w && t->pid == shim.pid)
		check(t->w, vmt_writer_flush(t->w->w));
	release(t);
	write_parked(t);
}

void shim_flush_all(void)
{
	int saved = errno;
	shim_flush_self();
	for (int i = 0, n = __atomic_load_n(&threads_hw, __ATOMIC_ACQUIRE); i < n; i++) {
		struct shim_thread *t = __atomic_load_n(&threads[i], __ATOMIC_ACQUIRE);
		if (!t || t == &shim_self || !claim(t, 2))
			continue;
		if (t->w && t->pid == shim.pid)
			check(t->w, vmt_writer_flush(t->w->w));
		release(t);
	}
	pool_flush();
	errno = saved;
}

void shim_forget_threads(void)
{
	npool = 0;                  /* the parent's buffers: never written here */
	pool_lock = 0;
	/* only what is set is cleared: a page written here is a page the
	 * fork copies */
	for (int i = 0; i < threads_hw; i++)
		if (threads[i])
			threads[i] = NULL;
	threads_hw = 0;
	shim_self.w = NULL;        /* the parent's buffer: never written here */
	shim_self.busy = 0;
	shim_self.npending = 0;
	shim_self.noverflow = 0;
	for (int i = 0; i < overflow_hw; i++)   /* the parent's threads' events */
		if (overflow[i].owner)
			overflow[i].owner = NULL;       /* a free slot's event is never read */
	overflow_hw = 0;
	shim.lost = 0;              /* the parent's */
}

/* A new thread, before its start routine: arm the exit notification. */
void shim_thread_start(int32_t tid)
{
	/* glibc reuses cached stacks, and static TLS with them: start clean */
	memset(&shim_self, 0, sizeof shim_self);
	forkgate_thread_start();
	/* asked once: the thread's events and its writer all need it */
	shim_self.pid = shim.pid;
	shim_self.tid = tid > 0 ? tid : (int32_t)raw0(SYS_gettid);
	shim_vfork_child = 0;
	shim_trap_flags = 0;
	if (have_exit_key)
		pthread_setspecific(exit_key, (void *)1);
}

static void write_exit_event(void)
{
	struct shim_call c;
	shim_self.exit_pending = 0;
	call_begin(&c, VMT_SYS_EXIT, 0, 0, 0, 0, 0, 0);
	c.flags |= VMT_EV_NORETURN;
	call_end(&c, 0);
}

/* Whether glibc will release this thread's stack with madvise once its
 * destructors are done: it does for a stack it allocated itself (unless
 * less than PTHREAD_STACK_MIN lies below its frame: not decidable from
 * here, so such a thread's exit stays unrecorded, as before), never for a
 * stack of the program's own.  When the set overflowed, assume it does. */
static int stack_released(void)
{
	return stackset_holds((uint64_t)(uintptr_t)__builtin_frame_address(0)) != 0;
}

/* The thread's pthread key destructor: glibc runs it last, then releases
 * the stack with madvise (when glibc allocated it) and issues exit(0)
 * inline, where no hook sees it.  So the writer is closed here, later
 * records are written through, and the exit event follows that madvise,
 * or is written now when no madvise will come (released: 0, a stack of
 * the program's own). */
static void thread_exit(int released)
{
	struct shim_thread *t = &shim_self;
	if (!shim.enabled || !claim(t, 1))
		return;
	uint8_t sud = sud_enter();
	unregister_thread(t);
	forkgate_thread_gone();
	/* a fork or the process's exit waits for the hand-back: else the
	 * exit finished the trace while this wrote or held parked records */
	int held = forkgate_hold();
	t->exiting = 1;
	t->exit_pending = 1;
	write_locked(t, NULL);      /* hands the writer to the pool */
	test_signal(AT_THREAD_EXIT);
	release(t);
	write_parked(t);
	if (!released)
		write_exit_event();
	if (held)
		forkgate_leave();
	sud_leave(sud);
}

void shim_thread_exit(void) { thread_exit(stack_released()); }

static void finish_if_last(int64_t live)
{
	/* the launcher waits for every process of its tree and finishes */
	if (shim.store.head->launcher)
		return;
	/* a few left: perhaps processes that ended unseen (a raw exit after a
	 * clone, a kill): whoever leaves looks (bounded: never per process of
	 * a large tree) */
	if (live > 0 && live <= 16)
		live = vmt_store_reap(&shim.store, shim.pid);
	if (live > 0)
		return;
	char msg[256];
	if (vmt_store_finish(&shim.store, NULL, 0, NULL, 0, &shim_alloc, msg, sizeof msg) == 0) {
		vmt_store_remove(&shim.store);
	} else {
		static const char pre[] = "vmrec: cannot finish the trace: ",
		                  kept[] = "; the records stay in ", how[] = " (vmrec --finish STORE)\n";
		raw3(SYS_write, 2, pre, sizeof pre - 1);
		raw3(SYS_write, 2, msg, strlen(msg));
		raw3(SYS_write, 2, kept, sizeof kept - 1);
		raw3(SYS_write, 2, shim.store.path, strlen(shim.store.path));
		raw3(SYS_write, 2, how, sizeof how - 1);
	}
}

void shim_live_add(int n)
{
	if (!shim.store.base)
		return;
	finish_if_last(__atomic_add_fetch(&shim.store.head->live, n, __ATOMIC_ACQ_REL));
}

/* The process exits (exit_group or _exit, from this thread): from here
 * on no handler runs in this thread and no other thread starts a recorded
 * call, and those in flight end first (forkgate_exit), so every call the
 * process made comes before its exit event and END, and none after the
 * trace is finished, where it would be lost without a word.  Natively the
 * process is gone by then.  Not in a vfork child or a CLONE_VM task of
 * another pid: the gate is its parent's, which goes on. */
void shim_exit_begin(void)
{
	if (!shim.enabled || shim_vfork_child || (int32_t)raw0(SYS_getpid) != shim.pid)
		return;
	uint64_t all = ~0ull;
	raw4(SYS_rt_sigprocmask, SIG_BLOCK, &all, NULL, sizeof all);
	forkgate_exit();
}

void shim_process_end(uint32_t how, int32_t status)
{
	if (!shim.enabled || shim_vfork_child || !shim.proc ||
	    shim.proc->state != VMT_PROC_RUNNING)
		return;
	struct vmt_record rec = { .type = VMT_REC_END };
	rec.u.end = (struct vmt_end){ .seq = shim_next_seq(), .pid = shim.pid, .how = how,
	                              .status = status, .lost = __atomic_load_n(&shim.lost, __ATOMIC_RELAXED) };
	shim_write(&rec);
	shim_flush_all();
	if (vmt_store_proc_leave(&shim.store, shim.proc, VMT_PROC_ENDED))
		finish_if_last(__atomic_load_n(&shim.store.head->live, __ATOMIC_ACQUIRE));
	test_signal(AT_PROCESS_END);
}
