/* image.c - a recorded process image rebuilt in the replay: stand-ins for
 * its initial mappings and heap, its pages faulted in where the recording
 * says they were resident, and its VMAs counted. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "replay/engine_int.h"

/* What the back end needs to know of p's image. */
static struct rp_image image_of(const struct rp_pstate *p)
{
	return (struct rp_image){ .am = &p->am, .holds = &p->holds, .special = p->special,
	                          .heap_start = p->heap_start, .locked_future = p->locked_future };
}

int64_t rp_full_count(const struct rp_backend *be, const struct rp_pstate *p)
{
	struct rp_image img = image_of(p);
	int64_t n = be->count_image(p->space, &img);
	return n < 0 ? -1 : n;
}

/* The shared slot is written at checkpoints and at the end only: one less
 * cache line per replayed call. */
void rp_publish_count(struct rp_slot_state *st, const struct rp_pstate *p)
{
	if (p->peak > st->peak)
		st->peak = p->peak;
	st->end_count = p->count;
}

/* The recorded start of the heap and, when the map has one, its end (past
 * every [heap] VMA: a heap split by mprotect shows several). */
static uint64_t recorded_start_brk(const struct rp_trace *t, uint64_t page, const struct vmt_map *m,
                                   size_t from_step, uint32_t slot, uint64_t *heap_end)
{
	uint64_t start = 0;
	*heap_end = 0;
	for (uint32_t i = 0; m && i < m->nvma; i++)
		if (strcmp(m->vmas[i].name, "[heap]") == 0) {
			if (!start)
				start = m->vmas[i].start;
			*heap_end = m->vmas[i].end;
		}
	if (start)
		return start;
	for (size_t s = from_step; s < t->nsteps; s++) {
		rp_trace_tick(t, s);
		const struct rp_step *st = &t->steps[s];
		if (st->slot != slot)
			continue;
		if (st->kind == RP_PROCESS && s != from_step)
			break;
		if (st->kind != RP_EVENT || t->events[st->idx].sys != VMT_SYS_BRK)
			continue;
		const struct vmt_event *ev = &t->events[st->idx];
		uint64_t a = ev->args[0] && ev->args[0] < (uint64_t)ev->result ? ev->args[0] : (uint64_t)ev->result;
		return a & ~(page - 1);
	}
	return 0;
}

/* The image goes: what it mapped, its space, its unit's fills. */
static void teardown(struct rp_engine *e, struct rp_pstate *p)
{
	if (p->space) {
		struct rp_image img = image_of(p);
		if (e->be->end_image)
			e->be->end_image(p->space, &img);
		rp_space_free(e, p->space);
		p->space = NULL;
	}
	if (p->unit)
		rp_unit_leave(e, p->unit);
	am_clear(&p->am);
	am_clear(&p->holds);
}

