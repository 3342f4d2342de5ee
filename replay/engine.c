/* The replay loop.  Kernel target: the driver forks one replayer per root
 * process; a replayer forks again at every recorded fork, so each recorded
 * process is replayed by its own OS process, and all of them take turns on
 * a shared step counter so the recorded global order is kept.  Simulator
 * target: one replayer owns every process. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "replay/addrmap.h"
#include "replay/engine.h"
#include "replay/kernel.h"
#include "replay/latency.h"
#include "replay/vmaquery.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif
#define MAX_MESSAGES 20

struct rp_pstate {
	int owned, built, needs_build;
	struct rp_space *space;
	struct addrmap am;
	int64_t brk_delta;
	uint64_t cur_brk;      /* replay address; 0 unknown */
	uint32_t special;      /* [vdso] & co. of the image: counted, not rebuilt */
	int64_t count;         /* program VMAs now (kernel: running) */
	int64_t peak;
	uint64_t t_first;      /* when its first event was replayed */
	int started;
};

static uint64_t page_up(const struct rp_engine *e, uint64_t x)
{
	return (x + e->page - 1) & ~(e->page - 1);
}

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
			next++;
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
		fprintf(stderr, "vmreplay: the replay of pid %d ended abnormally (%s %d); its remaining events are skipped\n",
		        e->t->procs[s].pid, WIFSIGNALED(status) ? "signal" : "exit status",
		        WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		advance_turn_past_finished(e);
	}
}

static void reap(struct rp_engine *e, int flags)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, flags)) > 0)
		note_death(e, pid, status);
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
			if (kill(e->driver_pid, 0) < 0 && errno == ESRCH)
				_exit(1);   /* the driver is gone: nobody will collect results */
		}
	}
}

static void pass_turn(struct rp_engine *e, uint32_t step)
{
	uint32_t next = step + 1;
	while (next < e->t->nsteps && atomic_load(&e->sh->slots[e->t->steps[next].slot].finished))
		next++;
	atomic_store(&e->sh->turn, next);
	if (atomic_load(&e->sh->waiters))
		futex(&e->sh->turn, FUTEX_WAKE, INT32_MAX, NULL);
}

/* ---- messages -------------------------------------------------------- */

__attribute__((format(printf, 2, 3)))
static void say(struct rp_engine *e, const char *fmt, ...)
{
	if (e->quiet_mismatch || atomic_fetch_add(&e->sh->printed, 1) >= MAX_MESSAGES)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vmreplay: %s: %s\n", e->t->path, buf);
}

/* ---- counting -------------------------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static int64_t full_count(struct rp_engine *e, struct rp_pstate *p)
{
	if (!e->be->per_process)
		return e->be->count(p->space, NULL, 0);
	if (p->am.n > e->rcap) {
		size_t cap = p->am.n * 2;
		void *nb = realloc(e->rbuf, cap * sizeof(*e->rbuf));
		if (!nb)
			return -1;
		e->rbuf = nb;
		e->rcap = cap;
	}
	int sorted = 1;
	for (size_t i = 0; i < p->am.n; i++) {
		e->rbuf[i][0] = p->am.r[i].start + (uint64_t)p->am.r[i].delta;
		e->rbuf[i][1] = p->am.r[i].end + (uint64_t)p->am.r[i].delta;
		if (i && e->rbuf[i][0] < e->rbuf[i - 1][0])
			sorted = 0;
	}
	if (!sorted)
		qsort(e->rbuf, p->am.n, sizeof(*e->rbuf), cmp_range);
	int64_t n = e->be->count(p->space, (const uint64_t (*)[2])e->rbuf, p->am.n);
	return n < 0 ? -1 : n + p->special;
}

/* The shared slot is written at checkpoints and at the end only: one less
 * cache line per replayed call. */
static void publish_count(struct rp_engine *e, uint32_t slot, struct rp_pstate *p)
{
	struct rp_slot_state *st = &e->sh->slots[slot];
	if (p->peak > st->peak)
		st->peak = p->peak;
	st->end_count = p->count;
}

/* ---- translation ----------------------------------------------------- */

__attribute__((hot)) static uint64_t xlate(const struct rp_engine *e, const struct rp_pstate *p, uint64_t a)
{
	const struct am_range *r = am_find(&p->am, a);
	return a + (uint64_t)(r ? r->delta : e->offset);
}

/* Nothing but the replay's own mappings, or free space, in the replayed
 * image of recorded [rs, re) (kernel only: the simulator owns it all). */
