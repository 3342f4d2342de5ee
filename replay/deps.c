/* One sweep over the steps in recorded order.  Per process it keeps the
 * last process-wide step (the barrier), the last brk and, in an address
 * map, the last step that touched each recorded page since the barrier.
 * Only the last toucher of a page matters: it already waited for the ones
 * before it, and everything before the barrier is covered by the barrier. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/addrmap.h"
#include "replay/deps.h"
#include "lib/compat.h"

#define NONE UINT32_MAX

/* The most pieces a process's map of last touchers holds (24 bytes each):
 * past it the next step is made process-wide, which waits for every
 * lane's last step and empties the map.  Only a process that touches ever
 * new ranges with no process-wide step between them gets there; the cost
 * is one wait for all its threads, the gain a sweep whose memory does not
 * grow with such a trace.  (A test may set it lower.) */
#ifndef DEPS_MAX_PIECES
#define DEPS_MAX_PIECES 65536
#endif

enum { C_NONE, C_RANGE, C_BRK, C_ALL };

struct cls {
	int kind;
	int n;
	uint64_t r[2][2];     /* recorded page ranges, [lo, hi) */
};

struct proc {
	struct addrmap last;  /* page -> last step touching it ("delta" holds the step) */
	uint32_t barrier, brk, fork, lanes;
	uint64_t rec_brk;     /* the recorded break; 0 unknown */
	int seen;
};

struct build {
	const struct rp_trace *t;
	struct rp_deps *d;
	struct proc *p;
	uint64_t page;
	int kplace;
	size_t lcap, hcap, ntouched;
	/* per lane: its last step, the next lane of its process, the last
	 * barrier it is known to follow; scratch for the step being built */
	uint32_t *lane_last, *lane_next, *lane_bar, *best, *touched;
	uint64_t *hkey;       /* (slot, tid) -> lane + 1 in hval */
	uint32_t *hval;
};

int32_t rp_step_tid(const struct rp_trace *t, size_t s)
{
	const struct rp_step *st = &t->steps[s];
	return st->kind == RP_EVENT ? t->events[st->idx].tid : t->procs[st->slot].pid;
}

static int is_fork(const struct vmt_event *ev)
{
	return ev->sys == VMT_SYS_FORK || ev->sys == VMT_SYS_VFORK ||
	       ((ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) && !(ev->flags & VMT_EV_THREAD));
}

static int grow(void *pp, size_t elem, size_t cap)
{
	void *n = realloc(*(void **)pp, cap * elem);
	if (!n)
		return -1;
	*(void **)pp = n;
	return 0;
}

/* ---- lanes ----------------------------------------------------------- */

static int rehash(struct build *b, size_t cap)
{
	uint64_t *k = calloc(cap, sizeof(*k));
	uint32_t *v = calloc(cap, sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return -1;
	}
	for (size_t i = 0; i < b->hcap; i++) {
		if (!b->hval[i])
			continue;
		size_t j = (b->hkey[i] * 0x9e3779b97f4a7c15ull >> 32) & (cap - 1);
		while (v[j])
			j = (j + 1) & (cap - 1);
		k[j] = b->hkey[i];
		v[j] = b->hval[i];
	}
	free(b->hkey);
	free(b->hval);
	b->hkey = k;
	b->hval = v;
	b->hcap = cap;
	return 0;
}

static uint32_t new_lane(struct build *b, uint32_t slot, int32_t tid)
{
	struct rp_deps *d = b->d;
	if (d->nlanes == b->lcap) {
		size_t cap = b->lcap ? 2 * b->lcap : 16;
		if (grow(&d->lane_slot, sizeof(uint32_t), cap) || grow(&d->lane_tid, sizeof(int32_t), cap) ||
		    grow(&d->lane_first, sizeof(uint32_t), cap) || grow(&d->lane_spawn, sizeof(uint32_t), cap) ||
		    grow(&b->lane_last, sizeof(uint32_t), cap) || grow(&b->lane_next, sizeof(uint32_t), cap) ||
		    grow(&b->lane_bar, sizeof(uint32_t), cap) ||
		    grow(&b->best, sizeof(uint32_t), cap) || grow(&b->touched, sizeof(uint32_t), cap))
			return NONE;
		b->lcap = cap;
	}
	uint32_t l = d->nlanes++;
	d->lane_slot[l] = slot;
	d->lane_tid[l] = tid;
	d->lane_first[l] = NONE;
	d->lane_spawn[l] = NONE;
	b->lane_last[l] = NONE;
	b->lane_bar[l] = NONE;
	b->best[l] = NONE;
	b->lane_next[l] = b->p[slot].lanes;
	b->p[slot].lanes = l;
	return l;
}

