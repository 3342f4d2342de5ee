/* The replay loop.  Kernel target: the driver forks one replayer per root
 * process; a replayer forks again at every recorded fork, so each recorded
 * process is replayed by its own OS process, and all of them take turns on
 * a shared step counter so the recorded global order is kept.  With
 * --threads each recorded thread (a lane) runs in its own thread instead,
 * and a step waits only for the steps deps.c says it must follow.
 * Simulator target: one replayer owns every process. */
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "replay/deps.h"
#include "replay/engine_int.h"
#include "replay/fidelity.h"
#include "replay/ipc.h"
#include "replay/latency.h"
#include "replay/membudget.h"
#include "replay/set_break.h"
#include "replay/vmaquery.h"

/* ---- turns ---------------------------------------------------------- */

static long futex(_Atomic uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static void advance_turn_past_finished(struct rp_engine *e)
{
	uint32_t cur = atomic_load(&e->sh->turn);
	for (;;) {
		uint32_t next = cur;
		while (next < e->t->nsteps && atomic_load(&e->sh->slots[e->t->steps[next].slot].finished))
			rp_trace_tick(e->t, next++);
		if (next == cur)
			return;
		if (atomic_compare_exchange_weak(&e->sh->turn, &cur, next)) {
			futex(&e->sh->turn, FUTEX_WAKE, INT32_MAX, NULL);
			return;
		}
	}
}

static void note_death(struct rp_engine *e, pid_t pid, int status)
{
	for (size_t s = 0; s < e->t->nprocs; s++) {
		struct rp_slot_state *st = &e->sh->slots[s];
		if (st->real_pid != pid || atomic_load(&st->finished))
			continue;
		atomic_store(&st->finished, 1);
		if (!atomic_load(&e->sh->stopped))   /* the budget's kills are said once, by it */
			rp_incomplete(e, "the replay of pid %d ended abnormally (%s %d); its remaining events are skipped",
			              e->t->procs[s].pid, WIFSIGNALED(status) ? "signal" : "exit status",
			              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		advance_turn_past_finished(e);
	}
}

/* ---- the memory budget ------------------------------------------------ */

/* What the replay holds: the driver, and what each running replayer holds
 * beyond what it had when it started (a fork child starts with its
 * parent's pages, shared, counted once). */
static uint64_t replay_memory(struct rp_engine *e)
{
	int64_t total = rp_mem_resident(0);
	for (size_t s = 0; s < e->t->nprocs; s++) {
		const struct rp_slot_state *st = &e->sh->slots[s];
		if (!st->real_pid || atomic_load(&st->finished) || st->real_pid == e->driver_pid)
			continue;
		int64_t now = rp_mem_resident(st->real_pid), base = st->rss_base;
		if (now > base && base >= 0)
			total += now - base;
	}
	return total > 0 ? (uint64_t)total : 0;
}

/* Past the budget: every replayer is killed (a kill ends even a call that
 * populates memory), the replay says why and where it was. */
static int over_budget(struct rp_engine *e)
{
	uint64_t used = replay_memory(e);
	if (used > e->mem_peak)
		e->mem_peak = used;
	if (!e->mem_limit || used <= e->mem_limit)
		return 0;
	atomic_store(&e->sh->stopped, 1);
	for (size_t s = 0; s < e->t->nprocs; s++) {
		const struct rp_slot_state *st = &e->sh->slots[s];
		if (st->real_pid > 0 && st->real_pid != e->driver_pid && !atomic_load(&st->finished))
			kill(st->real_pid, SIGKILL);
	}
	char u[32], l[32];
	rp_mem_format(used, u, sizeof u);
	rp_mem_format(e->mem_limit, l, sizeof l);
	uint64_t at = atomic_load(&e->sh->order);
	rp_incomplete(e, "the replay held %s, more than its memory budget of %s (--mem-limit), after %llu of %zu events: stopped",
	              u, l, (unsigned long long)at, e->t->nevents);
	return 1;
}

/* The driver while the replayers run: reaps them, watches the budget every
 * 50 ms and shows progress every 200 ms. */
static void drive(struct rp_engine *e)
{
	uint64_t n = 0;
	int stopped = 0;
	for (;; n++) {
		int status;
		pid_t pid;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			note_death(e, pid, status);
		if (pid < 0)
			break;
		if (!stopped)
			stopped = over_budget(e);
		if (e->tick && n % 4 == 0)
			e->tick(e, atomic_load(&e->sh->order));
		usleep(50 * 1000);
	}
}

static void reap(struct rp_engine *e, int flags)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, flags)) > 0)
		note_death(e, pid, status);
}

