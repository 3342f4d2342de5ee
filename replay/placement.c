/* Where the recorded layout goes in this process: the recorded ranges
 * (initial maps and every mapping the trace creates) moved by one offset so
 * none of them meets the replayer's own memory or the room its replayed
 * heap grows into. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/engine.h"

static uint64_t page_up(const struct rp_engine *e, uint64_t x)
{
	return (x + e->page - 1) & ~(e->page - 1);
}

struct span { uint64_t s, e; };

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->s < y->s ? -1 : x->s > y->s;
}

static void add_span(struct span **v, size_t *n, size_t *cap, uint64_t s, uint64_t e)
{
	if (s >= e)
		return;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct span *nv = realloc(*v, c * sizeof(**v));
		if (!nv)
			return;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = (struct span){ s, e };
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

/* Every recorded range a replay could put a mapping at. */
static size_t recorded_spans(const struct rp_engine *e, struct span **out)
{
	const struct rp_trace *t = e->t;
	struct span *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < t->nmaps; i++)
		for (uint32_t j = 0; j < t->maps[i].nvma; j++) {
			const struct vmt_vma *m = &t->maps[i].vmas[j];
			if (!(m->flags & VMT_VMA_RECORDER) && !rp_is_special_vma(m) && strcmp(m->name, "[heap]"))
				add_span(&v, &n, &cap, m->start, m->end);
		}
	for (size_t i = 0; i < t->nevents; i++) {
		const struct vmt_event *ev = &t->events[i];
		if (ev->err)
			continue;
		if (ev->sys == VMT_SYS_MMAP)
			add_span(&v, &n, &cap, (uint64_t)ev->result, (uint64_t)ev->result + page_up(e, ev->args[1]));
		else if (ev->sys == VMT_SYS_MREMAP)
			add_span(&v, &n, &cap, (uint64_t)ev->result, (uint64_t)ev->result + page_up(e, ev->args[2]));
	}
	*out = v;
	return merge_spans(v, n);
}

static size_t own_spans(const struct rp_engine *e, struct span **out)
{
	struct span *v = NULL;
	size_t n = 0, cap = 0;
	FILE *f = fopen("/proc/self/maps", "re");
	if (f) {
		unsigned long long s, en;
		char line[512];
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%llx-%llx", &s, &en) == 2)
				add_span(&v, &n, &cap, s, en);
		fclose(f);
	}
	/* room for the replayed heap to grow from our own break */
	uint64_t heap = 0;
	for (size_t i = 0; i < e->t->nevents; i++)
		if (e->t->events[i].sys == VMT_SYS_BRK)
			heap = 1;
	if (heap)
		add_span(&v, &n, &cap, e->base_brk, e->base_brk + (1ull << 32));
	*out = v;
	return merge_spans(v, n);
}

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

int rp_choose_offset(struct rp_engine *e, int64_t *offset)
{
	struct span *rec, *own;
	size_t nr = recorded_spans(e, &rec), no = own_spans(e, &own);
	uint64_t lo = e->t->header.host.mmap_min_addr ? e->t->header.host.mmap_min_addr : 65536;
	if (lo < 65536)
		lo = 65536;
	uint64_t hi = 0x7ffffffff000ull;
	int found = -1;
	const int64_t step = 1ll << 30;
	for (int64_t k = 0; k < 4096 && found < 0; k++)
		for (int sign = -1; sign <= 1 && found < 0; sign += 2) {
			int64_t off = sign * k * step;
			if (!collides(rec, nr, own, no, off, lo, hi)) {
				*offset = off;
				found = 0;
			}
		}
	free(rec);
	free(own);
	return found;
}