static int range_safe(const struct rp_engine *e, const struct rp_pstate *p, uint64_t rs, uint64_t re)
{
	if (!e->be->per_process)
		return 1;
	uint64_t cur = rs;
	struct am_piece pc;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (pc.mapped)
			continue;
		struct vq_list l;
		uint64_t a = pc.start + (uint64_t)e->offset, b = pc.end + (uint64_t)e->offset;
		if (vq_around(a + 1, b - 1, &l) < 0)
			return 0;
		for (size_t i = 0; i < l.n && i < VQ_MAX; i++)
			if (l.v[i].start < b && l.v[i].end > a)
				return 0;
		if (l.n > VQ_MAX)
			return 0;
	}
	return 1;
}

/* ---- building an image --------------------------------------------- */

static uint64_t recorded_start_brk(const struct rp_engine *e, const struct vmt_map *m, size_t from_step,
                                   uint32_t slot, uint64_t *heap_end)
{
	*heap_end = 0;
	for (uint32_t i = 0; m && i < m->nvma; i++)
		if (strcmp(m->vmas[i].name, "[heap]") == 0) {
			*heap_end = m->vmas[i].end;
			return m->vmas[i].start;
		}
	for (size_t s = from_step; s < e->t->nsteps; s++) {
		const struct rp_step *st = &e->t->steps[s];
		if (st->slot != slot)
			continue;
		if (st->kind == RP_PROCESS && s != from_step)
			break;
		if (st->kind != RP_EVENT || e->t->events[st->idx].sys != VMT_SYS_BRK)
			continue;
		const struct vmt_event *ev = &e->t->events[st->idx];
		uint64_t a = ev->args[0] && ev->args[0] < (uint64_t)ev->result ? ev->args[0] : (uint64_t)ev->result;
		return a & ~(e->page - 1);
	}
	return 0;
}

static void teardown(struct rp_engine *e, struct rp_pstate *p)
{
	if (e->be->per_process) {
		/* the break first: brk refuses to shrink a heap that munmap removed */
		syscall(SYS_brk, e->base_brk);
		for (size_t i = 0; i < p->am.n; i++)
			munmap((void *)(p->am.r[i].start + (uint64_t)p->am.r[i].delta),
			       p->am.r[i].end - p->am.r[i].start);
	} else if (p->space) {
		e->be->space_free(p->space);
		p->space = NULL;
	}
	am_clear(&p->am);
}

static int mmap_flags_of(const struct vmt_vma *v, int fd)
{
	int f = v->flags & VMT_VMA_SHARED ? MAP_SHARED : MAP_PRIVATE;
	if (fd < 0)
		f |= MAP_ANONYMOUS;
	if (strcmp(v->name, "[stack]") == 0)
		f |= MAP_GROWSDOWN;
	return f;
}

static int fd_of(const struct rp_engine *e, const struct vmt_file *f)
{
	return f && e->si ? e->si->fd[rp_trace_file_index(e->t, f)] : -1;
}

static const struct vmt_file *file_of(const struct rp_engine *e, uint32_t slot, uint32_t id)
{
	for (int32_t s = (int32_t)slot; s >= 0 && id; s = e->t->procs[s].parent_slot) {
		const struct vmt_file *f = rp_trace_file(e->t, e->t->procs[s].pid, id);
		if (f)
			return f;
	}
	return NULL;
}