/* The driver is gone: nobody will collect the results. */
static void exit_if_orphaned(pid_t driver)
{
	if (kill(driver, 0) < 0 && errno == ESRCH)
		_exit(1);
}

/* The replayer `pid`, whose process did the step before this one as its
 * last, has ended: its memory and descriptors are given back, as a
 * recorded parent that waited for its child (wait4) found them (a
 * hugetlbfs file's huge pages held by the child's mapping or descriptor
 * are free for the parent's next file).  A pidfd is readable once the
 * process has exited, which is after its memory and files went. */
static void wait_gone(pid_t pid, pid_t driver)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return;   /* reaped already (or a kernel without pidfds, before 5.3) */
	struct pollfd pf = { .fd = fd, .events = POLLIN };
	int r;
	while ((r = poll(&pf, 1, 50)) == 0 || (r < 0 && errno == EINTR))
		exit_if_orphaned(driver);
	close(fd);
}

static void wait_turn(struct rp_engine *e, uint32_t step)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	uint32_t cur;
	for (int spin = 0; (cur = atomic_load(&e->sh->turn)) != step; spin++) {
		if (spin < 200) {
			__builtin_ia32_pause();
			continue;
		}
		atomic_fetch_add(&e->sh->waiters, 1);
		long r = futex(&e->sh->turn, FUTEX_WAIT, cur, &tick);
		atomic_fetch_sub(&e->sh->waiters, 1);
		if (r < 0 && errno == ETIMEDOUT) {
			reap(e, WNOHANG);
			exit_if_orphaned(e->driver_pid);
		}
	}
	pid_t gone = atomic_exchange(&e->sh->gone, 0);
	if (gone)
		wait_gone(gone, e->driver_pid);
}

static void pass_turn(struct rp_engine *e, uint32_t step)
{
	uint32_t next = step + 1;
	while (next < e->t->nsteps && atomic_load(&e->sh->slots[e->t->steps[next].slot].finished))
		rp_trace_tick(e->t, next++);
	atomic_store(&e->sh->turn, next);
	if (atomic_load(&e->sh->waiters))
		futex(&e->sh->turn, FUTEX_WAKE, INT32_MAX, NULL);
}

/* ---- --threads: lanes ------------------------------------------------- */

/* Per lane, in memory shared by every replayer, one cache line each. */
struct lane_state {
	_Atomic uint32_t done;      /* every step of the lane below this index is done */
	_Atomic uint32_t waiters;
	char pad[56];
};

struct rp_threads {
	struct rp_deps deps;
	struct lane_state *lanes;   /* MAP_SHARED, deps.nlanes */
	size_t lanes_bytes;
	/* the process's replay state (address map, counts, order) between
	 * calls; the back end releases it during each call so the calls
	 * themselves overlap (rp_backend_cfg.release) */
	pthread_mutex_t lock;
	struct lane_arg { struct rp_engine *e; uint32_t lane; } *args;   /* per lane */
	pthread_t *threads;         /* this replayer's lane threads, under lock */
	size_t nthreads, cap;
	/* the lanes' thread stacks, one per lane but the main ones, mapped by
	 * the driver before placement so they never land among replayed
	 * mappings (a thread starts after its process's image is built) */
	char *stacks;
	size_t stacks_bytes;
	uint32_t *stack_of;         /* per lane */
	size_t stepped;             /* steps this replayer's lanes did, under lock */
};

