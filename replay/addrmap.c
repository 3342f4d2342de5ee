/* Sorted array of disjoint ranges; adjacent ranges with equal deltas are
 * joined so a long brk/mmap history stays small. */
#include <stdlib.h>
#include <string.h>
#include "replay/addrmap.h"

void am_init(struct addrmap *m) { memset(m, 0, sizeof(*m)); }
void am_free(struct addrmap *m) { free(m->r); am_init(m); }
void am_clear(struct addrmap *m) { m->n = 0; m->hint = 0; }

/* Index of the first range whose end > addr.  Replayed calls come in runs
 * on one range (a heap's brk loop, a mapping cut piece by piece), so the
 * answer of the last update is tried before the binary search. */
__attribute__((hot)) static size_t lower(const struct addrmap *m, uint64_t addr)
{
	size_t h = m->hint;
	if (h <= m->n && (h == m->n || m->r[h].end > addr) && (h == 0 || m->r[h - 1].end <= addr))
		return h;
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->r[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int reserve(struct addrmap *m, size_t more)
{
	if (m->n + more <= m->cap)
		return 0;
	size_t cap = m->cap ? m->cap * 2 : 64;
	while (cap < m->n + more)
		cap *= 2;
	struct am_range *r = realloc(m->r, cap * sizeof(*r));
	if (!r)
		return -1;
	m->r = r;
	m->cap = cap;
	return 0;
}

int am_reserve(struct addrmap *m, size_t n)
{
	return n > m->n ? reserve(m, n - m->n) : 0;
}

__attribute__((hot)) int am_remove(struct addrmap *m, uint64_t start, uint64_t end)
{
	if (start >= end)
		return 0;
	size_t i = lower(m, start);
	if (i < m->n && m->r[i].start < start && m->r[i].end > end) {
		/* cut a hole in the middle of one range */
		if (reserve(m, 1))
			return -1;
		memmove(&m->r[i + 2], &m->r[i + 1], (m->n - i - 1) * sizeof(*m->r));
		m->r[i + 1] = m->r[i];
		m->r[i].end = start;
		m->r[i + 1].start = end;
		m->n++;
		return 0;
	}
	if (i < m->n && m->r[i].start < start) {
		m->r[i].end = start;
		i++;
	}
	m->hint = i;
	size_t j = i;
	while (j < m->n && m->r[j].end <= end)
		j++;
	if (j < m->n && m->r[j].start < end)
		m->r[j].start = end;
	if (j > i) {
		memmove(&m->r[i], &m->r[j], (m->n - j) * sizeof(*m->r));
		m->n -= j - i;
	}
	return 0;
}

__attribute__((hot)) int am_set_any(struct addrmap *m, uint64_t start, uint64_t end, int64_t delta)
{
	if (start >= end)
		return 0;
	if (am_remove(m, start, end) || reserve(m, 1))
		return -1;
	size_t i = lower(m, start);
	int join_prev = i > 0 && m->r[i - 1].end == start && m->r[i - 1].delta == delta;
	int join_next = i < m->n && m->r[i].start == end && m->r[i].delta == delta;
	if (join_prev && join_next) {
		m->r[i - 1].end = m->r[i].end;
		memmove(&m->r[i], &m->r[i + 1], (m->n - i - 1) * sizeof(*m->r));
		m->n--;
	} else if (join_prev) {
		m->r[i - 1].end = end;
	} else if (join_next) {
		m->r[i].start = start;
	} else {
		memmove(&m->r[i + 1], &m->r[i], (m->n - i) * sizeof(*m->r));
		m->r[i] = (struct am_range){ start, end, delta };
		m->n++;
	}
	return 0;
}

__attribute__((hot)) const struct am_range *am_find(const struct addrmap *m, uint64_t addr)
{
	size_t i = lower(m, addr);
	return i < m->n && m->r[i].start <= addr ? &m->r[i] : NULL;
}

__attribute__((hot)) int am_next_piece(const struct addrmap *m, uint64_t *cursor, uint64_t end,
                  struct am_piece *p)
{
	uint64_t at = *cursor;
	if (at >= end)
		return 0;
	size_t i = lower(m, at);
	if (i < m->n && m->r[i].start <= at) {
		p->start = at;
		p->end = m->r[i].end < end ? m->r[i].end : end;
		p->delta = m->r[i].delta;
		p->mapped = 1;
	} else {
		p->start = at;
		p->end = i < m->n && m->r[i].start < end ? m->r[i].start : end;
		p->delta = 0;
		p->mapped = 0;
	}
	*cursor = p->end;
	return 1;
}