static void build_image(struct rp_engine *e, size_t step, uint32_t slot, struct rp_pstate *p,
                        const struct vmt_map *m)
{
	if (p->built)
		teardown(e, p);
	struct vmt_map prog = { 0 };
	struct vmt_vma *keep = NULL;
	p->special = 0;
	if (m) {
		prog = *m;
		keep = calloc(m->nvma + 1, sizeof(*keep));
		prog.nvma = 0;
		for (uint32_t i = 0; keep && i < m->nvma; i++) {
			if (m->vmas[i].flags & VMT_VMA_RECORDER)
				continue;
			if (rp_is_special_vma(&m->vmas[i]))
				p->special++;
			keep[prog.nvma++] = m->vmas[i];
		}
		prog.vmas = keep;
	}
	if (!p->space || e->be->per_process)
		p->space = e->be->space_new(m ? &prog : NULL, &e->t->header.host);
	if (!p->space) {
		say(e, "the %s back end could not build the address space of pid %d", e->be->target,
		    e->t->procs[slot].pid);
		free(keep);
		return;
	}
	/* the address map and the counting scratch sized for the worst case up
	 * front: the replayer allocates nothing while it replays (a new
	 * allocator chunk could land where a recorded mapping goes) */
	size_t most = prog.nvma + 2 * (size_t)e->t->procs[slot].nevents + 8;
	if (most > (1u << 20))
		most = 1u << 20;
	am_reserve(&p->am, most);
	if (e->be->per_process && most > e->rcap) {
		void *nb = realloc(e->rbuf, most * sizeof(*e->rbuf));
		if (nb) {
			e->rbuf = nb;
			e->rcap = most;
		}
	}
	uint64_t heap_end;
	uint64_t rec_brk = recorded_start_brk(e, m, step, slot, &heap_end);
	p->brk_delta = e->be->per_process ? (int64_t)(e->base_brk - rec_brk) : 0;
	for (uint32_t i = 0; i < prog.nvma; i++) {
		const struct vmt_vma *v = &prog.vmas[i];
		if (rp_is_special_vma(v) || strcmp(v->name, "[heap]") == 0)
			continue;
		const struct vmt_file *f = file_of(e, slot, v->file_id);
		int fd = fd_of(e, f);
		struct rp_standin_map sm = {
			.start = v->start + (uint64_t)e->offset, .end = v->end + (uint64_t)e->offset,
			.offset = fd >= 0 ? v->offset : 0,
			.prot = (int)(v->prot & 7), .flags = mmap_flags_of(v, fd), .fd = fd, .file = f,
		};
		int err = e->be->standin(p->space, &sm);
		if (err) {
			atomic_fetch_add(&e->sh->unplaceable, 1);
			say(e, "pid %d: cannot place the initial mapping %#llx-%#llx %s: %s",
			    e->t->procs[slot].pid, (unsigned long long)v->start,
			    (unsigned long long)v->end, v->name, strerror(err));
			continue;
		}
		am_set(&p->am, v->start, v->end, e->offset);
	}
	p->cur_brk = rec_brk + (uint64_t)p->brk_delta;
	if (e->be->set_brk && rec_brk)
		e->be->set_brk(p->space, rec_brk, heap_end > rec_brk ? heap_end : rec_brk);
	if (e->be->per_process && heap_end > rec_brk) {
		p->cur_brk = (uint64_t)syscall(SYS_brk, e->base_brk + (heap_end - rec_brk));
		if (p->cur_brk > e->base_brk)
			rp_kernel_written(page_up(e, e->base_brk));
	}
	if (heap_end > rec_brk)
		am_set(&p->am, rec_brk, heap_end, p->brk_delta);
	free(keep);
	p->built = 1;
	p->needs_build = 0;
	p->count = full_count(e, p);
	struct rp_slot_state *st = &e->sh->slots[slot];
	if (!p->started) {
		st->start_count = p->count;
		p->peak = p->count;
		p->started = 1;
	}
	if (p->count > p->peak)
		p->peak = p->count;
	publish_count(e, slot, p);
}

/* ---- residency ------------------------------------------------------- */

static uint8_t touch_bits[1 << 16];

static void touch(struct rp_engine *e, struct rp_pstate *p, const struct vmt_residency *r)
{
	uint64_t rs = r->start, re = r->start + r->npages * e->page, cur = rs;
	struct am_piece pc;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (!pc.mapped)
			continue;
		uint64_t first = (pc.start - rs) / e->page, n = (pc.end - pc.start) / e->page;
		for (uint64_t done = 0; done < n; ) {
			uint64_t chunk = n - done < sizeof(touch_bits) * 8 ? n - done : sizeof(touch_bits) * 8;
			memset(touch_bits, 0, (chunk + 7) / 8);
			for (uint64_t i = 0; i < chunk; i++) {
				uint64_t b = first + done + i;
				if (r->bits[b / 8] & (1u << (b % 8)))
					touch_bits[i / 8] |= (uint8_t)(1u << (i % 8));
			}
			struct vmt_residency t = *r;
			t.start = pc.start + (uint64_t)pc.delta + done * e->page;
			t.npages = chunk;
			t.bits = touch_bits;
			e->be->touch(p->space, &t);
			done += chunk;
		}
	}
}

/* ---- events ---------------------------------------------------------- */

static int is_fork(const struct vmt_event *ev)
{
	return ev->sys == VMT_SYS_FORK || ev->sys == VMT_SYS_VFORK ||
	       ((ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) && !(ev->flags & VMT_EV_THREAD));
}

__attribute__((hot)) static void result_check(struct rp_engine *e, size_t i, const struct vmt_event *rec,
                         struct rp_evres *r, int64_t want)
{
	if (!rec->err == !r->err && (rec->err || want == INT64_MIN || r->ret == want))
		return;
	const char *name = vmt_sys_name(rec->sys);
	if (!rec->err && r->err) {
		r->mismatch = 1;
		say(e, "event %zu (%s): failed here (%s), succeeded when recorded", i, name, strerror(r->err));
	} else if (rec->err && !r->err) {
		r->mismatch = 1;
		say(e, "event %zu (%s): succeeded here, failed when recorded (%s)", i, name, strerror(rec->err));
	} else if (!rec->err && want != INT64_MIN && r->ret != want) {
		r->mismatch = 1;
		say(e, "event %zu (%s): returned %#llx here, %#llx expected from the recording", i, name,
		    (unsigned long long)r->ret, (unsigned long long)want);
	}
}