/* A replayer's lanes drop every spilled array (the trace's, the results,
 * the dependencies) each LANE_DROP_STEPS steps they do between them, so
 * what they hold is what those steps touched, however long the trace and
 * however far apart its lanes run: a step touches an entry of each array
 * (a page of each when its process's steps are sparse among others'),
 * ~8 MB of pages at most in the worst case at this count, a few hundred
 * KB when the steps are dense.  A count of the lanes' own steps, not a
 * window of the trace's: lanes of one process may be far apart in it, and
 * the one behind would otherwise hold everything it walks until the one
 * ahead enters a new window.  After a drop each lane faults its current
 * pages in again: a few faults a lane per drop. */
enum { LANE_STACK = 256 << 10, LANE_DROP_STEPS = 4096 };

static void lock_release(void *th) { pthread_mutex_unlock(&((struct rp_threads *)th)->lock); }
static void lock_take(void *th) { pthread_mutex_lock(&((struct rp_threads *)th)->lock); }

static void wait_deps(struct rp_engine *e, size_t s)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	const struct rp_deps *d = &e->thr->deps;
	for (uint32_t i = d->off[s]; i < d->off[s + 1]; i++) {
		uint32_t want = d->dep[i], lane = d->lane[want];
		struct lane_state *l = &e->thr->lanes[lane];
		uint32_t cur;
		for (int spin = 0; (cur = atomic_load_explicit(&l->done, memory_order_acquire)) <= want; spin++) {
			if (atomic_load(&e->sh->slots[d->lane_slot[lane]].finished))
				break;   /* that replayer is gone */
			if (spin < 200) {
				__builtin_ia32_pause();
				continue;
			}
			atomic_fetch_add(&l->waiters, 1);
			long r = futex(&l->done, FUTEX_WAIT, cur, &tick);
			atomic_fetch_sub(&l->waiters, 1);
			if (r < 0 && errno == ETIMEDOUT) {
				reap(e, WNOHANG);
				if (kill(e->driver_pid, 0) < 0 && errno == ESRCH)
					_exit(1);
			}
		}
	}
}

/* Touches every page of the arrays the replay loop walks, once, in the
 * replayer before its first measured call.  The pages are present (the
 * driver loaded the trace, MADV_POPULATE_WRITE mapped the results), yet a
 * hypervisor that shadows the guest's page tables (PVM, as on the machines
 * `make bench` runs on) still takes a fault of its own, invisible to
 * getrusage, on a page's first touch in each process: ~8 us, once per 23
 * events of a brk trace, which added 0.37 us to each replayed brk
 * (docs/replay-cost.md).  Results are touched by an atomic add of 0:
 * replayers of other processes may write their own events beside them. */
static void touch_pages(const void *p, size_t bytes, int write)
{
	const size_t pg = VMT_PAGE;
	if (!p || !bytes)
		return;
	/* p, then each page start after it: never a byte outside the array
	 * (its page is the same, but under ASan the bytes before are a
	 * redzone) */
	char *c = (char *)p;
	char *end = (char *)p + bytes;
	for (; c < end; c = (char *)(((uintptr_t)c & ~(uintptr_t)(pg - 1)) + pg)) {
		if (write)
			__atomic_fetch_add(c, 0, __ATOMIC_RELAXED);
		else
			(void)*(volatile const char *)c;
	}
}

void rp_engine_window(const struct rp_engine *e, size_t ev)
{
	const struct rp_trace *t = e->t;
	rp_trace_drop(t);
	rp_spill_drop(&e->ev_sp);
	rp_spill_populate(&t->events_sp, ev * sizeof(*t->events), RP_SPILL_WINDOW * sizeof(*t->events), 0);
	rp_spill_populate(&e->ev_sp, ev * sizeof(*e->sh->ev), RP_SPILL_WINDOW * sizeof(*e->sh->ev), 0);
}

/* The window of steps from s, their events and results resident, the rest
 * dropped (spill.h): the serial replay's memory stays flat however long
 * the trace is. */
static void window(struct rp_engine *e, size_t s)
{
	size_t ev = rp_trace_window(e->t, s);
	rp_spill_drop(&e->ev_sp);
	if (ev != SIZE_MAX)
		rp_spill_populate(&e->ev_sp, ev * sizeof(*e->sh->ev), RP_SPILL_WINDOW * sizeof(*e->sh->ev), 1);
}

