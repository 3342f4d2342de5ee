/* Where each recorded address space goes in this process.  A unit is one
 * address space: a process image and the fork children that share its
 * layout until they exec.  Each unit's recorded ranges (with its heap as
 * far as the recorded break went, when the heap is replayed in place) move
 * by the smallest offset (0 first) that keeps them off the replayer's own
 * memory (and the room a heap grown from the replayer's break needs).
 *
 * --placement kernel: the unit's initial mmap area (the recorded mappings
 * above the largest gap below the stack) becomes a window placed directly
 * below the replayer's lowest top-down mapping, at an offset that keeps
 * 2 MiB alignment.  The driver fills the gaps among its own mappings above
 * it and reserves the window region until a replayer builds its image, so
 * a no-hint mmap meets the recorded layout first, as in the original. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/engine_int.h"
#include "replay/placement.h"

#define NONE UINT32_MAX
#define PMD (2ull << 20)
#define USER_TOP 0x7ffffffff000ull

struct span { uint64_t s, e; };

enum { K_PROG, K_OTHER, K_FIXED, K_PLACED };
struct uspan { uint32_t unit; uint8_t kind; uint64_t s, e; };

struct vec { void *v; size_t n, cap, size; };

static void *push(struct vec *v)
{
	if (v->n == v->cap) {
		size_t c = v->cap ? v->cap * 2 : 256;
		void *nv = realloc(v->v, c * v->size);
		if (!nv)
			return NULL;
		v->v = nv;
		v->cap = c;
	}
	return (char *)v->v + v->size * v->n++;
}

static void add_span(struct vec *v, uint64_t s, uint64_t e)
{
	struct span *p;
	if (s < e && (p = push(v)))
		*p = (struct span){ s, e };
}

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->s < y->s ? -1 : x->s > y->s;
}

static size_t merge_spans(struct span *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_span);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i].s <= v[k].e) {
			if (v[i].e > v[k].e)
				v[k].e = v[i].e;
		} else {
			v[++k] = v[i];
		}
	}
	return k + 1;
}

/* ---- units ------------------------------------------------------------ */

static int cmp_uspan(const void *a, const void *b)
{
	const struct uspan *x = a, *y = b;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return x->s < y->s ? -1 : x->s > y->s;
}

static void add_uspan(struct vec *v, uint32_t unit, int kind, uint64_t s, uint64_t e)
{
	struct uspan *p;
	if (s < e && (p = push(v)))
		*p = (struct uspan){ unit, (uint8_t)kind, s, e };
}

static int is_fixed_mmap(const struct vmt_event *ev)
{
	return (ev->args[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)) != 0;
}

/* The extent of each unit's recorded heap: from its lowest start to the
 * highest break it reached. */
struct heap_span { uint64_t lo, hi; };

static void widen(struct heap_span *h, uint64_t lo, uint64_t hi)
{
	if (!h->lo || lo < h->lo)
		h->lo = lo;
	if (hi > h->hi)
		h->hi = hi;
}

/* Walks the steps in order: which unit every image belongs to, every
 * unit's recorded ranges, and the first map of each unit. */
