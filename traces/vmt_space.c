/* vmt_space.c - see vmt_space.h.  A sorted array of disjoint ranges: a
 * process has hundreds of them at most, and only the calls that map or
 * unmap change it. */
#include <stdlib.h>
#include <string.h>
#include "vmt_space.h"

/* The recorded calls' flags, as x86-64's kernel takes them (a trace's
 * arguments are the kernel's, whatever this host's headers say). */
#define MAP_FIXED_FLAG 0x10  /* MAP_FIXED */
#define REMAP_FIXED 2        /* MREMAP_FIXED */
#define REMAP_DONTUNMAP 4    /* MREMAP_DONTUNMAP */
#define SHM_REMAP_FLAG 040000
/* How far below its [stack] VMA a stack may grow without a call: calls
 * there are not judged (RLIMIT_STACK is 8 MiB by default). */
#define STACK_GROWTH (64ull << 20)

static uint64_t page_up(const struct vmt_space *s, uint64_t x)
{
	return (x + s->page - 1) & ~(s->page - 1);
}

void vmt_space_init(struct vmt_space *s, int32_t pid, uint64_t page)
{
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->page = page ? page : VMT_PAGE;
	s->partial = 1;   /* until a map says what was there */
}

void vmt_space_free(struct vmt_space *s)
{
	free(s->r);
	s->r = NULL;
	s->n = s->cap = 0;
}