static void touch_trace(struct rp_engine *e, size_t from)
{
	window(e, from);
	touch_pages(e->sh, e->shared_bytes, 1);
}

static void lane_advance(struct rp_engine *e, uint32_t lane, uint32_t done)
{
	struct lane_state *l = &e->thr->lanes[lane];
	atomic_store(&l->done, done);
	if (atomic_load(&l->waiters))
		futex(&l->done, FUTEX_WAKE, INT32_MAX, NULL);
}

/* ---- the loop -------------------------------------------------------- */

/* inlined into both loops: a call per step costs the default loop ~1% */
__attribute__((hot, always_inline)) static inline int do_step(struct rp_engine *e, size_t s)
{
	const struct rp_step *st = &e->t->steps[s];
	struct rp_pstate *p = &e->ps[st->slot];
	if (!p->t_first && st->kind == RP_EVENT) {
		p->t_first = lat_now();
		e->sh->slots[st->slot].t_first = p->t_first;
	}
	switch (st->kind) {
	case RP_PROCESS:
		if (e->t->images[st->idx].image > 0 || e->t->procs[st->slot].parent_slot < 0)
			p->needs_build = 1;
		break;
	case RP_MAP:
		if (p->needs_build || !p->built)
			rp_build_image(e, s, st->slot, p, &e->t->maps[st->idx]);
		break;
	case RP_CHECKPOINT:
		if (!p->built)
			rp_build_image(e, s, st->slot, p, NULL);
		p->count = rp_full_count(e->be, p);
		e->sh->ck[st->idx] = p->count;
		if (p->count != (int64_t)(e->t->cks[st->idx].vma_count - e->t->cks[st->idx].recorder_vmas) &&
		    !e->quiet_mismatch)
			rp_fidelity_snap(e, p, st->idx);
		if (p->count > p->peak)
			p->peak = p->count;
		rp_publish_count(&e->sh->slots[st->slot], p);
		if (e->be->show_map && getenv("VMREPLAY_DUMP_MAPS"))
			e->be->show_map(p->space);
		break;
	case RP_RESIDENCY:
		if (p->built)
			rp_touch(e, p, &e->t->res[st->idx]);
		break;
	case RP_EVENT:
		if (!p->built)
			rp_build_image(e, s, st->slot, p, NULL);
		if (!p->space)
			break;
		if (rp_replay_event(e, st->slot, p, st->idx) == STEP_FORK_CHILD)
			return STEP_FORK_CHILD;
		break;
	}
	return STEP_DONE;
}

static size_t run_steps(struct rp_engine *e, size_t from);
static size_t run_lane(struct rp_engine *e, uint32_t lane, size_t from);
static void replayer(struct rp_engine *e, size_t from);

/* The replay of one process, from `from`, to its end; never returns. */
static void replay_process(struct rp_engine *e, size_t from)
{
	replayer(e, from);
	/* not waiting for its children: the step after this process's last
	 * may wait for this replayer to end (wait_gone), and they may need
	 * turns after it; the driver (their subreaper) reaps them */
	reap(e, WNOHANG);
	fflush(NULL);
	_exit(0);
}

/* --threads: every recorded thread (lane) of a process is replayed by its
 * own thread of the replayer, started where the recorded clone made it, or
 * with the process; non-event steps (maps, checkpoints, residency) belong
 * to the lane with tid == pid. */
static void *lane_main(void *arg)
{
	const struct lane_arg *a = arg;
	struct rp_engine *e = a->e;
	size_t at = run_lane(e, a->lane, 0);
	if (at < e->t->nsteps)
		replay_process(e, at + 1);   /* this thread forked: it is the child now */
	return NULL;
}

/* Nobody waits for a lane that will not run, nor for the lanes its
 * clones would have started. */
static void release_lane(struct rp_engine *e, uint32_t lane)
{
	const struct rp_deps *d = &e->thr->deps;
	lane_advance(e, lane, UINT32_MAX);
	for (uint32_t i = 0; i < d->nspawns; i++)
		if (d->lane[d->lane_spawn[d->spawns[i]]] == lane)
			release_lane(e, d->spawns[i]);
}

