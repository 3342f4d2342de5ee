/* vmtrace_top_live.c - live ranges per process, following mmap, munmap,
 * mprotect, mremap and brk.  An estimate of VMAs, not a model of the
 * kernel: file mappings never merge, anonymous ones merge only within one
 * call site (the simulator in replay/sim is the real model). */
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace_top_live.h"

struct range {
	uint64_t start, end;
	uint32_t owner;
	uint32_t prot;           /* PROT_* as passed to the kernel */
	int anon;
};

struct proc {
	int32_t pid;
	uint64_t brk;            /* current break; 0 until first seen */
	struct range *r;         /* sorted, disjoint */
	uint32_t n, cap;
};

struct live_map {
	uint64_t page_mask;
	struct proc *p;
	uint32_t n, cap;
};

#define PROT_RW 0x3u
#define MAP_ANON_FLAG 0x20u  /* MAP_ANONYMOUS on every Linux architecture we record */

struct live_map *live_new(uint64_t page_size)
{
	struct live_map *m = calloc(1, sizeof(*m));

	if (m)
		m->page_mask = (page_size ? page_size : VMT_PAGE) - 1;
	return m;
}

static struct proc *proc_of(struct live_map *m, int32_t pid)
{
	for (uint32_t i = 0; i < m->n; i++)
		if (m->p[i].pid == pid)
			return &m->p[i];
	if (m->n == m->cap) {
		uint32_t cap = m->cap ? 2 * m->cap : 8;
		struct proc *p = realloc(m->p, cap * sizeof(*p));

		if (!p)
			return NULL;
		m->p = p;
		m->cap = cap;
	}
	memset(&m->p[m->n], 0, sizeof(*m->p));
	m->p[m->n].pid = pid;
	return &m->p[m->n++];
}

/* first range ending after addr */
static uint32_t first_after(const struct proc *p, uint64_t addr)
{
	uint32_t lo = 0, hi = p->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (p->r[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert_at(struct proc *p, uint32_t i, const struct range *r)
{
	if (p->n == p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 16;
		struct range *q = realloc(p->r, cap * sizeof(*q));

		if (!q)
			return -1;
		p->r = q;
		p->cap = cap;
	}
	memmove(&p->r[i + 1], &p->r[i], (p->n - i) * sizeof(*p->r));
	p->r[i] = *r;
	p->n++;
	return 0;
}

/* Make addr a boundary between ranges; returns the index of the first
 * range at or after addr. */
static int split_at(struct proc *p, uint64_t addr, uint32_t *idx)
{
	uint32_t i = first_after(p, addr);

	if (i < p->n && p->r[i].start < addr) {
		struct range right = p->r[i];

		right.start = addr;
		p->r[i].end = addr;
		if (insert_at(p, i + 1, &right) < 0)
			return -1;
		i++;
	}
	*idx = i;
	return 0;
}

/* Ranges [*first, *last) now lie exactly inside [start, end). */
static int carve(struct proc *p, uint64_t start, uint64_t end,
                 uint32_t *first, uint32_t *last)
{
	if (split_at(p, start, first) < 0 || split_at(p, end, last) < 0)
		return -1;
	return 0;
}

static int unmap(struct proc *p, uint64_t start, uint64_t end)
{
	uint32_t i, j;

	if (start >= end || carve(p, start, end, &i, &j) < 0)
		return start >= end ? 0 : -1;
	if (i == j)
		return 0;
	memmove(&p->r[i], &p->r[j], (p->n - j) * sizeof(*p->r));
	p->n -= j - i;
	return 0;
}

static int map(struct proc *p, const struct range *r)
{
	if (r->start >= r->end)
		return 0;
	if (unmap(p, r->start, r->end) < 0)
		return -1;
	return insert_at(p, first_after(p, r->start), r);
}

static int protect(struct proc *p, uint64_t start, uint64_t end, uint32_t prot)
{
	uint32_t i, j;

	if (start >= end || carve(p, start, end, &i, &j) < 0)
		return start >= end ? 0 : -1;
	for (; i < j; i++)
		p->r[i].prot = prot;
	return 0;
}

int live_event(struct live_map *m, const struct vmt_event *ev, uint32_t owner)
{
	uint64_t mask = m->page_mask, a0 = ev->args[0], ret = (uint64_t)ev->result;
	struct range r = { .owner = owner, .prot = PROT_RW, .anon = 1 };
	struct proc *p;

	if (ev->err)
		return 0;
	if (!(p = proc_of(m, ev->pid)))
		return -1;
	switch (vmt_sys_effect(ev->sys)) {
	case VMT_FX_MAP:
		r.start = ret;
		r.end = ret + ((ev->args[1] + mask) & ~mask);
		if (ev->sys == VMT_SYS_MMAP) {   /* else a shadow stack: anonymous */
			r.prot = (uint32_t)ev->args[2];
			r.anon = !!(ev->args[3] & MAP_ANON_FLAG);
		}
		return map(p, &r);
	case VMT_FX_UNMAP:
		return unmap(p, a0, a0 + ((ev->args[1] + mask) & ~mask));
	case VMT_FX_CHANGE:   /* of the changes, only protection is kept here */
		if (ev->sys != VMT_SYS_MPROTECT && ev->sys != VMT_SYS_PKEY_MPROTECT)
			return 0;
		return protect(p, a0, a0 + ((ev->args[1] + mask) & ~mask),
			       (uint32_t)ev->args[2]);
	case VMT_FX_REMAP: {
		uint64_t old_len = (ev->args[1] + mask) & ~mask;
		uint64_t new_len = (ev->args[2] + mask) & ~mask;
		uint32_t i = first_after(p, a0);

		if (i < p->n && p->r[i].start <= a0) {
			r.prot = p->r[i].prot;
			r.anon = p->r[i].anon;
		}
		if (ret == a0 && new_len < old_len)
			return unmap(p, a0 + new_len, a0 + old_len);
		r.start = ret == a0 ? a0 + old_len : ret;
		r.end = ret + new_len;
		if (ret != a0 && unmap(p, a0, a0 + old_len) < 0)
			return -1;
		return map(p, &r);
	}
	case VMT_FX_BRK:
		/* the first brk (usually brk(0)) tells where the heap starts */
		if (p->brk && ret > p->brk) {
			r.start = p->brk;
			r.end = ret;
			if (map(p, &r) < 0)
				return -1;
		}
		if (p->brk && ret < p->brk && unmap(p, ret, p->brk) < 0)
			return -1;
		p->brk = ret;
		return 0;
	}
	return 0;
}

void live_exec(struct live_map *m, int32_t pid)
{
	struct proc *p = proc_of(m, pid);

	if (p) {
		p->n = 0;
		p->brk = 0;
	}
}

void live_count(const struct live_map *m, const uint32_t *group, uint32_t nowner,
                uint64_t *counts)
{
	for (uint32_t i = 0; i < m->n; i++) {
		const struct proc *p = &m->p[i];

		for (uint32_t j = 0; j < p->n; j++) {
			const struct range *r = &p->r[j], *prev = j ? &p->r[j - 1] : NULL;

			if (r->owner >= nowner)
				continue;
			/* what the kernel would merge: adjacent anonymous
			 * ranges of one call site with the same protection */
			if (prev && prev->end == r->start && prev->owner < nowner &&
			    group[prev->owner] == group[r->owner] &&
			    prev->prot == r->prot && prev->anon && r->anon)
				continue;
			counts[group[r->owner]]++;
		}
	}
}

void live_free(struct live_map *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->n; i++)
		free(m->p[i].r);
	free(m->p);
	free(m);
}