/* The index of the first range that ends after a. */
static size_t first_after(const struct vmt_space *s, uint64_t a)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->r[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int reserve(struct vmt_space *s, size_t more)
{
	if (s->n + more <= s->cap)
		return 0;
	size_t cap = s->cap ? s->cap * 2 : 64;
	while (cap < s->n + more)
		cap *= 2;
	struct vmt_space_range *r = realloc(s->r, cap * sizeof(*r));
	if (!r)
		return VMT_ENOMEM;
	s->r = r;
	s->cap = cap;
	return 0;
}

/* [a, b) no longer mapped: ranges that cross its ends are cut. */
static int cut(struct vmt_space *s, uint64_t a, uint64_t b)
{
	if (a >= b)
		return 0;
	size_t i = first_after(s, a);
	if (i < s->n && s->r[i].start < a && s->r[i].end > b) {   /* inside one: split it */
		if (reserve(s, 1))
			return VMT_ENOMEM;
		memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
		s->n++;
		s->r[i].end = a;
		s->r[i + 1].start = b;
		return 0;
	}
	if (i < s->n && s->r[i].start < a) {
		s->r[i].end = a;
		i++;
	}
	size_t j = i;
	while (j < s->n && s->r[j].end <= b)
		j++;
	if (j < s->n && s->r[j].start < b)
		s->r[j].start = b;
	if (j > i) {   /* (an empty space has no array: no pointer into it) */
		memmove(&s->r[i], &s->r[j], (s->n - j) * sizeof(*s->r));
		s->n -= j - i;
	}
	return 0;
}

static int put(struct vmt_space *s, uint64_t a, uint64_t b, const struct vmt_space_who *who)
{
	if (a >= b)
		return 0;
	if (cut(s, a, b) || reserve(s, 1))
		return VMT_ENOMEM;
	size_t i = first_after(s, a);
	memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
	s->r[i] = (struct vmt_space_range){ a, b, *who };
	s->n++;
	return 0;
}

/* The first mapped range that meets [a, b), or NULL. */
static const struct vmt_space_range *meets(const struct vmt_space *s, uint64_t a, uint64_t b)
{
	size_t i = first_after(s, a);
	return i < s->n && s->r[i].start < b ? &s->r[i] : NULL;
}

/* Where a stack grows unseen nothing is judged. */
static int unseen(const struct vmt_space *s, uint64_t a, uint64_t b)
{
	return a < s->grow_hi && b > s->grow_lo;
}

/* Some page of [a, b) is not mapped. */
static int hole(const struct vmt_space *s, uint64_t a, uint64_t b)
{
	size_t i = first_after(s, a);
	for (uint64_t at = a; at < b; i++) {
		if (i >= s->n || s->r[i].start > at)
			return 1;
		at = s->r[i].end;
	}
	return 0;
}

int vmt_space_load(struct vmt_space *s, const struct vmt_map *m)
{
	s->n = 0;
	s->partial = 0;
	s->grow_lo = s->grow_hi = 0;
	s->brk_start = s->brk = 0;
	struct vmt_space_who who = { .seq = m->seq };
	uint64_t prev_end = 0;
	for (uint32_t i = 0; i < m->nvma; i++) {
		const struct vmt_vma *v = &m->vmas[i];
		if (put(s, v->start, v->end, &who))
			return VMT_ENOMEM;
		if (v->name && strcmp(v->name, "[heap]") == 0) {
			if (!s->brk_start)
				s->brk_start = v->start;
			s->brk = v->end;        /* within its last page: made exact by a brk */
			s->brk_who = who;
		}
		if (v->name && strcmp(v->name, "[stack]") == 0) {
			s->grow_hi = v->start;
			s->grow_lo = v->start - prev_end > STACK_GROWTH ? v->start - STACK_GROWTH : prev_end;
		}
		prev_end = v->end;
	}
	s->brk_exact = 0;   /* a map shows the heap, the break is within its last page */
	return 0;
}

int vmt_space_copy(struct vmt_space *dst, const struct vmt_space *src, int32_t pid)
{
	*dst = *src;
	dst->pid = pid;
	dst->r = NULL;
	dst->n = dst->cap = 0;
	if (reserve(dst, src->n ? src->n : 1))
		return VMT_ENOMEM;
	if (src->n)
		memcpy(dst->r, src->r, src->n * sizeof(*src->r));
	dst->n = src->n;
	return 0;
}

int vmt_space_copy_part(struct vmt_space *dst, const struct vmt_space *src, uint64_t lo, uint64_t hi)
{
	struct vmt_space_range *r = dst->r;
	size_t cap = dst->cap;
	*dst = *src;
	dst->r = r;
	dst->cap = cap;
	dst->n = 0;
	size_t i = first_after(src, lo), j = i;
	while (j < src->n && src->r[j].start < hi)
		j++;
	if (reserve(dst, j - i + 1))
		return VMT_ENOMEM;
	if (j > i)   /* (an empty source may have no array) */
		memcpy(dst->r, src->r + i, (j - i) * sizeof(*src->r));
	dst->n = j - i;
	return 0;
}

static struct vmt_space_who who_of(const struct vmt_event *ev)
{
	return (struct vmt_space_who){ .seq = ev->seq, .tid = ev->tid, .sys = ev->sys };
}

/* The range named by the table's address and length arguments. */
static int named(const struct vmt_space *s, const struct vmt_event *ev, uint64_t *a, uint64_t *b)
{
	int ai, li;
	vmt_sys_range_args(ev->sys, &ai, &li);
	if (ai < 0 || li < 0)
		return 0;
	*a = ev->args[ai] & ~(s->page - 1);
	*b = page_up(s, ev->args[ai] + ev->args[li]);
	return *b >= *a;
}

static int conflict(struct vmt_space_conflict *why, int verdict, uint64_t a, uint64_t b,
                    const struct vmt_space_range *r)
{
	if (why) {
		memset(why, 0, sizeof(*why));
		why->verdict = verdict;
		why->start = a;
		why->end = b;
		if (r)
			why->who = r->who;
	}
	return verdict;
}

/* A new range [a, b) must be free unless it replaces (MAP_FIXED & co.). */
static int judge_new(const struct vmt_space *s, uint64_t a, uint64_t b, int replaces,
                     struct vmt_space_conflict *why)
{
	const struct vmt_space_range *r;
	if (replaces || unseen(s, a, b) || !(r = meets(s, a, b)))
		return VMT_SPACE_OK;
	return conflict(why, VMT_SPACE_MAPPED, a, b, r);
}

static int judge_mapped(const struct vmt_space *s, uint64_t a, uint64_t b,
                        struct vmt_space_conflict *why)
{
	if (a >= b || s->partial || unseen(s, a, b) || !hole(s, a, b))
		return VMT_SPACE_OK;
	return conflict(why, VMT_SPACE_UNMAPPED, a, b, NULL);
}

static int judge_brk(const struct vmt_space *s, const struct vmt_event *ev,
                     struct vmt_space_conflict *why)
{
	uint64_t res = (uint64_t)ev->result;
	if (!s->brk || res == ev->args[0])
		return VMT_SPACE_OK;
	/* refused, or asked: the kernel answers the break it has */
	if (s->brk_exact ? res == s->brk : page_up(s, res) == s->brk)
		return VMT_SPACE_OK;
	conflict(why, VMT_SPACE_BRK, res, res, NULL);
	if (why) {
		why->who = s->brk_who;
		why->brk = s->brk;
	}
	return VMT_SPACE_BRK;
}

int vmt_space_judge(const struct vmt_space *s, const struct vmt_event *ev, uint64_t seg,
                    struct vmt_space_conflict *why)
{
	uint64_t a, b, res = (uint64_t)ev->result;
	int fx = vmt_sys_effect(ev->sys);
	if (fx == VMT_FX_BRK)
		return judge_brk(s, ev, why);
	if (ev->err)
		return VMT_SPACE_OK;
	switch (fx) {
	case VMT_FX_MAP:
		return judge_new(s, res, res + page_up(s, ev->args[1]), (ev->args[3] & MAP_FIXED_FLAG) != 0, why);
	case VMT_FX_CHANGE:
		return named(s, ev, &a, &b) ? judge_mapped(s, a, b, why) : VMT_SPACE_OK;
	case VMT_FX_ATTACH:
		return seg ? judge_new(s, res, res + page_up(s, seg), (ev->args[2] & SHM_REMAP_FLAG) != 0, why)
		           : VMT_SPACE_OK;
	case VMT_FX_REMAP: {
		uint64_t old = ev->args[0], olen = page_up(s, ev->args[1]), nlen = page_up(s, ev->args[2]);
		int r = judge_mapped(s, old, old + (olen ? olen : s->page), why);
		if (r)
			return r;
		if (res != old)
			return judge_new(s, res, res + nlen, (ev->args[3] & REMAP_FIXED) != 0, why);
		return nlen > olen ? judge_new(s, old + olen, old + nlen, 0, why) : VMT_SPACE_OK;
	}
	default:
		return VMT_SPACE_OK;
	}
}

int vmt_space_in_the_way(const struct vmt_space *s, const struct vmt_space_conflict *why,
                         uint64_t *start, uint64_t *end)
{
	size_t i = first_after(s, why->start);
	if (why->verdict == VMT_SPACE_MAPPED) {
		if (i >= s->n || s->r[i].start >= why->end)
			return 0;
		*start = s->r[i].start > why->start ? s->r[i].start : why->start;
		*end = s->r[i].end < why->end ? s->r[i].end : why->end;
		return 1;
	}
	if (why->verdict != VMT_SPACE_UNMAPPED)
		return 0;
	for (uint64_t at = why->start; at < why->end; i++) {
		if (i >= s->n || s->r[i].start > at) {
			*start = at;
			*end = at + s->page;
			return 1;
		}
		at = s->r[i].end;
	}
	return 0;
}

static int apply_brk(struct vmt_space *s, const struct vmt_event *ev)
{
	uint64_t res = (uint64_t)ev->result, old = s->brk;
	if (!s->brk_start)
		s->brk_start = res;   /* the first answer: the heap starts there */
	s->brk = res;
	s->brk_exact = 1;
	s->brk_who = who_of(ev);
	if (!old || res == old)
		return 0;
	struct vmt_space_who who = s->brk_who;
	uint64_t lo = page_up(s, s->brk_start), from = page_up(s, old), to = page_up(s, res);
	if (from < lo)
		from = lo;
	if (to < lo)
		to = lo;
	if (from == to)
		return 0;
	/* the heap's top range moves its end, the common case, in place */
	size_t i = first_after(s, from - 1);
	if (i < s->n && s->r[i].end == from && s->r[i].start < to &&
	    (i + 1 == s->n || s->r[i + 1].start >= to)) {
		s->r[i].end = to;
		return 0;
	}
	return to > from ? put(s, from, to, &who) : cut(s, to, from);
}

static int apply_remap(struct vmt_space *s, const struct vmt_event *ev)
{
	uint64_t old = ev->args[0], olen = page_up(s, ev->args[1]), nlen = page_up(s, ev->args[2]);
	uint64_t res = (uint64_t)ev->result;
	struct vmt_space_who who = who_of(ev);
	if (res == old)
		return nlen > olen ? put(s, old + olen, old + nlen, &who) : cut(s, old + nlen, old + olen);
	if (olen && !(ev->args[3] & REMAP_DONTUNMAP) && cut(s, old, old + olen))
		return VMT_ENOMEM;
	return put(s, res, res + nlen, &who);
}

/* shmdt: the ranges the attach at a made, which end where another begins. */
static int detach(struct vmt_space *s, uint64_t a)
{
	size_t i = first_after(s, a);
	if (i >= s->n || s->r[i].start != a || s->r[i].who.sys != VMT_SYS_SHMAT)
		return 0;
	uint64_t seq = s->r[i].who.seq, end = s->r[i].end;
	for (size_t j = i + 1; j < s->n && s->r[j].start == end && s->r[j].who.seq == seq; j++)
		end = s->r[j].end;
	return cut(s, a, end);
}

int vmt_space_apply(struct vmt_space *s, const struct vmt_event *ev, uint64_t seg)
{
	uint64_t a, b, res = (uint64_t)ev->result;
	struct vmt_space_who who = who_of(ev);
	int fx = vmt_sys_effect(ev->sys);
	if (ev->err)
		return 0;
	switch (fx) {
	case VMT_FX_MAP:
		return put(s, res, res + page_up(s, ev->args[1]), &who);
	case VMT_FX_UNMAP:
		return named(s, ev, &a, &b) ? cut(s, a, b) : 0;
	case VMT_FX_BRK:
		return apply_brk(s, ev);
	case VMT_FX_REMAP:
		return apply_remap(s, ev);
	case VMT_FX_ATTACH:
		return seg ? put(s, res, res + page_up(s, seg), &who) : 0;
	case VMT_FX_DETACH:
		return detach(s, ev->args[0]);
	default:
		return 0;
	}
}

int vmt_space_extent(const struct vmt_space *s, const struct vmt_event *ev, uint64_t seg,
                     uint64_t *start, uint64_t *end)
{
	uint64_t res = (uint64_t)ev->result;
	switch (vmt_sys_effect(ev->sys)) {
	case VMT_FX_MAP:
		if (ev->err)
			return 0;
		*start = res;
		*end = res + page_up(s, ev->args[1]);
		return 1;
	case VMT_FX_ATTACH:
		if (ev->err || !seg)
			return 0;
		*start = res;
		*end = res + page_up(s, seg);
		return 1;
	case VMT_FX_REMAP: {
		/* the hull of where it was and where it went */
		uint64_t old = ev->args[0], olen = page_up(s, ev->args[1]), nlen = page_up(s, ev->args[2]);
		uint64_t to = ev->err ? old : res;
		*start = old < to ? old : to;
		*end = old + olen > to + nlen ? old + olen : to + nlen;
		return 1;
	}
	case VMT_FX_BRK: {
		uint64_t lo = ev->args[0] < res ? ev->args[0] : res, hi = ev->args[0] < res ? res : ev->args[0];
		if (s->brk && s->brk < lo)
			lo = s->brk;
		if (s->brk > hi)
			hi = s->brk;
		*start = lo & ~(s->page - 1);
		*end = page_up(s, hi) + s->page;
		return 1;
	}
	default:
		return named(s, ev, start, end);
	}
}