/* Start lane's thread (with the lock held once lanes run); a lane left
 * without one is released, so nobody waits for it. */
static void start_lane(struct rp_engine *e, uint32_t lane)
{
	struct rp_threads *th = e->thr;
	if (lane == UINT32_MAX || th->deps.lane_first[lane] == UINT32_MAX)
		return;
	if (th->nthreads == th->cap) {
		size_t cap = th->cap ? 2 * th->cap : 64;
		pthread_t *n = realloc(th->threads, cap * sizeof(*n));
		if (!n)
			goto fail;
		th->threads = n;
		th->cap = cap;
	}
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, th->stacks + (size_t)th->stack_of[lane] * LANE_STACK, LANE_STACK);
	int r = pthread_create(&th->threads[th->nthreads], &attr, lane_main, &th->args[lane]);
	pthread_attr_destroy(&attr);
	if (r == EINVAL)   /* a static TLS too large for it (sanitizers): a stack of its own */
		r = pthread_create(&th->threads[th->nthreads], NULL, lane_main, &th->args[lane]);
	if (r == 0) {
		th->nthreads++;
		return;
	}
fail:
	rp_say(e, "pid %d: cannot start a thread for tid %d; its calls are skipped",
	       e->t->procs[th->deps.lane_slot[lane]].pid, th->deps.lane_tid[lane]);
	release_lane(e, lane);
}

/* The lanes of `slot` no recorded clone starts; returns the main one
 * (tid == pid), UINT32_MAX when it has no steps. */
static uint32_t start_lanes(struct rp_engine *e, uint32_t slot)
{
	const struct rp_deps *d = &e->thr->deps;
	int32_t pid = e->t->procs[slot].pid;
	uint32_t main_lane = UINT32_MAX;
	e->thr->nthreads = 0;   /* a fork child: the parent's threads are not here */
	for (uint32_t l = 0; l < d->nlanes; l++) {
		if (d->lane_slot[l] != slot)
			continue;
		if (d->lane_tid[l] == pid)
			main_lane = l;
		else if (d->lane_spawn[l] == UINT32_MAX)
			start_lane(e, l);
	}
	return main_lane;
}

static void join_lanes(struct rp_engine *e)
{
	struct rp_threads *th = e->thr;
	for (size_t i = 0;; i++) {
		pthread_mutex_lock(&th->lock);   /* lanes may still start lanes */
		int more = i < th->nthreads;
		pthread_t t = more ? th->threads[i] : 0;
		pthread_mutex_unlock(&th->lock);
		if (!more)
			break;
		pthread_join(t, NULL);
	}
}

/* The steps of `lane` from `from`, each after the steps it depends on.
 * Returns as run_steps does. */
static size_t run_lane(struct rp_engine *e, uint32_t lane, size_t from)
{
	struct rp_threads *th = e->thr;
	const struct rp_deps *d = &th->deps;
	uint32_t s = d->lane_first[lane];
	while (s != UINT32_MAX && s < from)
		s = d->next[s];
	for (; s != UINT32_MAX; s = d->next[s]) {
		wait_deps(e, s);
		pthread_mutex_lock(&th->lock);
		int r = do_step(e, s);
		if (r == STEP_DONE && d->nspawns && e->t->steps[s].kind == RP_EVENT)
			start_lane(e, rp_deps_spawned(d, s));
		if (++th->stepped % LANE_DROP_STEPS == 0) {
			rp_trace_drop(e->t);
			rp_spill_drop(&e->ev_sp);
			rp_deps_drop(d);
		}
		pthread_mutex_unlock(&th->lock);
		if (r == STEP_FORK_CHILD)
			return s;    /* the parent marks the fork done */
		lane_advance(e, lane, s + 1);
	}
	return e->t->nsteps;
}

/* Replays, from step `from`, the steps this replayer owns.  Returns the
 * step after the last one, or the fork step when this became a fork child. */