/* Calls on a recorded range [rs, re) that keep or cut mappings.  The range
 * translates as a whole when its mapped pieces share one delta (always, in
 * recorded placement); otherwise each mapped piece is issued alone. */
__attribute__((hot)) static void ranged(struct rp_engine *e, struct rp_pstate *p, struct vmt_event *ev, int kind,
                   struct vr_result *out, struct rp_effect *fx, int *skipped)
{
	uint64_t rs = ev->args[0] & ~(e->page - 1);
	uint64_t re = page_up(e, ev->args[0] + ev->args[1]);
	uint64_t cur = rs;
	struct am_piece pc;
	int64_t delta = e->offset;
	int uniform = 1, any = 0;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (!pc.mapped)
			continue;
		if (any && pc.delta != delta)
			uniform = 0;
		delta = pc.delta;
		any = 1;
	}
	if (uniform) {
		int64_t save = e->offset;
		e->offset = delta;   /* gaps checked where they would land */
		int safe = range_safe(e, p, rs, re);
		e->offset = save;
		if (!safe) {
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			out->outcome = VR_UNCHANGED;
			out->ret = ev->result;
			out->err = ev->err;
			return;
		}
		ev->args[0] += (uint64_t)delta;
		*fx = (struct rp_effect){ .lo = rs + (uint64_t)delta, .hi = re + (uint64_t)delta, .kind = kind };
		e->be->apply(p->space, ev, NULL, fx, out);
		return;
	}
	/* several deltas (kernel placement): one call per mapped piece */
	struct vr_result one;
	uint64_t lat = 0;
	int first = 1;
	cur = rs;
	fx->have_delta = 1;
	fx->vma_delta = 0;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (!pc.mapped)
			continue;
		ev->args[0] = pc.start + (uint64_t)pc.delta;
		ev->args[1] = pc.end - pc.start;
		struct rp_effect f = { .lo = ev->args[0], .hi = ev->args[0] + ev->args[1], .kind = kind };
		e->be->apply(p->space, ev, NULL, &f, &one);
		lat += one.latency_ns;
		if (first || one.err)
			*out = one;
		first = 0;
		fx->vma_delta += f.vma_delta;
		fx->have_delta &= f.have_delta;
	}
	out->latency_ns = lat;
}

