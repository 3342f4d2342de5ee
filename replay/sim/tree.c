/* tree.c - the VMAs of one address space in a treap ordered by start.
 * Each node carries its subtree size (for sim_vma_at) and the largest free
 * gap below any VMA of the subtree (for top-down placement), so find,
 * insert, erase, index and gap search are all O(log n) expected. */
#include <stdlib.h>
#include "replay/sim/sim_int.h"

uint64_t sim_start_gap(const struct sim_vma *v)
{
	uint64_t s = v->start;

	if (v->flags & VM_GROWSDOWN)
		s = s > SIM_GUARD_GAP ? s - SIM_GUARD_GAP : 0;
	return s;
}

/* raw free space below v; guard gaps are applied by the search, as
 * unmapped_area_topdown applies them */
static uint64_t own_gap(const struct sim_vma *v)
{
	return v->start - v->gap_lo;
}

static void pull(struct sim_vma *n)
{
	uint64_t g = own_gap(n);

	n->cnt = 1;
	if (n->l) {
		n->cnt += n->l->cnt;
		if (n->l->max_gap > g)
			g = n->l->max_gap;
	}
	if (n->r) {
		n->cnt += n->r->cnt;
		if (n->r->max_gap > g)
			g = n->r->max_gap;
	}
	n->max_gap = g;
}

static struct sim_vma *rot_right(struct sim_vma *n)
{
	struct sim_vma *l = n->l;
	n->l = l->r;
	l->r = n;
	pull(n);
	pull(l);
	return l;
}

static struct sim_vma *rot_left(struct sim_vma *n)
{
	struct sim_vma *r = n->r;
	n->r = r->l;
	r->l = n;
	pull(n);
	pull(r);
	return r;
}

static struct sim_vma *ins(struct sim_vma *n, struct sim_vma *v)
{
	if (!n)
		return v;
	if (v->start < n->start) {
		n->l = ins(n->l, v);
		if (n->l->prio > n->prio)
			return rot_right(n);
	} else {
		n->r = ins(n->r, v);
		if (n->r->prio > n->prio)
			return rot_left(n);
	}
	pull(n);
	return n;
}

static struct sim_vma *join(struct sim_vma *a, struct sim_vma *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->prio > b->prio) {
		a->r = join(a->r, b);
		pull(a);
		return a;
	}
	b->l = join(a, b->l);
	pull(b);
	return b;
}

static struct sim_vma *del(struct sim_vma *n, uint64_t key)
{
	if (!n)
		return NULL;
	if (n->start == key)
		return join(n->l, n->r);
	if (key < n->start)
		n->l = del(n->l, key);
	else
		n->r = del(n->r, key);
	pull(n);
	return n;
}

static void refresh(struct sim_vma *n, uint64_t key)
{
	if (!n)
		return;
	if (key < n->start)
		refresh(n->l, key);
	else if (key > n->start)
		refresh(n->r, key);
	pull(n);
}

static uint32_t rnd(struct sim_tree *t)
{
	uint32_t x = t->seed ? t->seed : 2463534242u;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return t->seed = x;
}

/* one modelled maple store that preallocates its worst case */
static void count_store(struct sim_tree *t)
{
	t->stores++;
	t->preallocs++;
	t->nodes += t->prealloc_nodes;
}

static void fix_gaps(struct sim_tree *t, struct sim_vma *v)
{
	struct sim_vma *p = sim_tree_prev(t, v), *nx = sim_tree_next(t, v);

	v->gap_lo = p ? p->end : 0;
	refresh(t->root, v->start);
	if (nx) {
		nx->gap_lo = v->end;
		refresh(t->root, nx->start);
	}
}

void sim_tree_changed(struct sim_tree *t, struct sim_vma *v)
{
	count_store(t);
	fix_gaps(t, v);
}

void sim_tree_end_changed(struct sim_tree *t, struct sim_vma *v)
{
	struct sim_vma *nx = sim_tree_next(t, v);

	t->stores++;   /* brk expansion: brk_grow says whether it preallocated */
	if (nx) {
		nx->gap_lo = v->end;
		refresh(t->root, nx->start);
	}
}

void sim_tree_insert(struct sim_tree *t, struct sim_vma *v)
{
	count_store(t);
	v->l = v->r = NULL;
	v->prio = rnd(t);
	v->gap_lo = 0;
	pull(v);
	t->root = ins(t->root, v);
	t->count++;
	t->prealloc_nodes = (uint32_t)sim_prealloc_nodes(t->count);
	fix_gaps(t, v);
}

void sim_tree_erase(struct sim_tree *t, struct sim_vma *v)
{
	struct sim_vma *p = sim_tree_prev(t, v), *nx = sim_tree_next(t, v);

	count_store(t);
	t->root = del(t->root, v->start);
	t->count--;
	t->prealloc_nodes = (uint32_t)sim_prealloc_nodes(t->count);
	if (nx) {
		nx->gap_lo = p ? p->end : 0;
		refresh(t->root, nx->start);
	}
}