__attribute__((hot)) static size_t run_steps(struct rp_engine *e, size_t from)
{
	for (size_t s = from; s < e->t->nsteps; s++) {
		if (__builtin_expect(s % RP_SPILL_WINDOW == 0, 0) || s == from)
			window(e, s);
		if (!e->ps[e->t->steps[s].slot].owned)
			continue;
		if (e->multi)
			wait_turn(e, (uint32_t)s);
		if (do_step(e, s) == STEP_FORK_CHILD)
			return s;    /* the parent passes this turn */
		/* the simulator replays in the driver: it watches itself */
		if (__builtin_expect((s & 0xffff) == 0xffff, 0) && !e->be->replayer_processes && over_budget(e))
			return e->t->nsteps;
		if (!e->multi)
			continue;
		if (s == e->t->procs[e->t->steps[s].slot].last_step) {
			/* the process has ended: so does its replayer, before the
			 * next step (the one replayer process owns it alone).  Its
			 * image and stand-in go here first: the memory of a process
			 * that has exited is freed by whoever holds it last, which
			 * may be the driver reading its size (membudget.c).  One
			 * that a later process_madvise names lingers instead, its
			 * memory kept for that call (linger) */
			if (rp_last_remote_step(e, e->t->steps[s].slot) <= s + 1) {
				rp_end_image(e, &e->ps[e->t->steps[s].slot]);
				standins_close_lazy();
				atomic_store(&e->sh->gone, getpid());
			}
			pass_turn(e, (uint32_t)s);
			break;
		}
		pass_turn(e, (uint32_t)s);
	}
	return e->t->nsteps;
}

/* A process that another's later process_madvise names (format 6) keeps
 * its replayer, whose memory that call advises, until the call is done:
 * the recorded process lived on without a call of its own (a child
 * paused until killed).  Turns only (not --threads' lanes). */
static void linger(struct rp_engine *e, uint32_t slot)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	uint32_t until = e->multi && !e->thr ? rp_last_remote_step(e, slot) : 0, cur;
	while (until && (cur = atomic_load(&e->sh->turn)) < until) {
		atomic_fetch_add(&e->sh->waiters, 1);
		long r = futex(&e->sh->turn, FUTEX_WAIT, cur, &tick);
		atomic_fetch_sub(&e->sh->waiters, 1);
		if (r < 0 && errno == ETIMEDOUT && kill(e->driver_pid, 0) < 0 && errno == ESRCH)
			_exit(1);
	}
}

/* Replays, from step `from`, the steps of every process this replayer owns. */
static void replayer(struct rp_engine *e, size_t from)
{
	for (;;) {
		size_t at;
		if (e->thr) {
			uint32_t slot = 0;
			for (size_t s = 0; s < e->t->nprocs; s++)
				if (e->ps[s].owned)
					slot = (uint32_t)s;
			uint32_t main_lane = start_lanes(e, slot);
			at = main_lane == UINT32_MAX ? e->t->nsteps : run_lane(e, main_lane, from);
		} else {
			at = run_steps(e, from);
		}
		if (at >= e->t->nsteps)
			break;
		from = at + 1;   /* a fork child: replay the child from here */
	}
	if (e->thr)
		join_lanes(e);
	uint64_t end = lat_now();
	for (size_t s = 0; s < e->t->nprocs; s++)
		if (e->ps[s].owned && e->be->replayer_processes)
			linger(e, (uint32_t)s);
	for (size_t s = 0; s < e->t->nprocs; s++)
		if (e->ps[s].owned) {
			rp_publish_count(&e->sh->slots[s], &e->ps[s]);
			e->sh->slots[s].t_last = end;
			atomic_store(&e->sh->slots[s].finished, 1);
			advance_turn_past_finished(e);
		}
}

