/* apply.c - one recorded call replayed: its addresses translated through
 * the process's address map, issued through the back end, its result
 * checked against the recording and its VMA count carried forward. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "replay/engine_int.h"
#include "replay/ipc.h"
#include "replay/latency.h"
#include "replay/membudget.h"
#include "replay/vmaquery.h"

/* ---- translation ----------------------------------------------------- */

/* Nothing but the replay's own mappings, or free space, in the replayed
 * image of recorded [rs, re), where the space holds the replayer's own
 * memory too.  Gaps land at *delta when given, else where the unit puts
 * them. */
static int range_safe(const struct rp_backend *be, const struct rp_pstate *p, uint64_t rs, uint64_t re,
                      const int64_t *delta)
{
	if (be->recorded_addresses)
		return 1;
	uint64_t cur = rs;
	struct am_piece pc;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (pc.mapped)
			continue;
		/* the placeholders of the recorder's VMAs are the replay's own
		 * to change, as the recorded program could */
		uint64_t hcur = pc.start;
		struct am_piece hp;
		while (am_next_piece(&p->holds, &hcur, pc.end, &hp)) {
			if (hp.mapped)
				continue;
			struct vq_list l;
			int64_t d = delta ? *delta : rp_unit_delta(p->unit, hp.start);
			uint64_t a = hp.start + (uint64_t)d, b = hp.end + (uint64_t)d;
			if (vq_around(a + 1, b - 1, &l) < 0)
				return 0;
			for (size_t i = 0; i < l.n && i < VQ_MAX; i++)
				if (l.v[i].start < b && l.v[i].end > a)
					return 0;
			if (l.n > VQ_MAX)
				return 0;
		}
	}
	return 1;
}

static void result_mismatch(struct rp_engine *e, size_t i, const struct vmt_event *rec,
                            struct rp_evres *r, int64_t want)
{
	const char *name = vmt_sys_key(rec->sys);
	if (!rec->err && r->err) {
		r->mismatch = 1;
		rp_say(e, "event %zu (%s): failed here (%s), succeeded when recorded", i, name, strerror(r->err));
	} else if (rec->err && !r->err) {
		r->mismatch = 1;
		rp_say(e, "event %zu (%s): succeeded here, failed when recorded (%s)", i, name, strerror(rec->err));
	} else if (!rec->err && want != INT64_MIN && r->ret != want) {
		r->mismatch = 1;
		rp_say(e, "event %zu (%s): returned %#llx here, %#llx expected from the recording", i, name,
		    (unsigned long long)r->ret, (unsigned long long)want);
	}
}

static inline void result_check(struct rp_engine *e, size_t i, const struct vmt_event *rec,
                                struct rp_evres *r, int64_t want)
{
	if (!rec->err != !r->err || (!rec->err && want != INT64_MIN && r->ret != want))
		result_mismatch(e, i, rec, r, want);
}

/* Calls on a recorded range [rs, re) that keep or cut mappings (the
 * table's address and length arguments).  The range translates as a whole
 * when its mapped pieces share one delta (always, in recorded placement);
 * otherwise each mapped piece is issued alone. */
