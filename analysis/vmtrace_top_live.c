/* vmtrace_top_live.c - live ranges per process, following mmap, munmap,
 * mremap and brk.  An estimate of VMAs, not a model of the kernel: mprotect
 * splits and merges between different call sites are not followed. */
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace_top_live.h"

struct range {
	uint64_t start, end;
	uint32_t owner;
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

struct live_map *live_new(uint64_t page_size)
{
	struct live_map *m = calloc(1, sizeof(*m));

	if (m)
		m->page_mask = (page_size ? page_size : 4096) - 1;
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

static int reserve(struct proc *p, uint32_t more)
{
	if (p->n + more > p->cap) {
		uint32_t cap = p->cap ? 2 * p->cap : 16;
		struct range *r;

		while (cap < p->n + more)
			cap *= 2;
		if (!(r = realloc(p->r, cap * sizeof(*r))))
			return -1;
		p->r = r;
		p->cap = cap;
	}
	return 0;
}

static int unmap(struct proc *p, uint64_t start, uint64_t end)
{
	uint32_t i = first_after(p, start), j = i;

	if (start >= end || i == p->n || p->r[i].start >= end)
		return 0;
	/* a range covering [start, end) from both sides splits in two */
	if (p->r[i].start < start && p->r[i].end > end) {
		if (reserve(p, 1) < 0)
			return -1;
		memmove(&p->r[i + 1], &p->r[i], (p->n - i) * sizeof(*p->r));
		p->n++;
		p->r[i].end = start;
		p->r[i + 1].start = end;
		return 0;
	}
	if (p->r[i].start < start) {
		p->r[i].end = start;
		i++, j++;
	}
	while (j < p->n && p->r[j].end <= end)
		j++;
	if (j < p->n && p->r[j].start < end)
		p->r[j].start = end;
	memmove(&p->r[i], &p->r[j], (p->n - j) * sizeof(*p->r));
	p->n -= j - i;
	return 0;
}

static int map(struct proc *p, uint64_t start, uint64_t end, uint32_t owner)
{
	uint32_t i;

	if (start >= end || unmap(p, start, end) < 0 || reserve(p, 1) < 0)
		return -1;
	i = first_after(p, start);
	memmove(&p->r[i + 1], &p->r[i], (p->n - i) * sizeof(*p->r));
	p->r[i] = (struct range){ start, end, owner };
	p->n++;
	return 0;
}

int live_event(struct live_map *m, const struct vmt_event *ev, uint32_t owner)
{
	uint64_t mask = m->page_mask, a0 = ev->args[0], ret = (uint64_t)ev->result;
	struct proc *p;

	if (ev->err || !(p = proc_of(m, ev->pid)))
		return ev->err ? 0 : -1;
	switch (ev->sys) {
	case VMT_SYS_MMAP:
		return map(p, ret, ret + ((ev->args[1] + mask) & ~mask), owner);
	case VMT_SYS_MUNMAP:
		return unmap(p, a0, a0 + ((ev->args[1] + mask) & ~mask));
	case VMT_SYS_MREMAP: {
		uint64_t old_len = (ev->args[1] + mask) & ~mask;
		uint64_t new_len = (ev->args[2] + mask) & ~mask;

		if (ret == a0 && new_len >= old_len)
			return map(p, a0 + old_len, a0 + new_len, owner);
		if (ret == a0)
			return unmap(p, a0 + new_len, a0 + old_len);
		if (unmap(p, a0, a0 + old_len) < 0)
			return -1;
		return map(p, ret, ret + new_len, owner);
	}
	case VMT_SYS_BRK:
		/* the first brk (usually brk(0)) tells where the heap starts */
		if (p->brk && ret > p->brk && map(p, p->brk, ret, owner) < 0)
			return -1;
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

void live_count(const struct live_map *m, uint64_t *counts, uint32_t nowner)
{
	for (uint32_t i = 0; i < m->n; i++) {
		const struct proc *p = &m->p[i];

		for (uint32_t j = 0; j < p->n; j++) {
			const struct range *r = &p->r[j];

			if (r->owner >= nowner)
				continue;
			if (j > 0 && p->r[j - 1].end == r->start && p->r[j - 1].owner == r->owner)
				continue;
			counts[r->owner]++;
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