int rp_engine_run_once(struct rp_engine *e)
{
	const struct rp_trace *t = e->t;
	struct rp_shared *sh = e->sh;
	atomic_store(&sh->turn, 0);
	atomic_store(&sh->order, 0);
	atomic_store(&sh->incomplete, 0);
	atomic_store(&sh->stopped, 0);
	atomic_store(&sh->gone, 0);
	sh->why[0] = 0;
	e->order = 0;
	for (size_t s = 0; s < t->nprocs; s++) {
		sh->slots[s] = (struct rp_slot_state){ .start_count = -1, .end_count = -1, .peak = -1, .rss_base = -1 };
		e->ps[s] = (struct rp_pstate){ 0 };
	}
	/* a new mapping is zero: a second run clears what the first wrote */
	if (e->shared_used)
		rp_spill_zero(&e->ev_sp);
	e->shared_used = 1;
	for (size_t i = 0; i < t->ncks; i++)
		sh->ck[i] = INT64_MIN;
	atomic_store(&sh->nsnaps, 0);
	atomic_store(&sh->snap_used, 0);
	memset(sh->model, 0, sizeof sh->model);
	if (e->thr)
		memset(e->thr->lanes, 0, e->thr->deps.nlanes * sizeof(*e->thr->lanes));
	if (!e->be->replayer_processes) {
		for (size_t s = 0; s < t->nprocs; s++)
			if (t->procs[s].parent_slot < 0) {
				e->ps[s].owned = 1;
				e->ps[s].needs_build = 1;
			}
		replayer(e, 0);
		for (size_t s = 0; s < t->nprocs; s++) {
			e->ps[s].owned = 0;
			if (e->ps[s].space)
				rp_space_free(e, e->ps[s].space);
			am_free(&e->ps[s].am);
			am_free(&e->ps[s].holds);
		}
		return 0;
	}
	fflush(NULL);
	for (size_t s = 0; s < t->nprocs; s++) {
		if (t->procs[s].parent_slot >= 0)
			continue;
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "vmreplay: fork: %s\n", strerror(errno));
			atomic_store(&sh->slots[s].finished, 1);
			continue;
		}
		if (pid == 0) {
			standins_forget_in_child();
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			vq_close();
			vq_open();
			sh->slots[s].real_pid = getpid();
			/* fault the shared results in now, not between measured calls */
			madvise(e->sh, e->shared_bytes, MADV_POPULATE_WRITE);
			touch_trace(e, t->procs[s].first_step);
			sh->slots[s].rss_base = rp_mem_resident(0);
			e->ps[s].owned = 1;
			e->ps[s].needs_build = 1;
			replay_process(e, t->procs[s].first_step);
		}
		sh->slots[s].real_pid = pid;
	}
	drive(e);
	advance_turn_past_finished(e);
	return 0;
}

/* ---- setup ----------------------------------------------------------- */

static void threads_free(struct rp_threads *th)
{
	if (th->lanes)
		munmap(th->lanes, th->lanes_bytes);
	if (th->stacks)
		munmap(th->stacks, th->stacks_bytes);
	free(th->stack_of);
	free(th->args);
	rp_deps_free(&th->deps);
	pthread_mutex_destroy(&th->lock);
	free(th->threads);
	free(th);
}

/* --threads: the wait-for lists of every step (once per trace) and the
 * lanes' shared progress. */