static int assign_units(const struct rp_engine *e, struct rp_layout *l, struct vec *us,
                        uint32_t **first_map)
{
	const struct rp_trace *t = e->t;
	uint32_t *cur = malloc(t->nprocs * sizeof(*cur));
	uint32_t *pend = malloc(t->nprocs * sizeof(*pend));
	size_t maxu = t->nimages + t->nprocs + 1;
	*first_map = malloc(maxu * sizeof(**first_map));
	l->unit_of_image = malloc((t->nimages + 1) * sizeof(*l->unit_of_image));
	l->unit_of_slot = malloc((t->nprocs + 1) * sizeof(*l->unit_of_slot));
	struct heap_span *heap = calloc(maxu, sizeof(*heap));
	if (!cur || !pend || !*first_map || !l->unit_of_image || !l->unit_of_slot || !heap) {
		free(cur);
		free(pend);
		free(heap);
		return -1;
	}
	for (size_t s = 0; s < t->nprocs; s++)
		cur[s] = pend[s] = l->unit_of_slot[s] = NONE;
	for (size_t i = 0; i < t->nimages; i++)
		l->unit_of_image[i] = NONE;
	uint32_t n = 0;
	for (size_t i = 0; i < t->nsteps; i++) {
		rp_trace_tick(t, i);
		const struct rp_step *st = &t->steps[i];
		uint32_t s = st->slot;
		if (st->kind == RP_PROCESS) {
			int32_t par = t->procs[s].parent_slot;
			uint32_t from = par < 0 || t->images[st->idx].image > 0 ? NONE
			              : pend[s] != NONE ? pend[s] : cur[par];
			if (from == NONE) {
				(*first_map)[n] = NONE;
				from = n++;
			}
			cur[s] = l->unit_of_image[st->idx] = from;
			continue;
		}
		if (cur[s] == NONE) {
			(*first_map)[n] = NONE;
			cur[s] = l->unit_of_slot[s] = n++;
		}
		uint32_t u = cur[s];
		if (st->kind == RP_MAP) {
			const struct vmt_map *m = &t->maps[st->idx];
			if ((*first_map)[u] == NONE)
				(*first_map)[u] = st->idx;
			for (uint32_t j = 0; j < m->nvma; j++) {
				const struct vmt_vma *v = &m->vmas[j];
				int is_heap = !strcmp(v->name, "[heap]");
				int prog = !(v->flags & VMT_VMA_RECORDER) && !rp_is_special_vma(v) && !is_heap;
				if (is_heap)
					widen(&heap[u], v->start, v->end);
				add_uspan(us, u, prog ? K_PROG : K_OTHER, v->start, v->end);
			}
		} else if (st->kind == RP_EVENT) {
			const struct vmt_event *ev = &t->events[st->idx];
			if (rp_is_fork(ev) && !ev->err)
				for (size_t c = 0; c < t->nprocs; c++)
					if (t->procs[c].pid == (int32_t)ev->result && t->procs[c].parent_slot == (int32_t)s)
						pend[c] = u;
			if (ev->err)
				continue;
			uint64_t r = (uint64_t)ev->result;
			if (ev->sys == VMT_SYS_BRK && r)
				widen(&heap[u], r & ~(e->page - 1), rp_page_up(e, r));
			else if (ev->sys == VMT_SYS_MMAP)
				add_uspan(us, u, is_fixed_mmap(ev) ? K_FIXED : K_PLACED, r, r + rp_page_up(e, ev->args[1]));
			else if (ev->sys == VMT_SYS_MREMAP)
				add_uspan(us, u, ev->args[3] & MREMAP_FIXED ? K_FIXED : K_PLACED, r,
				          r + rp_page_up(e, ev->args[2]));
			else if (ev->sys == VMT_SYS_SHMAT && ev->file_id) {
				/* the segment's size is its stand-in file's */
				const struct vmt_file *f = rp_file_of(e->t, s, ev->file_id);
				if (f)
					add_uspan(us, u, ev->args[1] ? K_FIXED : K_PLACED, r, r + rp_page_up(e, f->size));
			}
		}
	}
	for (uint32_t u = 0; e->heap_in_place && u < n; u++)
		add_uspan(us, u, K_PROG, heap[u].lo, heap[u].hi);
	free(cur);
	free(pend);
	free(heap);
	l->nunits = n;
	l->units = calloc(n + 1, sizeof(*l->units));
	return l->units ? 0 : -1;
}

/* ---- the replayer's own memory ---------------------------------------- */

struct own {
	struct span *v;
	size_t n;
	uint64_t low, top;    /* its top-down area: lowest start, highest end */
};

/* The top-down area is what lies above the largest gap below the stack. */
static void top_down_area(const struct span *v, size_t n, uint64_t below, uint64_t *lo, uint64_t *hi)
{
	size_t first = 0, last = 0, any = 0;
	uint64_t gap = 0;
	for (size_t i = 0; i < n && v[i].e <= below; i++) {
		if (any && v[i].s - v[last].e > gap) {
			gap = v[i].s - v[last].e;
			first = i;
		}
		last = i;
		any = 1;
	}
	*lo = any ? v[first].s : 0;
	*hi = any ? v[last].e : 0;
}