static uint32_t lane_of(struct build *b, uint32_t slot, int32_t tid)
{
	if (2 * (b->d->nlanes + 1) > b->hcap && rehash(b, b->hcap ? 2 * b->hcap : 64))
		return NONE;
	uint64_t key = (uint64_t)slot << 32 | (uint32_t)tid;
	size_t i = (key * 0x9e3779b97f4a7c15ull >> 32) & (b->hcap - 1);
	for (; b->hval[i]; i = (i + 1) & (b->hcap - 1))
		if (b->hkey[i] == key)
			return b->hval[i] - 1;
	uint32_t l = new_lane(b, slot, tid);
	if (l != NONE) {
		b->hkey[i] = key;
		b->hval[i] = l + 1;
	}
	return l;
}

/* ---- what a step touches --------------------------------------------- */

/* Add the pages of [lo, lo + len) to c: 0 when the range wraps. */
static int add(const struct build *b, struct cls *c, uint64_t lo, uint64_t len)
{
	uint64_t hi = lo + len;
	if (hi < lo || hi > UINT64_MAX - b->page)
		return 0;
	c->r[c->n][0] = lo & ~(b->page - 1);
	c->r[c->n][1] = (hi + b->page - 1) & ~(b->page - 1);
	c->n++;
	return 1;
}

static void classify_brk(const struct build *b, struct proc *P, const struct vmt_event *ev, struct cls *c)
{
	uint64_t was = P->rec_brk, now = ev->err ? 0 : (uint64_t)ev->result, to = ev->args[0];
	if (now)
		P->rec_brk = now;
	if (to && !was)
		return;           /* moves from a break not known here: process-wide */
	c->kind = C_BRK;
	if (!to)
		return;           /* a query changes nothing */
	/* whatever the break passes, recorded or (if refused here) asked for */
	uint64_t lo = was < to ? was : to, hi = was > to ? was : to;
	if (now && now < lo)
		lo = now;
	if (now > hi)
		hi = now;
	add(b, c, lo, hi - lo);
}