__attribute__((hot)) static void apply_mmap(struct rp_engine *e, uint32_t slot, struct rp_pstate *p,
                       const struct vmt_event *rec, struct vmt_event *ev,
                       struct vr_result *out, struct rp_effect *fx, int *skipped, int64_t *want)
{
	uint64_t len = page_up(e, rec->args[1]);
	uint64_t flags = rec->args[3];
	const struct vmt_file *f = NULL;
	if (!(flags & MAP_ANONYMOUS)) {
		f = file_of(e, slot, rec->file_id);
		int fd = fd_of(e, f);
		/* no file known: anonymous where the call succeeded; where it
		 * failed, fd -1 fails the same way (EBADF) */
		if (fd < 0 && e->be->per_process && !rec->err)
			flags |= MAP_ANONYMOUS;
		ev->args[4] = (uint64_t)(int64_t)fd;
	}
	int fixed = (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
	uint64_t target = 0;
	if (!rec->err && (e->o->placement == RP_PLACE_RECORDED || fixed)) {
		target = xlate(e, p, (uint64_t)rec->result);
		if ((flags & MAP_FIXED) && !range_safe(e, p, (uint64_t)rec->result, (uint64_t)rec->result + len)) {
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			say(e, "mmap at %#llx would map over memory the replay does not own: skipped",
			    (unsigned long long)rec->result);
			*out = (struct vr_result){ .ret = -1, .err = EEXIST, .outcome = VR_FAILED };
			return;
		}
		if (!(flags & MAP_FIXED))
			flags |= MAP_FIXED_NOREPLACE;
		*want = (int64_t)target;
	} else if (rec->args[0]) {
		target = xlate(e, p, rec->args[0]);
	}
	ev->args[0] = target;
	ev->args[3] = flags;
	*fx = (struct rp_effect){ .lo = target, .hi = target + len, .kind = RP_FX_CREATE,
	                          .fresh = !(flags & MAP_FIXED) };
	if (!(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
		fx->lo = fx->hi = 0;     /* placed by the kernel: known afterwards */
	e->be->apply(p->space, ev, f, fx, out);
	if (out->err)
		return;
	if (!rec->err) {
		am_set(&p->am, (uint64_t)rec->result, (uint64_t)rec->result + len,
		       out->ret - rec->result);
	} else {
		/* mapped here but failed when recorded: take it back */
		struct vmt_event un = { .sys = VMT_SYS_MUNMAP, .args = { (uint64_t)out->ret, len } };
		struct rp_effect ufx = { .lo = (uint64_t)out->ret, .hi = (uint64_t)out->ret + len, .kind = RP_FX_REMOVE };
		struct vr_result ur;
		e->be->apply(p->space, &un, NULL, &ufx, &ur);
		fx->vma_delta += ufx.vma_delta;
	}
}

static void apply_mremap(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                         struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx,
                         int *skipped, int64_t *want)
{
	uint64_t old = rec->args[0], oldlen = page_up(e, rec->args[1]), newlen = page_up(e, rec->args[2]);
	uint64_t flags = rec->args[3];
	uint64_t old_r = xlate(e, p, old);
	int64_t d_old = (int64_t)(old_r - old);
	ev->args[0] = old_r;
	int moved = !rec->err && (uint64_t)rec->result != old;
	if (flags & MREMAP_FIXED) {
		if (!range_safe(e, p, rec->args[4], rec->args[4] + newlen)) {
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			*out = (struct vr_result){ .ret = -1, .err = EEXIST, .outcome = VR_FAILED };
			return;
		}
		ev->args[4] = xlate(e, p, rec->args[4]);
	} else if (moved && e->o->placement == RP_PLACE_RECORDED) {
		uint64_t dest = (uint64_t)rec->result + (uint64_t)e->offset;
		if (range_safe(e, p, (uint64_t)rec->result, (uint64_t)rec->result + newlen)) {
			ev->args[3] = flags | MREMAP_FIXED | MREMAP_MAYMOVE;
			ev->args[4] = dest;
		}
	}
	if (!rec->err)
		*want = moved ? (int64_t)(ev->args[3] & MREMAP_FIXED ? ev->args[4] : (uint64_t)INT64_MIN)
		              : (int64_t)old_r;
	/* The range follows what this replay does, not what the recording did:
	 * a call not forced to move may resize in place here (the back end
	 * names a move by the address it returns). */
	if (ev->args[3] & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		*fx = (struct rp_effect){ .lo = old_r, .hi = old_r + oldlen, .kind = RP_FX_MREMAP };
	else if (newlen > oldlen)
		*fx = (struct rp_effect){ .lo = old_r + oldlen, .hi = old_r + newlen, .kind = RP_FX_CREATE, .fresh = 1 };
	else if (newlen < oldlen)
		*fx = (struct rp_effect){ .lo = old_r + newlen, .hi = old_r + oldlen, .kind = RP_FX_REMOVE };
	e->be->apply(p->space, ev, NULL, fx, out);
	if (out->err)
		return;
	uint64_t rec_new = !rec->err ? (uint64_t)rec->result : (uint64_t)out->ret - (uint64_t)d_old;
	if (!(flags & MREMAP_DONTUNMAP))
		am_remove(&p->am, old, old + oldlen);
	am_set(&p->am, rec_new, rec_new + newlen, (int64_t)((uint64_t)out->ret - rec_new));
}

__attribute__((hot)) static void apply_brk(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                      struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want)
{
	uint64_t target = rec->args[0] ? rec->args[0] + (uint64_t)p->brk_delta : 0;
	ev->args[0] = target;
	uint64_t old = page_up(e, p->cur_brk), new = page_up(e, target);
	if (target && p->cur_brk && new > old)
		*fx = (struct rp_effect){ .lo = old, .hi = new, .kind = RP_FX_CREATE, .fresh = 1 };
	else if (target && p->cur_brk && new < old)
		*fx = (struct rp_effect){ .lo = new, .hi = old, .kind = RP_FX_REMOVE };
	e->be->apply(p->space, ev, NULL, fx, out);
	*want = rec->result + p->brk_delta;
	if (out->err || !out->ret)
		return;
	uint64_t now = page_up(e, (uint64_t)out->ret), was = page_up(e, p->cur_brk);
	int64_t d = p->brk_delta;
	if (now > was)
		am_set(&p->am, was - (uint64_t)d, now - (uint64_t)d, d);
	else if (now < was)
		am_remove(&p->am, now - (uint64_t)d, was - (uint64_t)d);
	p->cur_brk = (uint64_t)out->ret;
}

enum { STEP_DONE, STEP_FORK_CHILD };

static int apply_fork(struct rp_engine *e, uint32_t slot, struct rp_pstate *p,
                      const struct vmt_event *rec, struct vr_result *out)
{
	int32_t child = -1;
	for (size_t s = 0; s < e->t->nprocs; s++)
		if (e->t->procs[s].pid == (int32_t)rec->result && e->t->procs[s].parent_slot == (int32_t)slot)
			child = (int32_t)s;
	out->outcome = VR_UNCHANGED;
	if (rec->err || child < 0)
		return STEP_DONE;
	struct rp_space *cs = NULL;
	uint64_t t0 = lat_tick();
	int r = e->be->fork(p->space, &cs);
	uint64_t lat = lat_tick_ns(lat_tick() - t0);
	out->latency_ns = lat > rp_kernel.clock_cost ? lat - rp_kernel.clock_cost : 0;
	if (r < 0) {
		out->err = -r;
		out->outcome = VR_FAILED;
		atomic_store(&e->sh->slots[child].finished, 1);
		return STEP_DONE;
	}
	struct rp_pstate *c = &e->ps[child];
	if (e->be->per_process && r == 0) {
		/* the child process: it replays only the child from now on */
		*c = *p;
		p->owned = 0;
		c->owned = 1;
		c->started = 0;
		c->peak = c->count;
		e->sh->slots[child].real_pid = getpid();
		return STEP_FORK_CHILD;
	}
	if (e->be->per_process) {
		e->sh->slots[child].real_pid = r;
		out->ret = r;
		return STEP_DONE;
	}
	*c = *p;
	am_init(&c->am);
	for (size_t i = 0; i < p->am.n; i++)
		am_set(&c->am, p->am.r[i].start, p->am.r[i].end, p->am.r[i].delta);
	c->space = cs;
	c->owned = 1;
	c->started = 0;
	return STEP_DONE;
}

__attribute__((hot)) static int replay_event(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i)
{
	const struct vmt_event *rec = &e->t->events[i];
	struct rp_evres *r = &e->sh->ev[i];
	/* a system call leaves the caches cold: ask for the next events' lines
	 * now, so they arrive while the kernel works */
	if (i + 8 < e->t->nevents) {
		const char *next = (const char *)&e->t->events[i + 8];
		__builtin_prefetch(next);
		__builtin_prefetch(next + 64);
		__builtin_prefetch(&e->sh->ev[i + 8], 1);
		__builtin_prefetch(&e->t->steps[e->t->step_of_event[i + 8]]);
	}
	struct vmt_event ev = *rec;
	struct vr_result out = { .vma_count = -1, .outcome = VR_UNCHANGED };
	struct rp_effect fx = { .kind = RP_FX_NONE };
	int skipped = 0, ret = STEP_DONE;
	int64_t want = INT64_MIN;
	switch (rec->sys) {
	case VMT_SYS_MMAP:
		apply_mmap(e, slot, p, rec, &ev, &out, &fx, &skipped, &want);
		break;
	case VMT_SYS_MUNMAP:
		ranged(e, p, &ev, RP_FX_REMOVE, &out, &fx, &skipped);
		if (!out.err && !skipped)
			am_remove(&p->am, rec->args[0] & ~(e->page - 1), page_up(e, rec->args[0] + rec->args[1]));
		break;
	case VMT_SYS_MPROTECT: case VMT_SYS_PKEY_MPROTECT: case VMT_SYS_MADVISE:
	case VMT_SYS_MLOCK: case VMT_SYS_MLOCK2: case VMT_SYS_MUNLOCK: case VMT_SYS_MSEAL:
		ranged(e, p, &ev, RP_FX_MODIFY, &out, &fx, &skipped);
		break;
	case VMT_SYS_MREMAP:
		apply_mremap(e, p, rec, &ev, &out, &fx, &skipped, &want);
		break;
	case VMT_SYS_BRK:
		apply_brk(e, p, rec, &ev, &out, &fx, &want);
		break;
	default:
		if (is_fork(rec)) {
			ret = apply_fork(e, slot, p, rec, &out);
			if (ret == STEP_FORK_CHILD)
				return ret;
		} else {
			if ((rec->sys == VMT_SYS_EXECVE || rec->sys == VMT_SYS_EXECVEAT) && !rec->err)
				p->needs_build = 1;   /* the next map is the new image's */
			skipped = 1;   /* threads, exec, exit, mlockall, shm: nothing to redo */
			out.ret = rec->result;
			out.err = rec->err;
		}
		break;
	}
	r->ret = out.ret;
	r->rule = out.rule;   /* a literal or sim_intern's: lives as long as the process */
	r->err = out.err;
	r->latency_ns = out.latency_ns;
	r->outcome = (uint8_t)(out.err ? VR_FAILED : out.outcome);
	r->skipped = (uint8_t)skipped;
	if (e->multi) {
		r->order = atomic_fetch_add_explicit(&e->sh->order, 1, memory_order_relaxed) + 1;
	} else {
		r->order = ++e->order;
		if (!(e->order & 1023))   /* for the progress line */
			atomic_store_explicit(&e->sh->order, e->order, memory_order_relaxed);
	}
	r->done = 1;
	if (!skipped && !is_fork(rec))
		result_check(e, i, rec, r, want);
	if (!skipped && fx.kind != RP_FX_NONE) {
		if (!e->be->per_process)
			p->count = out.vma_count >= 0 ? out.vma_count : full_count(e, p);
		else if (fx.have_delta)
			p->count += fx.vma_delta;
		else if (e->o->outcomes)
			p->count = full_count(e, p);
	}
	r->vma_count = e->o->outcomes || !e->be->per_process ? p->count : -1;
	if (p->count > p->peak)
		p->peak = p->count;
	return ret;
}

/* ---- the loop -------------------------------------------------------- */

__attribute__((hot)) static int do_step(struct rp_engine *e, size_t s)
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
			build_image(e, s, st->slot, p, &e->t->maps[st->idx]);
		break;
	case RP_CHECKPOINT:
		if (!p->built)
			build_image(e, s, st->slot, p, NULL);
		p->count = full_count(e, p);
		e->sh->ck[st->idx] = p->count;
		if (p->count > p->peak)
			p->peak = p->count;
		publish_count(e, st->slot, p);
		if (getenv("VMREPLAY_DUMP_MAPS") && e->be->per_process) {
			char cmd[64];   /* debugging aid: the replayer's whole map */
			snprintf(cmd, sizeof(cmd), "cat /proc/%d/maps >&2", getpid());
			if (system(cmd) != 0)
				fprintf(stderr, "vmreplay: cannot show the map\n");
		}
		break;
	case RP_RESIDENCY:
		if (p->built)
			touch(e, p, &e->t->res[st->idx]);
		break;
	case RP_EVENT:
		if (!p->built)
			build_image(e, s, st->slot, p, NULL);
		if (!p->space)
			break;
		if (replay_event(e, st->slot, p, st->idx) == STEP_FORK_CHILD)
			return STEP_FORK_CHILD;
		break;
	}
	return STEP_DONE;
}

/* --threads: every recorded thread of a process is replayed by its own
 * thread of the replayer.  Calls still take turns on the global step
 * counter, so the recorded order holds across threads too; non-event steps
 * (maps, checkpoints, residency) belong to the thread with tid == pid. */
static int32_t step_tid(const struct rp_engine *e, size_t s)
{
	const struct rp_step *st = &e->t->steps[s];
	return st->kind == RP_EVENT ? e->t->events[st->idx].tid : e->t->procs[st->slot].pid;
}

struct worker {
	struct rp_engine *e;
	size_t from;
	int32_t tid;       /* 0: every step of the owned processes */
	pthread_t thread;
};

static size_t run_steps(struct rp_engine *e, size_t from, int32_t *tid);
static void replayer(struct rp_engine *e, size_t from);

/* The replay of one process, from `from`, to its end; never returns. */
static void replay_process(struct rp_engine *e, size_t from)
{
	replayer(e, from);
	reap(e, 0);
	fflush(NULL);
	_exit(0);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t at = run_steps(w->e, w->from, &w->tid);
	if (at < w->e->t->nsteps)
		replay_process(w->e, at + 1);   /* this thread forked: it is the child now */
	return NULL;
}

/* Start a thread for every other tid of `slot` with steps after `from`. */
static size_t start_workers(struct rp_engine *e, uint32_t slot, size_t from, struct worker *ws, size_t max)
{
	size_t n = 0;
	int32_t pid = e->t->procs[slot].pid;
	for (size_t s = from; s < e->t->nsteps && n < max; s++) {
		const struct rp_step *st = &e->t->steps[s];
		int32_t tid = step_tid(e, s);
		if (st->slot != slot || tid == pid)
			continue;
		int seen = 0;
		for (size_t i = 0; i < n; i++)
			seen |= ws[i].tid == tid;
		if (seen)
			continue;
		ws[n] = (struct worker){ .e = e, .from = s, .tid = tid };
		if (pthread_create(&ws[n].thread, NULL, worker_main, &ws[n]) != 0) {
			say(e, "pid %d: cannot start a thread for tid %d; its calls are skipped", pid, tid);
			continue;
		}
		n++;
	}
	return n;
}

/* Replays, from step `from`, the steps this thread owns.  Returns the step
 * after the last one, or the fork step when this became a fork child. */
__attribute__((hot)) static size_t run_steps(struct rp_engine *e, size_t from, int32_t *tid)
{
	for (size_t s = from; s < e->t->nsteps; s++) {
		if (!e->ps[e->t->steps[s].slot].owned || (*tid && step_tid(e, s) != *tid))
			continue;
		if (e->multi)
			wait_turn(e, (uint32_t)s);
		if (do_step(e, s) == STEP_FORK_CHILD)
			return s;    /* the parent passes this turn */
		if (e->multi)
			pass_turn(e, (uint32_t)s);
	}
	return e->t->nsteps;
}

/* Replays, from step `from`, the steps of every process this replayer owns. */
static void replayer(struct rp_engine *e, size_t from)
{
	enum { MAX_WORKERS = 256 };
	static struct worker ws[MAX_WORKERS];
	size_t nw = 0;
	int threads = e->o->threads && e->be->per_process;
	int32_t tid = 0;
	for (;;) {
		uint32_t slot = 0;
		for (size_t s = 0; s < e->t->nprocs; s++)
			if (e->ps[s].owned)
				slot = (uint32_t)s;
		if (threads) {
			tid = e->t->procs[slot].pid;
			nw = start_workers(e, slot, from, ws, MAX_WORKERS);
		}
		size_t at = run_steps(e, from, &tid);
		if (at >= e->t->nsteps)
			break;
		from = at + 1;   /* a fork child: replay the child from here */
		nw = 0;          /* the parent's threads are not in this process */
	}
	for (size_t i = 0; i < nw; i++)
		pthread_join(ws[i].thread, NULL);
	uint64_t end = lat_now();
	for (size_t s = 0; s < e->t->nprocs; s++)
		if (e->ps[s].owned) {
			publish_count(e, (uint32_t)s, &e->ps[s]);
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
	e->order = 0;
	for (size_t s = 0; s < t->nprocs; s++) {
		sh->slots[s] = (struct rp_slot_state){ .start_count = -1, .end_count = -1, .peak = -1 };
		e->ps[s] = (struct rp_pstate){ 0 };
	}
	memset(sh->ev, 0, t->nevents * sizeof(*sh->ev));
	for (size_t i = 0; i < t->ncks; i++)
		sh->ck[i] = INT64_MIN;
	if (!e->be->per_process) {
		for (size_t s = 0; s < t->nprocs; s++)
			if (t->procs[s].parent_slot < 0) {
				e->ps[s].owned = 1;
				e->ps[s].needs_build = 1;
			}
		replayer(e, 0);
		for (size_t s = 0; s < t->nprocs; s++) {
			e->ps[s].owned = 0;
			if (e->ps[s].space)
				e->be->space_free(e->ps[s].space);
			am_free(&e->ps[s].am);
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
			e->ps[s].owned = 1;
			e->ps[s].needs_build = 1;
			replay_process(e, t->procs[s].first_step);
		}
		sh->slots[s].real_pid = pid;
	}
	if (e->tick) {
		/* wake every 200 ms for the progress line while the replayers run */
		int status;
		pid_t pid;
		for (;;) {
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
				note_death(e, pid, status);
			if (pid < 0)
				break;
			e->tick(e, atomic_load(&sh->order));
			usleep(200 * 1000);
		}
	}
	reap(e, 0);
	advance_turn_past_finished(e);
	return 0;
}

/* ---- setup ----------------------------------------------------------- */

int rp_engine_init(struct rp_engine *e, const struct rp_trace *t, const struct rp_opts *o,
                   const struct rp_backend *be, const struct standins *si)
{
	memset(e, 0, sizeof(*e));
	e->t = t;
	e->o = o;
	e->be = be;
	e->si = si;
	e->page = t->header.host.page_size ? t->header.host.page_size : 4096;
	e->base_brk = (uint64_t)syscall(SYS_brk, 0);
	e->driver_pid = getpid();
	e->multi = be->per_process && (t->nprocs > 1 || o->threads);
	if (be->per_process)
		prctl(PR_SET_CHILD_SUBREAPER, 1);
	size_t bytes = sizeof(struct rp_shared) + t->nprocs * sizeof(struct rp_slot_state) +
	               t->nevents * sizeof(struct rp_evres) + t->ncks * sizeof(int64_t) + 64;
	bytes = (bytes + 4095) & ~(size_t)4095;
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	e->ps = calloc(t->nprocs + 1, sizeof(*e->ps));
	if (mem == MAP_FAILED || !e->ps) {
		fprintf(stderr, "vmreplay: %s: out of memory for the results of %zu events\n", t->path, t->nevents);
		return -1;
	}
	e->shared_bytes = bytes;
	e->sh = (struct rp_shared *)mem;
	char *at = mem + sizeof(struct rp_shared);
	e->sh->slots = (struct rp_slot_state *)at;
	at += t->nprocs * sizeof(struct rp_slot_state);
	at = (char *)(((uintptr_t)at + 7) & ~(uintptr_t)7);
	e->sh->ev = (struct rp_evres *)at;
	at += t->nevents * sizeof(struct rp_evres);
	e->sh->ck = (int64_t *)at;
	if (be->per_process && o->placement == RP_PLACE_RECORDED) {
		if (rp_choose_offset(e, &e->offset) < 0) {
			fprintf(stderr, "vmreplay: %s: the recorded layout cannot be placed beside the replayer's own memory at any offset; mappings that collide will fail\n",
			        t->path);
			e->offset = 0;
		}
	}
	return 0;
}

void rp_engine_free(struct rp_engine *e)
{
	if (e->sh)
		munmap(e->sh, e->shared_bytes);
	free(e->ps);
	free(e->rbuf);
	memset(e, 0, sizeof(*e));
}