static int read_own(const struct rp_engine *e, struct own *o)
{
	struct vec v = { .size = sizeof(struct span) };
	uint64_t stack = USER_TOP;
	FILE *f = fopen("/proc/self/maps", "re");
	if (f) {
		unsigned long long s, en;
		char line[512];
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%llx-%llx", &s, &en) == 2 && s < USER_TOP) {
				add_span(&v, s, en);
				if (strstr(line, "[stack]"))
					stack = s;
			}
		fclose(f);
	}
	o->n = merge_spans(v.v, v.n);
	o->v = v.v;
	top_down_area(o->v, o->n, stack, &o->low, &o->top);
	/* room for a replayed heap to grow from our own break */
	for (size_t i = 0; !e->heap_in_place && i < e->t->nevents; i++, rp_trace_tick_drop(e->t, i))
		if (e->t->events[i].sys == VMT_SYS_BRK) {
			add_span(&v, e->base_brk, e->base_brk + (1ull << 32));
			o->v = v.v;
			o->n = merge_spans(v.v, v.n);
			break;
		}
	return o->v || !v.n ? 0 : -1;
}

static uint64_t min_addr(const struct rp_engine *e)
{
	uint64_t lo = e->t->header.host.mmap_min_addr;
	return lo < 65536 ? 65536 : lo;
}

/* Does any of rec (sorted, disjoint), moved by off, leave [lo, hi) or meet own? */
static int collides(const struct span *rec, size_t nr, const struct span *own, size_t no, int64_t off,
                    uint64_t lo, uint64_t hi)
{
	size_t j = 0;
	for (size_t i = 0; i < nr; i++) {
		uint64_t s = rec[i].s + (uint64_t)off, en = rec[i].e + (uint64_t)off;
		if (s < lo || en > hi || s > en)
			return 1;
		while (j < no && own[j].e <= s)
			j++;
		if (j < no && own[j].s < en)
			return 1;
	}
	return 0;
}

/* The smallest offset, 0 first, that keeps rec and fixed off own and
 * inside [lo, USER_TOP).  At offset 0 the fixed ranges (calls that named
 * their address) may go down to fixed_lo: as recorded, where this
 * replayer may map (what the back end's release_low returns). */
static int choose_offset(const struct span *rec, size_t nr, const struct span *fixed, size_t nf,
                         const struct span *own, size_t no, uint64_t lo, uint64_t fixed_lo, int64_t *off)
{
	const int64_t step = 1ll << 30;
	if (!collides(rec, nr, own, no, 0, lo, USER_TOP) && !collides(fixed, nf, own, no, 0, fixed_lo, USER_TOP)) {
		*off = 0;
		return 0;
	}
	for (int64_t k = 1; k < 4096; k++)
		for (int sign = -1; sign <= 1; sign += 2)
			if (!collides(rec, nr, own, no, sign * k * step, lo, USER_TOP) &&
			    !collides(fixed, nf, own, no, sign * k * step, lo, USER_TOP)) {
				*off = sign * k * step;
				return 0;
			}
	return -1;
}

/* ---- windows (--placement kernel) ------------------------------------- */

static int special_or_stack(const struct vmt_vma *v)
{
	return rp_is_special_vma(v) || !strcmp(v->name, "[stack]") || !strcmp(v->name, "[heap]");
}

/* The recorded top-down area of map m, or an empty window. */
static void recorded_window(const struct vmt_map *m, uint64_t *lo, uint64_t *hi)
{
	uint64_t stack = USER_TOP;
	struct vec v = { .size = sizeof(struct span) };
	for (uint32_t j = 0; j < m->nvma; j++)
		if (!strcmp(m->vmas[j].name, "[stack]"))
			stack = m->vmas[j].start;
	for (uint32_t j = 0; j < m->nvma; j++)
		if (!special_or_stack(&m->vmas[j]) && m->vmas[j].end <= stack)
			add_span(&v, m->vmas[j].start, m->vmas[j].end);
	size_t n = merge_spans(v.v, v.n);
	top_down_area(v.v, n, stack, lo, hi);
	free(v.v);
}

static void add_fill(struct vec *fv, uint64_t s, uint64_t e)
{
	struct rp_fill *f;
	if (s < e && (f = push(fv)))
		*f = (struct rp_fill){ s, e, 0 };
}