static int threads_init(struct rp_engine *e)
{
	struct rp_threads *th = calloc(1, sizeof(*th));
	if (!th)
		goto nomem;
	pthread_mutex_init(&th->lock, NULL);
	if (rp_deps_build(&th->deps, e->t, e->o->placement == RP_PLACE_KERNEL, e->page) < 0)
		goto nomem;
	th->lanes_bytes = (th->deps.nlanes * sizeof(*th->lanes) + VMT_PAGE - 1) & ~(size_t)(VMT_PAGE - 1);
	if (!th->lanes_bytes)
		th->lanes_bytes = VMT_PAGE;
	th->lanes = mmap(NULL, th->lanes_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (th->lanes == MAP_FAILED) {
		th->lanes = NULL;
		goto nomem;
	}
	th->stack_of = calloc(th->deps.nlanes + 1, sizeof(*th->stack_of));
	th->args = calloc(th->deps.nlanes + 1, sizeof(*th->args));
	if (!th->stack_of || !th->args)
		goto nomem;
	for (uint32_t l = 0; l < th->deps.nlanes; l++)
		th->args[l] = (struct lane_arg){ e, l };
	uint32_t n = 0;
	for (uint32_t l = 0; l < th->deps.nlanes; l++)
		if (th->deps.lane_tid[l] != e->t->procs[th->deps.lane_slot[l]].pid)
			th->stack_of[l] = n++;
	if (n) {
		th->stacks_bytes = (size_t)n * LANE_STACK;
		th->stacks = mmap(NULL, th->stacks_bytes, PROT_READ | PROT_WRITE,
		                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (th->stacks == MAP_FAILED) {
			th->stacks = NULL;
			goto nomem;
		}
	}
	e->cfg.release = lock_release;
	e->cfg.take = lock_take;
	e->cfg.lock_arg = th;
	e->thr = th;
	return 0;
nomem:
	fprintf(stderr, "vmreplay: %s: out of memory for the dependencies of %zu steps\n", e->t->path, e->t->nsteps);
	if (th)
		threads_free(th);
	return -1;
}

int rp_engine_init(struct rp_engine *e, const struct rp_trace *t, const struct rp_opts *o,
                   const struct rp_backend *be, const struct rp_backend_cfg *cfg,
                   const struct standins *si)
{
	memset(e, 0, sizeof(*e));
	e->t = t;
	e->o = o;
	e->be = be;
	e->cfg = *cfg;
	e->si = si;
	e->page = t->header.host.page_size ? t->header.host.page_size : VMT_PAGE;
	e->base_brk = (uint64_t)syscall(SYS_brk, 0);
	e->heap_in_place = !be->recorded_addresses && !getenv("VMREPLAY_OWN_BREAK") && set_break_possible();
	e->driver_pid = getpid();
	e->mem_limit = o->mem_limit;
	e->multi = be->replayer_processes && (t->nprocs > 1 || o->threads);
	if (be->replayer_processes)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	size_t bytes = sizeof(struct rp_shared) + t->nprocs * sizeof(struct rp_slot_state) +
	               t->ncks * sizeof(int64_t) + RP_SNAP_VMAS * sizeof(struct rp_snap_vma) + 64;
	bytes = (bytes + VMT_PAGE - 1) & ~(size_t)(VMT_PAGE - 1);
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	e->ps = calloc(t->nprocs + 1, sizeof(*e->ps));
	e->ipc = rp_ipc_new();
	rp_spill_init(&e->ev_sp, 1);
	/* the per-event results: spilled, shared with every replayer */
	if (mem == MAP_FAILED || !e->ps || !e->ipc ||
	    rp_spill_grow(&e->ev_sp, (t->nevents + 1) * sizeof(struct rp_evres)) < 0) {
		fprintf(stderr, "vmreplay: %s: out of memory for the results of %zu events\n", t->path, t->nevents);
		return -1;
	}
	/* in one call now, not page by page inside the first measured run */
	madvise(mem, bytes, MADV_POPULATE_WRITE);
	e->shared_bytes = bytes;
	e->sh = (struct rp_shared *)mem;
	char *at = mem + sizeof(struct rp_shared);
	e->sh->slots = (struct rp_slot_state *)at;
	at += t->nprocs * sizeof(struct rp_slot_state);
	at = (char *)(((uintptr_t)at + 7) & ~(uintptr_t)7);
	e->sh->ev = e->ev_sp.p;
	e->sh->ck = (int64_t *)at;
	at += t->ncks * sizeof(int64_t);
	e->sh->snap_vmas = (struct rp_snap_vma *)at;
	/* the threads' stacks are the replayer's own memory, placed around */
	if (o->threads && be->replayer_processes && threads_init(e) < 0)
		return -1;
	e->lean_brk = e->be->brk_timed && !o->outcomes && !e->thr;   /* --threads: every call takes the lock */
	e->known_brk = e->be->brk_known && o->outcomes && !e->thr;
	return be->recorded_addresses ? 0 : rp_layout_init(e);
}

void rp_engine_free(struct rp_engine *e)
{
	rp_layout_free(e);
	if (e->thr)
		threads_free(e->thr);
	if (e->sh)
		munmap(e->sh, e->shared_bytes);
	rp_spill_free(&e->ev_sp);
	free(e->ps);
	rp_ipc_free(e->ipc);
	memset(e, 0, sizeof(*e));
}