void rp_end_image(struct rp_engine *e, struct rp_pstate *p)
{
	if (p->built)
		teardown(e, p);
	p->built = 0;
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

/* The heap from the recorded start_brk to heap_end (0: none mapped yet),
 * where the back end puts it (place_heap). */
static void build_heap(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, const struct vmt_map *m,
                       uint64_t rec_brk, uint64_t heap_end)
{
	uint64_t top = heap_end > rec_brk ? heap_end : rec_brk;
	p->brk_delta = 0;
	p->cur_brk = rec_brk;
	if (!rec_brk)
		return;
	struct rp_heap h = { .start_brk = rec_brk, .brk = top, .delta = rp_unit_delta(p->unit, rec_brk),
	                     .own_brk = e->base_brk, .in_place = e->heap_in_place };
	int err = e->be->place_heap(p->space, m, &h);
	if (err < 0)
		rp_say(e, "pid %d: cannot move the break to the recorded heap at %#llx (%s): the heap grows from the replayer's own break",
		       e->t->procs[slot].pid, (unsigned long long)rec_brk, strerror(-err));
	p->brk_delta = h.brk_delta;
	if (h.heap_start)
		p->heap_start = h.heap_start;
	p->cur_brk = h.cur_brk;
	if (top > rec_brk)
		am_set(&p->am, rec_brk, top, p->brk_delta);
}

/* A placeholder of the recorder's VMA v: the same range and kind, and its
 * protection at its edges, so program mappings beside it merge or fail as
 * they did when recorded.  The recorder's file mappings are its own files
 * (the trace store, a 1 TiB MAP_NORESERVE window), which no program
 * mapping shares: a shared anonymous (shmem) mapping is one too, and
 * MAP_NORESERVE as the store is, or the commit of its whole window is
 * refused.  The back end never populates a placeholder (rp_standin_map's
 * hold): a replayed mlockall or MAP_POPULATE fills the program's ranges,
 * never the recorder's.
 * Not in the address map: never counted, torn down with the image.  The
 * simulator has them in the map its space is made from (its standin does
 * nothing), and counts without them (count_image; after each call, its
 * count less p->held). */
static void place_holder(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, const struct vmt_vma *v)
{
	int64_t d = rp_unit_delta(p->unit, v->start);
	int shared = (v->flags & VMT_VMA_SHARED) || v->file_id;
	struct rp_standin_map sm = {
		.start = v->start + (uint64_t)d, .end = v->end + (uint64_t)d,
		.prot = (int)(v->prot & 7),
		.flags = (shared ? MAP_SHARED | MAP_NORESERVE : MAP_PRIVATE) | MAP_ANONYMOUS,
		.fd = -1, .hold = 1,
	};
	int err = e->be->standin(p->space, &sm);
	/* EEXIST: the replayer's own memory is there, which holds it as well */
	if (err && err != -EEXIST)
		rp_say(e, "pid %d: cannot hold the recorder's mapping %#llx-%#llx: %s", e->t->procs[slot].pid,
		       (unsigned long long)v->start, (unsigned long long)v->end, strerror(-err));
	if (!err)
		am_set(&p->holds, v->start, v->end, d);
}

void rp_build_image(struct rp_engine *e, size_t step, uint32_t slot, struct rp_pstate *p,
                        const struct vmt_map *m)
{
	int first = !p->built;
	if (p->built)
		teardown(e, p);   /* and what exec ends: mlockall(MCL_FUTURE) */
	p->locked_future = 0;
	p->unit = rp_unit_at(e, step, slot);
	p->special = 0;
	p->held = 0;
	/* the recorder's own VMAs shaped the recording: a program mapping
	 * placed next to one merged, or failed MAP_FIXED_NOREPLACE, against it.
	 * The replay holds them (place_holder), uncounted. */
	for (uint32_t i = 0; m && i < m->nvma; i++) {
		int rec = (m->vmas[i].flags & VMT_VMA_RECORDER) != 0;
		p->held += rec;
		p->special += !rec && rp_is_special_vma(&m->vmas[i]);
	}
	if (!p->space)
		p->space = e->be->space_new(&e->cfg, m, &e->t->header.host);
	if (!p->space) {
		rp_say(e, "the %s back end could not build the address space of pid %d", e->be->target,
		    e->t->procs[slot].pid);
		return;
	}
	/* the address map and the counting scratch sized for the worst case up
	 * front: the replayer allocates nothing while it replays (a new
	 * allocator chunk could land where a recorded mapping goes) */
	uint32_t nvma = m ? m->nvma : 0;
	size_t most = nvma - p->held + 2 * (size_t)e->t->procs[slot].nevents + 8;
	if (most > (1u << 20))
		most = 1u << 20;
	am_reserve(&p->am, most);
	am_reserve(&p->holds, p->held + 1);
	if (e->be->reserve)
		e->be->reserve(p->space, most);
	/* after the allocations above: they stay out of the window */
	rp_unit_enter(e, p->unit, first);
	uint64_t heap_end;
	uint64_t rec_brk = recorded_start_brk(e->t, e->page, m, step, slot, &heap_end);
	int heap_built = 0;
	for (uint32_t i = 0; i < nvma; i++) {   /* placeholders among them, in address order */
		const struct vmt_vma *v = &m->vmas[i];
		if (v->flags & VMT_VMA_RECORDER) {
			place_holder(e, slot, p, v);
			continue;
		}
		/* in address order, as exec sets up the break after the program's
		 * data: the kernel's tree of VMAs then takes a shape like the
		 * original's, and the cost of every later brk depends on it */
		if (!heap_built && v->start >= rec_brk) {
			build_heap(e, slot, p, m, rec_brk, heap_end);
			heap_built = 1;
		}
		if (rp_is_special_vma(v) || strcmp(v->name, "[heap]") == 0)
			continue;
		const struct vmt_file *f = rp_file_of(e->t, slot, v->file_id);
		int fd = rp_fd_of(e->si, f);
		int64_t d = rp_unit_delta(p->unit, v->start);
		struct rp_standin_map sm = {
			.start = v->start + (uint64_t)d, .end = v->end + (uint64_t)d,
			.offset = fd >= 0 ? v->offset : 0,
			.prot = (int)(v->prot & 7), .flags = mmap_flags_of(v, fd), .fd = fd, .file = f,
		};
		int err = e->be->standin(p->space, &sm);
		if (err) {
			atomic_fetch_add(&e->sh->unplaceable, 1);
			rp_say(e, "pid %d: cannot place the initial mapping %#llx-%#llx %s: %s",
			    e->t->procs[slot].pid, (unsigned long long)v->start,
			    (unsigned long long)v->end, v->name, strerror(-err));
			continue;
		}
		am_set(&p->am, v->start, v->end, d);
	}
	if (!heap_built)
		build_heap(e, slot, p, m, rec_brk, heap_end);
	p->built = 1;
	p->needs_build = 0;
	p->count = rp_full_count(e->be, p);
	struct rp_slot_state *st = &e->sh->slots[slot];
	if (!p->started) {
		st->start_count = p->count;
		p->peak = p->count;
		p->started = 1;
	}
	if (p->count > p->peak)
		p->peak = p->count;
	rp_publish_count(&e->sh->slots[slot], p);
}

static uint8_t touch_bits[1 << 16];

void rp_touch(struct rp_engine *e, struct rp_pstate *p, const struct vmt_residency *r)
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