/* Window for unit u below our own top-down area; its fillers into fv. */
static void place_window(const struct rp_engine *e, struct rp_unit *u, const struct vmt_map *m,
                         const struct own *o, struct vec *fv)
{
	uint64_t lo, hi;
	recorded_window(m, &lo, &hi);
	if (lo >= hi || !o->low)
		return;
	int64_t woff = ((int64_t)o->low - (int64_t)hi) & ~(int64_t)(PMD - 1);
	struct span w = { lo, hi };
	if (collides(&w, 1, o->v, o->n, woff, min_addr(e), o->low))
		return;
	u->w_lo = lo;
	u->w_hi = hi;
	u->woff = woff;
	u->fill0 = fv->n;
	add_fill(fv, hi + (uint64_t)woff, o->low);
	for (uint32_t j = 0; j < m->nvma; j++) {
		const struct vmt_vma *v = &m->vmas[j];
		int rebuilt = !(v->flags & VMT_VMA_RECORDER) && !rp_is_special_vma(v) && strcmp(v->name, "[heap]");
		uint64_t s = v->start > lo ? v->start : lo, en = v->end < hi ? v->end : hi;
		if (!rebuilt && s < en)
			add_fill(fv, s + (uint64_t)woff, en + (uint64_t)woff);
	}
	u->nfill = fv->n - u->fill0;
}