__attribute__((hot)) void rp_ranged(struct rp_engine *e, struct rp_pstate *p, struct vmt_event *ev, int kind,
                                    struct vr_result *out, struct rp_effect *fx, int *skipped)
{
	int ai, li;
	vmt_sys_range_args(ev->sys, &ai, &li);
	uint64_t rs = ev->args[ai] & ~(e->page - 1);
	uint64_t re = rp_page_up(e, ev->args[ai] + ev->args[li]);
	uint64_t cur = rs;
	struct am_piece pc;
	int64_t delta = rp_unit_delta(p->unit, rs);
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
		if (!range_safe(e->be, p, rs, re, &delta)) {   /* gaps checked where they would land */
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			out->outcome = VR_UNCHANGED;
			out->ret = ev->result;
			out->err = ev->err;
			return;
		}
		ev->args[ai] += (uint64_t)delta;
		*fx = (struct rp_effect){ .lo = rs + (uint64_t)delta, .hi = re + (uint64_t)delta, .kind = kind,
		                          .ranges = fx->ranges };
		e->be->apply(p->space, ev, NULL, fx, out);
		return;
	}
	/* several deltas (kernel placement): one call per mapped piece */
	struct vr_result one;
	uint64_t lat = 0;
	int first = 1;
	int64_t first_delta = 0;
	cur = rs;
	fx->have_delta = 1;
	fx->vma_delta = 0;
	while (am_next_piece(&p->am, &cur, re, &pc)) {
		if (!pc.mapped)
			continue;
		ev->args[ai] = pc.start + (uint64_t)pc.delta;
		ev->args[li] = pc.end - pc.start;
		struct rp_effect f = { .lo = ev->args[ai], .hi = ev->args[ai] + ev->args[li], .kind = kind,
		                       .ranges = fx->ranges };
		e->be->apply(p->space, ev, NULL, &f, &one);
		lat += one.latency_ns;
		if (first || one.err)
			*out = one;
		if (first)
			first_delta = pc.delta;
		first = 0;
		fx->vma_delta += f.vma_delta;
		fx->have_delta &= f.have_delta;
	}
	out->latency_ns = lat;
	ev->args[ai] = rs + (uint64_t)first_delta;   /* the event's offset: its first piece's */
}