struct sim_vma *sim_tree_find(const struct sim_tree *t, uint64_t addr)
{
	struct sim_vma *n = t->root, *best = NULL;

	while (n) {
		if (n->end > addr) {
			best = n;
			n = n->l;
		} else {
			n = n->r;
		}
	}
	return best;
}

struct sim_vma *sim_tree_prev(const struct sim_tree *t, const struct sim_vma *v)
{
	struct sim_vma *n = t->root, *best = NULL;

	while (n) {
		if (n->start < v->start) {
			best = n;
			n = n->r;
		} else {
			n = n->l;
		}
	}
	return best;
}

struct sim_vma *sim_tree_next(const struct sim_tree *t, const struct sim_vma *v)
{
	struct sim_vma *n = t->root, *best = NULL;

	while (n) {
		if (n->start > v->start) {
			best = n;
			n = n->l;
		} else {
			n = n->r;
		}
	}
	return best;
}

struct sim_vma *sim_tree_first(const struct sim_tree *t)
{
	struct sim_vma *n = t->root;
	while (n && n->l)
		n = n->l;
	return n;
}

struct sim_vma *sim_tree_last(const struct sim_tree *t)
{
	struct sim_vma *n = t->root;
	while (n && n->r)
		n = n->r;
	return n;
}

struct sim_vma *sim_tree_at(const struct sim_tree *t, size_t i)
{
	struct sim_vma *n = t->root;

	while (n) {
		size_t lc = n->l ? n->l->cnt : 0;
		if (i < lc) {
			n = n->l;
		} else if (i == lc) {
			return n;
		} else {
			i -= lc + 1;
			n = n->r;
		}
	}
	return NULL;
}

/* The VMA above the highest free range of len bytes inside [low, high)
 * (gaps are [gap_lo, start) clipped to the limits); NULL if none.
 * Subtrees wholly above high or below low are skipped. */
static const struct sim_vma *search(const struct sim_vma *n, uint64_t len, uint64_t low, uint64_t high)
{
	const struct sim_vma *r;
	uint64_t lo, hi;

	if (!n || n->max_gap < len)
		return NULL;
	if (n->start < high && (r = search(n->r, len, low, high)))
		return r;
	hi = n->start < high ? n->start : high;
	lo = n->gap_lo > low ? n->gap_lo : low;
	if (hi > lo && hi - lo >= len)
		return n;
	if (n->gap_lo > low)
		return search(n->l, len, low, high);
	return NULL;
}

/* unmapped_area_topdown: take the highest gap that fits; if the VMA above
 * it grows down and its guard gap reaches into the gap, search again below
 * that guard gap (skipping any smaller gaps in between, as the kernel does) */
uint64_t sim_tree_gap_topdown(const struct sim_tree *t, uint64_t len, uint64_t low, uint64_t high)
{
	const struct sim_vma *last = sim_tree_last(t), *n;
	uint64_t end;

	for (;;) {
		uint64_t lo = last ? last->end : 0;

		if (lo < low)
			lo = low;
		if (high > lo && high - lo >= len && (!last || last->end < high)) {
			n = NULL;
			end = high;
		} else if ((n = search(t->root, len, low, high))) {
			end = n->start < high ? n->start : high;
		} else {
			return 0;
		}
		if (n && (n->flags & VM_GROWSDOWN) && sim_start_gap(n) < end) {
			high = sim_start_gap(n);
			continue;
		}
		return end - len;
	}
}

static void free_all(struct sim_vma *n)
{
	while (n) {
		struct sim_vma *r = n->r;
		free_all(n->l);
		free(n);
		n = r;
	}
}

void sim_tree_free(struct sim_tree *t)
{
	free_all(t->root);
	t->root = NULL;
	t->count = 0;
}

/* In-order walk recomputing what each node caches; 0 when one differs. */
static int valid_sub(const struct sim_vma *n, uint64_t *prev_end, size_t *cnt, uint64_t *gap)
{
	size_t lc = 0, rc = 0;
	uint64_t lg = 0, rg = 0;

	if (!n) {
		*cnt = 0;
		*gap = 0;
		return 1;
	}
	if (!valid_sub(n->l, prev_end, &lc, &lg) || n->gap_lo != *prev_end)
		return 0;
	*prev_end = n->end;
	if (!valid_sub(n->r, prev_end, &rc, &rg))
		return 0;
	*cnt = 1 + lc + rc;
	*gap = own_gap(n);
	if (lg > *gap)
		*gap = lg;
	if (rg > *gap)
		*gap = rg;
	return n->cnt == *cnt && n->max_gap == *gap;
}

bool sim_tree_valid(const struct sim_tree *t)
{
	uint64_t prev_end = 0, gap;
	size_t cnt;

	return valid_sub(t->root, &prev_end, &cnt, &gap) && cnt == t->count;
}