/* A PROT_NONE mapping of ours at exactly [a, a + len), or 0. */
static int map_none(void *a, uint64_t len, int flags)
{
	void *p = mmap(a, len, PROT_NONE, flags | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	if (p != a) {   /* a kernel that ignores NOREPLACE */
		munmap(p, len);
		return 0;
	}
	return 1;
}

/* Fill the gaps among our own top-down mappings (and a little above them,
 * where mmap_base may sit past the highest one): the kernel's search then
 * passes them by and reaches the window. */
static void fill_own_gaps(const struct own *o)
{
	for (size_t i = 0; i < o->n; i++) {
		if (o->v[i].e < o->low || o->v[i].e >= o->top + PMD)
			continue;
		uint64_t end = i + 1 < o->n && o->v[i + 1].s < o->top + PMD ? o->v[i + 1].s : o->top + PMD;
		if (end > o->v[i].e)
			map_none((void *)o->v[i].e, end - o->v[i].e, MAP_SHARED);
	}
}

/* ---- the whole layout -------------------------------------------------- */

int rp_layout_init(struct rp_engine *e)
{
	struct rp_layout *l = calloc(1, sizeof(*l));
	struct vec us = { .size = sizeof(struct uspan) }, fv = { .size = sizeof(struct rp_fill) };
	uint32_t *first_map = NULL;
	struct own o = { 0 };
	int kernel = e->o->placement == RP_PLACE_KERNEL;
	e->layout = l;
	/* the replayer's own memory is all there */
	uint64_t fixed_lo = e->be->release_low ? e->be->release_low() : UINT64_MAX;
	if (!l || assign_units(e, l, &us, &first_map) < 0 || read_own(e, &o) < 0) {
		fprintf(stderr, "vmreplay: out of memory choosing the layout\n");
		free(first_map);
		free(us.v);
		free(o.v);
		return -1;
	}
	qsort(us.v, us.n, sizeof(struct uspan), cmp_uspan);
	if (kernel)
		for (uint32_t u = 0; u < l->nunits; u++)
			if (first_map[u] != NONE)
				place_window(e, &l->units[u], &e->t->maps[first_map[u]], &o, &fv);
	l->fill = fv.v;
	l->nfill = fv.n;
	for (uint32_t u = 0; u < l->nunits; u++)
		if (l->units[u].w_lo < l->units[u].w_hi) {
			uint64_t s = l->units[u].w_lo + (uint64_t)l->units[u].woff;
			if (!l->hold_lo || s < l->hold_lo)
				l->hold_lo = s;
			l->hold_hi = o.low;
		}
	if (l->hold_lo) {
		fill_own_gaps(&o);
		/* the windows and our own area stay out of every unit's other ranges */
		struct vec ov = { .v = o.v, .n = o.n, .cap = o.n, .size = sizeof(struct span) };
		add_span(&ov, l->hold_lo, o.top + PMD);
		o.v = ov.v;
		o.n = merge_spans(ov.v, ov.n);
		if (!map_none((void *)l->hold_lo, l->hold_hi - l->hold_lo, MAP_PRIVATE | MAP_NORESERVE))
			l->hold_lo = l->hold_hi = 0;
	}
	/* every unit's offset for what lies outside its window */
	const struct uspan *all = us.v;
	struct span *rec = malloc((2 * us.n + 1) * sizeof(*rec)), *low = rec ? rec + us.n : NULL;
	for (size_t i = 0, j; rec && i < us.n; i = j) {
		struct rp_unit *u = &l->units[all[i].unit];
		size_t nr = 0, nl = 0;
		for (j = i; j < us.n && all[j].unit == all[i].unit; j++) {
			int k = all[j].kind;
			if (k == K_OTHER || (kernel && k == K_PLACED))
				continue;
			if (all[j].s >= u->w_lo && all[j].e <= u->w_hi)
				continue;
			if (k == K_FIXED && all[j].e <= RP_LOW_TOP)
				low[nl++] = (struct span){ all[j].s, all[j].e };
			else
				rec[nr++] = (struct span){ all[j].s, all[j].e };
		}
		nr = merge_spans(rec, nr);
		nl = merge_spans(low, nl);
		if (choose_offset(rec, nr, low, nl, o.v, o.n, min_addr(e), fixed_lo, &u->off) < 0) {
			int32_t pid = 0;
			for (size_t s = 0; s < e->t->nimages && !pid; s++)
				if (l->unit_of_image[s] == all[i].unit)
					pid = e->t->images[s].pid;
			fprintf(stderr, "vmreplay: %s: the recorded layout of pid %d cannot be placed beside the replayer's own memory at any offset; mappings that collide will fail\n",
			        e->t->path, pid);
			u->off = 0;
		}
		if (u->w_lo >= u->w_hi)
			u->woff = u->off;
	}
	free(rec);
	free(first_map);
	free(us.v);
	free(o.v);
	return 0;
}

void rp_layout_free(struct rp_engine *e)
{
	struct rp_layout *l = e->layout;
	if (!l)
		return;
	if (l->hold_lo)
		munmap((void *)l->hold_lo, l->hold_hi - l->hold_lo);
	free(l->units);
	free(l->unit_of_image);
	free(l->unit_of_slot);
	free(l->fill);
	free(l);
	e->layout = NULL;
}

const struct rp_unit *rp_unit_at(const struct rp_engine *e, size_t step, uint32_t slot)
{
	static const struct rp_unit none;
	const struct rp_layout *l = e->layout;
	if (!l)
		return &none;
	for (size_t s = step + 1; s-- > 0; ) {
		rp_trace_tick_drop(e->t, s);
		const struct rp_step *st = &e->t->steps[s];
		if (st->slot == slot && st->kind == RP_PROCESS)
			return l->unit_of_image[st->idx] != NONE ? &l->units[l->unit_of_image[st->idx]] : &none;
	}
	return l->unit_of_slot[slot] != NONE ? &l->units[l->unit_of_slot[slot]] : &none;
}

void rp_unit_enter(struct rp_engine *e, const struct rp_unit *u, int first)
{
	struct rp_layout *l = e->layout;
	if (!l)   /* no layout: the back end owns its whole space */
		return;
	if (first && l->hold_lo) {
		munmap((void *)l->hold_lo, l->hold_hi - l->hold_lo);
		l->hold_lo = l->hold_hi = 0;
	}
	for (size_t i = u->fill0; i < u->fill0 + u->nfill; i++) {
		struct rp_fill *f = &l->fill[i];
		f->mapped = (uint8_t)map_none((void *)f->start, f->end - f->start, MAP_SHARED);
	}
}

void rp_unit_leave(struct rp_engine *e, const struct rp_unit *u)
{
	struct rp_layout *l = e->layout;
	if (!l)   /* no layout: the back end owns its whole space */
		return;
	for (size_t i = u->fill0; i < u->fill0 + u->nfill; i++)
		if (l->fill[i].mapped) {
			munmap((void *)l->fill[i].start, l->fill[i].end - l->fill[i].start);
			l->fill[i].mapped = 0;
		}
}