static void classify(const struct build *b, struct proc *P, size_t s, struct cls *c)
{
	const struct rp_step *st = &b->t->steps[s];
	c->kind = C_ALL;
	c->n = 0;
	if (st->kind != RP_EVENT)
		return;
	const struct vmt_event *ev = &b->t->events[st->idx];
	const uint64_t *a = ev->args;
	int ai, li;
	switch (vmt_sys_effect(ev->sys)) {
	case VMT_FX_UNMAP: case VMT_FX_CHANGE: {
		vmt_sys_range_args(ev->sys, &ai, &li);
		if (ai >= 0) {
			if (add(b, c, a[ai], a[li]))
				c->kind = C_RANGE;
			return;
		}
		/* its ranges are in its RANGES record; without one, all */
		const struct vmt_ranges *r = rp_trace_ranges(b->t, ev);
		for (uint32_t i = 0; r && i < r->n; i++)
			if (!add(b, c, r->ranges[i].start, r->ranges[i].len))
				return;
		if (r && r->n)
			c->kind = C_RANGE;
		return;
	}
	case VMT_FX_MAP: {
		/* placed by the kernel: where depends on everything before */
		int fixed = (a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
		if (!ev->err && (fixed || !b->kplace) && add(b, c, (uint64_t)ev->result, a[1]))
			c->kind = C_RANGE;
		else if (ev->err && fixed && add(b, c, a[0], a[1]))
			c->kind = C_RANGE;
		return;
	}
	case VMT_FX_REMAP: {
		int moved = !ev->err && (uint64_t)ev->result != a[0];
		if (!add(b, c, a[0], a[2] > a[1] ? a[2] : a[1]))
			return;
		if (a[3] & MREMAP_FIXED) {
			if (!add(b, c, a[4], a[2]))
				return;
		} else if (moved) {
			if (b->kplace || !add(b, c, (uint64_t)ev->result, a[2]))
				return;
		} else if (ev->err && (a[3] & MREMAP_MAYMOVE)) {
			return;   /* may move anywhere if it succeeds here */
		}
		c->kind = C_RANGE;
		return;
	}
	case VMT_FX_BRK:
		classify_brk(b, P, ev, c);
		return;
	case VMT_FX_TASK:
		if (ev->flags & VMT_EV_THREAD)
			c->kind = C_NONE;   /* a thread (clone, clone3) */
		return;
	case VMT_FX_EXIT:
		if (ev->sys == VMT_SYS_EXIT)
			c->kind = C_NONE;   /* a thread's end changes no mapping */
		return;
	case VMT_FX_EXEC:
		if (!ev->err)
			P->rec_brk = 0;
		return;
	default:
		return;   /* shmat/shmdt, mlockall, prctl's options, unknown: process-wide */
	}
}

/* ---- the wait-for lists ---------------------------------------------- */

/* Step `own_lane` must come after step `step`. */
static void want(struct build *b, uint32_t own_lane, uint32_t step)
{
	uint32_t l = b->d->lane[step];
	if (l == own_lane)
		return;
	if (b->best[l] == NONE)
		b->touched[b->ntouched++] = l;
	if (b->best[l] == NONE || step > b->best[l])
		b->best[l] = step;
}

static int flush(struct build *b)
{
	struct rp_deps *d = b->d;
	if ((d->ndeps + b->ntouched) * sizeof(uint32_t) > d->dep_sp.bytes) {
		if (rp_spill_grow(&d->dep_sp, (d->ndeps + b->ntouched) * sizeof(uint32_t)))
			return -1;
		d->dep = d->dep_sp.p;
	}
	uint32_t *out = d->dep + d->ndeps;
	for (size_t i = 0; i < b->ntouched; i++) {
		uint32_t v = b->best[b->touched[i]], j = (uint32_t)i;
		b->best[b->touched[i]] = NONE;
		for (; j > 0 && out[j - 1] > v; j--)
			out[j] = out[j - 1];
		out[j] = v;
	}
	d->ndeps += b->ntouched;
	b->ntouched = 0;
	return 0;
}

static int ranged_step(struct build *b, struct proc *P, uint32_t lane, uint32_t s, const struct cls *c)
{
	if (P->barrier != NONE && b->lane_bar[lane] != P->barrier) {
		want(b, lane, P->barrier);
		b->lane_bar[lane] = P->barrier;
	}
	if (c->kind == C_BRK) {
		if (P->brk != NONE)
			want(b, lane, P->brk);
		P->brk = s;
	}
	for (int i = 0; i < c->n; i++) {
		/* one page more on each side: touching ranges conflict too */
		uint64_t lo = c->r[i][0] >= b->page ? c->r[i][0] - b->page : 0;
		uint64_t hi = c->r[i][1] + b->page, cur = lo;
		struct am_piece pc;
		while (am_next_piece(&P->last, &cur, hi, &pc))
			if (pc.mapped)
				want(b, lane, (uint32_t)pc.delta);
	}
	for (int i = 0; i < c->n; i++)
		if (am_set(&P->last, c->r[i][0], c->r[i][1], s))
			return -1;
	return 0;
}

static void process_wide(struct build *b, struct proc *P, uint32_t lane, uint32_t s)
{
	for (uint32_t l = P->lanes; l != NONE; l = b->lane_next[l])
		if (b->lane_last[l] != NONE && (P->barrier == NONE || b->lane_last[l] >= P->barrier))
			want(b, lane, b->lane_last[l]);
	am_clear(&P->last);
	P->barrier = s;
	b->lane_bar[lane] = s;
	P->brk = NONE;
}

/* A thread's clone: its replayer thread can start there, unless the thread
 * already made calls (the clone's record may come after them). */
static int note_thread(struct build *b, uint32_t slot, uint32_t lane, const struct vmt_event *ev, uint32_t s)
{
	if (ev->err || ev->result <= 0)
		return 0;
	uint32_t l = lane_of(b, slot, (int32_t)ev->result);
	if (l == NONE)
		return -1;
	if (l != lane && b->d->lane_first[l] == NONE && b->d->lane_spawn[l] == NONE) {
		b->d->lane_spawn[l] = s;
		b->d->nspawns++;
	}
	return 0;
}

/* A fork step: the child's first step comes after it, from its break. */
static void note_fork(struct build *b, const struct proc *P, uint32_t slot, const struct vmt_event *ev, uint32_t s)
{
	if (ev->err || ev->result <= 0)
		return;
	for (size_t c = 0; c < b->t->nprocs; c++)
		if (b->t->procs[c].pid == (int32_t)ev->result && b->t->procs[c].parent_slot == (int32_t)slot &&
		    !b->p[c].seen) {
			b->p[c].fork = s;
			b->p[c].rec_brk = P->rec_brk;
		}
}

static void spills_init(struct rp_deps *d)
{
	rp_spill_init(&d->lane_sp, 0);
	rp_spill_init(&d->off_sp, 0);
	rp_spill_init(&d->dep_sp, 0);
	rp_spill_init(&d->next_sp, 0);
}

void rp_deps_drop(const struct rp_deps *d)
{
	rp_spill_drop(&d->lane_sp);
	rp_spill_drop(&d->off_sp);
	rp_spill_drop(&d->dep_sp);
	rp_spill_drop(&d->next_sp);
}

int rp_deps_build(struct rp_deps *d, const struct rp_trace *t, int kernel_placement, uint64_t page)
{
	memset(d, 0, sizeof(*d));
	spills_init(d);
	struct build b = { .t = t, .d = d, .page = page ? page : 4096, .kplace = kernel_placement };
	int ret = -1;
	size_t per_step = (t->nsteps + 1) * sizeof(uint32_t);
	b.p = calloc(t->nprocs + 1, sizeof(*b.p));
	if (!b.p || rp_spill_grow(&d->lane_sp, per_step) || rp_spill_grow(&d->off_sp, per_step) ||
	    rp_spill_grow(&d->next_sp, per_step) || rp_spill_grow(&d->dep_sp, 4096))
		goto out;
	d->lane = d->lane_sp.p;
	d->off = d->off_sp.p;
	d->next = d->next_sp.p;
	d->dep = d->dep_sp.p;
	for (size_t i = 0; i < t->nprocs; i++)
		b.p[i] = (struct proc){ .barrier = NONE, .brk = NONE, .fork = NONE, .lanes = NONE };
	for (size_t s = 0; s < t->nsteps; s++) {
		/* the sweep keeps a window of the steps, events and its own
		 * arrays resident: the driver's memory stays flat too (the
		 * earlier steps it looks back at fault in again) */
		if (s % RP_SPILL_WINDOW == RP_SPILL_WINDOW - 1) {
			rp_trace_drop(t);
			rp_deps_drop(d);
		}
		const struct rp_step *st = &t->steps[s];
		struct proc *P = &b.p[st->slot];
		uint32_t lane = lane_of(&b, st->slot, rp_step_tid(t, s));
		if (lane == NONE)
			goto out;
		d->lane[s] = lane;
		d->off[s] = (uint32_t)d->ndeps;
		struct cls c;
		classify(&b, P, s, &c);
		if (P->last.n > DEPS_MAX_PIECES)
			c.kind = C_ALL;
		if (!P->seen) {
			/* the image is built by the first step */
			P->seen = 1;
			c.kind = C_ALL;
			if (P->fork != NONE)
				want(&b, lane, P->fork);
		}
		if (c.kind == C_ALL)
			process_wide(&b, P, lane, (uint32_t)s);
		else if (ranged_step(&b, P, lane, (uint32_t)s, &c))
			goto out;
		const struct vmt_event *ev = st->kind == RP_EVENT ? &t->events[st->idx] : NULL;
		if (ev && is_fork(ev))
			note_fork(&b, P, st->slot, ev, (uint32_t)s);
		if (ev && (ev->sys == VMT_SYS_CLONE || ev->sys == VMT_SYS_CLONE3) && (ev->flags & VMT_EV_THREAD) &&
		    note_thread(&b, st->slot, lane, ev, (uint32_t)s))
			goto out;
		if (flush(&b))
			goto out;
		if (b.lane_last[lane] != NONE)
			d->next[b.lane_last[lane]] = (uint32_t)s;
		else
			d->lane_first[lane] = (uint32_t)s;
		d->next[s] = NONE;
		b.lane_last[lane] = (uint32_t)s;
	}
	d->off[t->nsteps] = (uint32_t)d->ndeps;
	/* lanes are numbered as first seen, so spawned ones come in clone order */
	d->spawns = malloc((d->nspawns + 1) * sizeof(*d->spawns));
	if (!d->spawns)
		goto out;
	for (uint32_t l = 0, n = 0; l < d->nlanes; l++)
		if (d->lane_spawn[l] != NONE)
			d->spawns[n++] = l;
	rp_spill_seal(&d->lane_sp);
	rp_spill_seal(&d->off_sp);
	rp_spill_seal(&d->dep_sp);
	rp_spill_seal(&d->next_sp);
	rp_trace_drop(t);
	rp_deps_drop(d);
	ret = 0;
out:
	for (size_t i = 0; b.p && i < t->nprocs; i++)
		am_free(&b.p[i].last);
	free(b.p);
	free(b.lane_last);
	free(b.lane_next);
	free(b.lane_bar);
	free(b.best);
	free(b.touched);
	free(b.hkey);
	free(b.hval);
	if (ret)
		rp_deps_free(d);
	return ret;
}

uint32_t rp_deps_spawned(const struct rp_deps *d, uint32_t s)
{
	uint32_t lo = 0, hi = d->nspawns;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->lane_spawn[d->spawns[mid]] < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->nspawns && d->lane_spawn[d->spawns[lo]] == s ? d->spawns[lo] : NONE;
}

void rp_deps_free(struct rp_deps *d)
{
	rp_spill_free(&d->lane_sp);
	rp_spill_free(&d->off_sp);
	rp_spill_free(&d->dep_sp);
	rp_spill_free(&d->next_sp);
	free(d->lane_slot);
	free(d->lane_tid);
	free(d->lane_first);
	free(d->lane_spawn);
	free(d->spawns);
	memset(d, 0, sizeof(*d));
	spills_init(d);   /* no descriptor 0 to close a second time */
}