__attribute__((hot)) static void apply_mmap(struct rp_engine *e, uint32_t slot, struct rp_pstate *p,
                       const struct vmt_event *rec, struct vmt_event *ev,
                       struct vr_result *out, struct rp_effect *fx, int *skipped, int64_t *want)
{
	uint64_t len = rp_page_up(e, rec->args[1]);
	uint64_t flags = rec->args[3];
	const struct vmt_file *f = NULL;
	if (!(flags & MAP_ANONYMOUS)) {
		f = rp_file_of(e->t, slot, rec->file_id);
		int fd = rp_fd_of(e->si, f);
		/* no file known: anonymous where the call succeeded; where it
		 * failed, fd -1 fails the same way (EBADF) */
		if (fd < 0 && e->be->real_objects && !rec->err)
			flags |= MAP_ANONYMOUS;
		ev->args[4] = (uint64_t)(int64_t)fd;
	}
	int fixed = (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
	uint64_t target = 0;
	if (!rec->err && (e->o->placement == RP_PLACE_RECORDED || fixed)) {
		target = rp_xlate(e, p, (uint64_t)rec->result);
		if ((flags & MAP_FIXED) && !range_safe(e->be, p, (uint64_t)rec->result, (uint64_t)rec->result + len, NULL)) {
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			rp_say(e, "mmap at %#llx would map over memory the replay does not own: skipped",
			    (unsigned long long)rec->result);
			*out = (struct vr_result){ .ret = -1, .err = EEXIST, .outcome = VR_FAILED };
			return;
		}
		if (!(flags & MAP_FIXED))
			flags |= MAP_FIXED_NOREPLACE;
		*want = (int64_t)target;
	} else if (rec->args[0]) {
		target = rp_xlate(e, p, rec->args[0]);
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
		if (ur.vma_count >= 0)
			out->vma_count = ur.vma_count;   /* the simulator's count after both */
	}
}

/* Is anything mapped in [lo, hi) of the replay? (the back end's count) */
static int any_mapped(struct rp_engine *e, struct rp_pstate *p, uint64_t lo, uint64_t hi)
{
	const uint64_t r[1][2] = { { lo, hi } };
	return lo < hi && e->be->count(p->space, r, 1) != 0;
}

/* A length-keeping MREMAP_FIXED move that failed may have moved the VMAs
 * before the one refused (X5: the kernel moves each VMA of the old range
 * in turn, a later userfaultfd-armed or sealed one fails the call): what
 * is no longer at the old range's start was moved, each part to the
 * destination plus its distance from the start.  The address map follows;
 * nothing moved costs one count. */
static void failed_move(struct rp_engine *e, struct rp_pstate *p, uint64_t old, uint64_t len,
                        uint64_t rec_dst, uint64_t old_r, uint64_t dst_r)
{
	uint64_t cur = old, stop = old + len;
	struct am_piece pc;
	while (am_next_piece(&p->am, &cur, old + len, &pc)) {
		if (!pc.mapped)
			continue;
		uint64_t lo = pc.start + (uint64_t)pc.delta, hi = pc.end + (uint64_t)pc.delta;
		if (!any_mapped(e, p, lo, hi))
			continue;
		while (hi - lo > e->page) {   /* the first page still mapped */
			uint64_t mid = lo + ((hi - lo) / 2 & ~(e->page - 1));
			if (any_mapped(e, p, lo, mid))
				hi = mid;
			else
				lo = mid;
		}
		stop = lo - (uint64_t)pc.delta;
		break;
	}
	cur = old;
	while (cur < stop && am_next_piece(&p->am, &cur, stop, &pc)) {
		if (!pc.mapped)
			continue;
		uint64_t to = rec_dst + (pc.start - old), to_r = dst_r + (pc.start + (uint64_t)pc.delta - old_r);
		am_remove(&p->am, pc.start, pc.end);
		am_set(&p->am, to, to + (pc.end - pc.start), (int64_t)(to_r - to));
		cur = pc.end;
	}
}

static void apply_mremap(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                         struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx,
                         int *skipped, int64_t *want)
{
	uint64_t old = rec->args[0], oldlen = rp_page_up(e, rec->args[1]), newlen = rp_page_up(e, rec->args[2]);
	uint64_t flags = rec->args[3];
	uint64_t old_r = rp_xlate(e, p, old);
	int64_t d_old = (int64_t)(old_r - old);
	ev->args[0] = old_r;
	int moved = !rec->err && (uint64_t)rec->result != old;
	if (flags & MREMAP_FIXED) {
		if (!range_safe(e->be, p, rec->args[4], rec->args[4] + newlen, NULL)) {
			*skipped = 1;
			atomic_fetch_add(&e->sh->skipped_unsafe, 1);
			*out = (struct vr_result){ .ret = -1, .err = EEXIST, .outcome = VR_FAILED };
			return;
		}
		ev->args[4] = rp_xlate(e, p, rec->args[4]);
	} else if (moved && e->o->placement == RP_PLACE_RECORDED) {
		uint64_t dest = (uint64_t)rec->result + (uint64_t)rp_unit_delta(p->unit, (uint64_t)rec->result);
		if (range_safe(e->be, p, (uint64_t)rec->result, (uint64_t)rec->result + newlen, NULL)) {
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
	if (out->err) {
		if ((ev->args[3] & MREMAP_FIXED) && oldlen == newlen)
			failed_move(e, p, old, oldlen, rec->args[4], old_r, ev->args[4]);
		return;
	}
	uint64_t rec_new = !rec->err ? (uint64_t)rec->result : (uint64_t)out->ret - (uint64_t)d_old;
	if (!(flags & MREMAP_DONTUNMAP))
		am_remove(&p->am, old, old + oldlen);
	am_set(&p->am, rec_new, rec_new + newlen, (int64_t)((uint64_t)out->ret - rec_new));
}

/* The break is at `ret` now (replay address; 0 says nothing): the
 * address map follows the heap's growth or shrink. */
static inline void heap_moved(struct rp_engine *e, struct rp_pstate *p, long ret)
{
	if (!ret)
		return;
	uint64_t now = rp_page_up(e, (uint64_t)ret), was = rp_page_up(e, p->cur_brk);
	int64_t d = p->brk_delta;
	if (now > was)
		am_set(&p->am, was - (uint64_t)d, now - (uint64_t)d, d);
	else if (now < was)
		am_remove(&p->am, now - (uint64_t)d, was - (uint64_t)d);
	p->cur_brk = (uint64_t)ret;
}

/* What moving the break from the current one to `target` (replay
 * addresses; 0 asks) does to the heap; fx is left as it is for no change. */
static inline void brk_effect(const struct rp_engine *e, const struct rp_pstate *p, uint64_t target,
                              struct rp_effect *fx)
{
	uint64_t old = rp_page_up(e, p->cur_brk), new = rp_page_up(e, target);
	if (target && p->cur_brk && new > old)
		*fx = (struct rp_effect){ .lo = old, .hi = new, .kind = RP_FX_CREATE, .fresh = 1 };
	else if (target && p->cur_brk && new < old)
		*fx = (struct rp_effect){ .lo = new, .hi = old, .kind = RP_FX_REMOVE };
}

__attribute__((hot)) static void apply_brk(struct rp_engine *e, struct rp_pstate *p, const struct vmt_event *rec,
                      struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx, int64_t *want)
{
	uint64_t target = rec->args[0] ? rec->args[0] + (uint64_t)p->brk_delta : 0;
	ev->args[0] = target;
	brk_effect(e, p, target, fx);
	e->be->apply(p->space, ev, NULL, fx, out);
	*want = rec->result + p->brk_delta;
	if (!out->err)
		heap_moved(e, p, out->ret);
}

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
	struct rp_forked f = { 0 };
	uint64_t t0 = lat_tick();
	int r = e->be->fork(p->space, rec->seq, &f);
	uint64_t lat = lat_tick_ns(lat_tick() - t0);
	out->latency_ns = lat > e->cfg.clock_cost ? lat - e->cfg.clock_cost : 0;
	if (r < 0) {
		out->err = -r;
		out->outcome = VR_FAILED;
		atomic_store(&e->sh->slots[child].finished, 1);
		rp_incomplete(e, "event %zu: fork failed here (%s): the events of pid %d are skipped", (size_t)(rec - e->t->events), strerror(-r),
		              e->t->procs[child].pid);
		return STEP_DONE;
	}
	struct rp_pstate *c = &e->ps[child];
	if (f.in_child) {
		/* the child process: it replays only the child from now on */
		*c = *p;
		p->owned = 0;
		c->owned = 1;
		c->started = 0;
		c->peak = c->count;
		e->sh->slots[child].rss_base = rp_mem_resident(0);
		e->sh->slots[child].real_pid = f.pid;
		return STEP_FORK_CHILD;
	}
	if (f.pid) {   /* the child's own replayer goes on with it */
		e->sh->slots[child].real_pid = f.pid;
		out->ret = f.pid;
		return STEP_DONE;
	}
	*c = *p;
	am_init(&c->am);
	for (size_t i = 0; i < p->am.n; i++)
		am_set(&c->am, p->am.r[i].start, p->am.r[i].end, p->am.r[i].delta);
	am_init(&c->holds);
	for (size_t i = 0; i < p->holds.n; i++)
		am_set(&c->holds, p->holds.r[i].start, p->holds.r[i].end, 0);
	c->space = f.child;
	c->owned = 1;
	c->started = 0;
	return STEP_DONE;
}

/* The offset the replay applied to the event: replay address - recorded
 * address of what the call returns (mmap, mremap, brk, shmat) or of its
 * range (the rest); 0 for the simulator, which replays in recorded
 * addresses.  *moved: a call that named the address of a new mapping
 * (MAP_FIXED, MAP_FIXED_NOREPLACE, MREMAP_FIXED) below RP_LOW_TOP, where
 * an address means itself, was issued elsewhere.  Calls on existing
 * mappings follow them and count as nothing of their own. */
static int64_t event_offset(const struct rp_engine *e, const struct rp_pstate *p,
                            const struct vmt_event *rec, const struct vmt_event *ev, int *moved)
{
	uint64_t at = rec->args[0];
	int64_t off;
	*moved = 0;
	if (e->be->recorded_addresses)
		return 0;
	switch (vmt_sys_effect(rec->sys)) {
	case VMT_FX_BRK:
		return p->brk_delta;
	case VMT_FX_MAP: {
		int fixed = (rec->args[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
		if (!rec->err)
			at = (uint64_t)rec->result;
		off = ev->args[0] && (fixed || !rec->err) ? (int64_t)(ev->args[0] - at)
		                                          : rp_unit_delta(p->unit, at);
		*moved = off && fixed && at < RP_LOW_TOP;
		return off;
	}
	case VMT_FX_REMAP: {
		off = (int64_t)(ev->args[0] - rec->args[0]);
		if (rec->args[3] & MREMAP_FIXED) {
			int64_t d = (int64_t)(ev->args[4] - rec->args[4]);
			*moved |= d && rec->args[4] < RP_LOW_TOP;
			return d;
		}
		if (!rec->err && (uint64_t)rec->result != rec->args[0]) {
			return ev->args[3] & MREMAP_FIXED ? (int64_t)(ev->args[4] - (uint64_t)rec->result)
			                                  : rp_unit_delta(p->unit, (uint64_t)rec->result);
		}
		return off;
	}
	case VMT_FX_UNMAP: case VMT_FX_CHANGE: {
		int ai, li;
		vmt_sys_range_args(rec->sys, &ai, &li);
		if (ai < 0)
			return rp_ranges_offset(e, p, rec);   /* its range is in its RANGES record */
		return (int64_t)((ev->args[ai] & ~(e->page - 1)) - (rec->args[ai] & ~(e->page - 1)));
	}
	default:
		return 0;
	}
}

/* The event's place in the replay's own order. */
static inline void note_order(struct rp_engine *e, struct rp_evres *r)
{
	if (e->multi) {
		r->order = atomic_fetch_add_explicit(&e->sh->order, 1, memory_order_relaxed) + 1;
	} else {
		r->order = ++e->order;
		if (!(e->order & 1023))   /* for the progress line */
			atomic_store_explicit(&e->sh->order, e->order, memory_order_relaxed);
	}
}

/* A brk on the short path: without outcomes (--no-outcomes), or with the
 * outcome the back end tells from what it knows (brk_known), one call at a
 * time.  What apply_brk and the general path below do, less the event
 * copy, the dispatch and the bookkeeping of other calls: a brk_test trace
 * is nearly all brk, and the general path was most of what the replay added
 * to each of its calls.  -1: not here (nothing issued). */
__attribute__((hot)) static int replay_brk_short(struct rp_engine *e, struct rp_pstate *p,
                                                 const struct vmt_event *rec, struct rp_evres *r, size_t i)
{
	uint64_t target = rec->args[0] ? rec->args[0] + (uint64_t)p->brk_delta : 0;
	struct vr_result out;
	struct rp_effect fx = { .kind = RP_FX_NONE };
	if (e->lean_brk) {
		long ret = e->be->brk_timed(p->space, target, &out.latency_ns);
		out.err = vmt_raw_failed(ret) ? (int)-ret : 0;
		out.ret = out.err ? -1 : ret;
		out.outcome = VR_UNCHANGED;
	} else {
		brk_effect(e, p, target, &fx);
		if (fx.kind == RP_FX_NONE || !e->be->brk_known(p->space, target, &fx, &out))
			return -1;
	}
	r->ret = out.ret;
	r->err = out.err;
	r->latency_ns = out.latency_ns;
	r->outcome = (uint8_t)(out.err ? VR_FAILED : out.outcome);
	r->offset = p->brk_delta;   /* as event_offset gives a brk */
	note_order(e, r);
	result_check(e, i, rec, r, rec->result + p->brk_delta);
	if (!out.err)
		heap_moved(e, p, out.ret);
	if (e->lean_brk) {
		r->vma_count = -1;
	} else {
		p->count = fx.have_delta ? p->count + fx.vma_delta : rp_full_count(e->be, p);
		r->vma_count = p->count;
		if (p->count > p->peak)
			p->peak = p->count;
	}
	r->done = 1;
	return STEP_DONE;
}

__attribute__((hot)) int rp_replay_event(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i)
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
	if (rec->sys == VMT_SYS_BRK && (e->lean_brk || e->known_brk)) {
		int ret = replay_brk_short(e, p, rec, r, i);
		if (ret >= 0)
			return ret;
	}
	struct vmt_event ev = *rec;
	struct vr_result out = { .vma_count = -1, .outcome = VR_UNCHANGED };
	struct rp_effect fx = { .kind = RP_FX_NONE };
	int skipped = 0, ret = STEP_DONE;
	int64_t want = INT64_MIN;
	/* what the table says the call does */
	switch (vmt_sys_effect(rec->sys)) {
	case VMT_FX_MAP:
		if (rec->sys == VMT_SYS_MMAP)
			apply_mmap(e, slot, p, rec, &ev, &out, &fx, &skipped, &want);
		else
			rp_apply_map_call(e, p, rec, &ev, &out, &fx, &want);
		break;
	case VMT_FX_UNMAP:
		rp_ranged(e, p, &ev, RP_FX_REMOVE, &out, &fx, &skipped);
		if (!out.err && !skipped)
			am_remove(&p->am, rec->args[0] & ~(e->page - 1), rp_page_up(e, rec->args[0] + rec->args[1]));
		break;
	case VMT_FX_CHANGE:
		if (vmt_sys_ranges(rec->sys) != VMT_RANGES_NONE && !rp_range_in_args(rec->sys)) {
			rp_apply_ranges_call(e, p, rec, &ev, &out, &fx, &want, &skipped);
			break;
		}
		rp_call_pointers(e, p, rec, &ev);
		if (vmt_sys_ranges(rec->sys) != VMT_RANGES_NONE)
			fx.ranges = rp_trace_ranges(e->t, rec);   /* its nodemask or name (the simulator's) */
		rp_ranged(e, p, &ev, RP_FX_MODIFY, &out, &fx, &skipped);
		break;
	case VMT_FX_REMAP:
		apply_mremap(e, p, rec, &ev, &out, &fx, &skipped, &want);
		break;
	case VMT_FX_BRK:
		apply_brk(e, p, rec, &ev, &out, &fx, &want);
		break;
	default:
		if (rp_ipc_event(e, slot, p, i, &ev, &out, &fx, &skipped, &want))
			break;   /* shmat, shmdt, mlockall, munlockall */
		if (vmt_sys_effect(rec->sys) == VMT_FX_PROCESS) {
			rp_apply_process_call(e, p, rec, &ev, &out, &want);   /* prctl's options */
			break;
		}
		if (rp_is_fork(rec)) {
			ret = apply_fork(e, slot, p, rec, &out);
			if (ret == STEP_FORK_CHILD)
				return ret;
		} else {
			if ((rec->sys == VMT_SYS_EXECVE || rec->sys == VMT_SYS_EXECVEAT) && !rec->err)
				p->needs_build = 1;   /* the next map is the new image's */
			skipped = 1;   /* threads, exec, exit: nothing to redo */
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
	if (!skipped) {
		int moved;
		r->offset = event_offset(e, p, rec, &ev, &moved);
		r->moved = (uint8_t)moved;
	}
	note_order(e, r);
	r->done = 1;
	if (!skipped && !rp_is_fork(rec))
		result_check(e, i, rec, r, want);
	if (!skipped && fx.kind != RP_FX_NONE) {
		/* the back end's count counts the recorder's VMAs too */
		if (e->be->counts_each_call)
			p->count = out.vma_count >= 0 ? out.vma_count - p->held : rp_full_count(e->be, p);
		else if (fx.have_delta)
			p->count += fx.vma_delta;
		else if (e->o->outcomes)
			p->count = rp_full_count(e->be, p);
	}
	r->vma_count = e->o->outcomes || e->be->counts_each_call ? p->count : -1;
	if (p->count > p->peak)
		p->peak = p->count;
	return ret;
}
