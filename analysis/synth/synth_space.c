/* synth_space.c - the address space of one synthetic process: a sorted
 * array of VMAs, split and merged as the kernel would for the few shapes
 * the workloads create (anonymous neighbours of equal prot and kind merge;
 * file mappings and special ones never do), and top-down placement with
 * 6.18's PMD alignment of anonymous lengths that are PMD multiples. */
#include <stdlib.h>
#include <string.h>
#include "analysis/synth/synth.h"

static int reserve(struct synth_space *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	size_t cap = s->cap ? s->cap * 2 : 64;
	while (cap < n)
		cap *= 2;
	struct synth_vma *v = realloc(s->v, cap * sizeof(*v));
	if (!v)
		return -1;
	s->v = v;
	s->cap = cap;
	return 0;
}

int synth_space_copy(struct synth_space *dst, const struct synth_space *src)
{
	*dst = *src;
	dst->v = NULL;
	dst->cap = 0;
	if (reserve(dst, src->n ? src->n : 1) < 0)
		return -1;
	memcpy(dst->v, src->v, src->n * sizeof(*src->v));
	return 0;
}

void synth_space_free(struct synth_space *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

static int mergeable(const struct synth_vma *a, const struct synth_vma *b)
{
	return a->end == b->start && a->prot == b->prot && a->kind == b->kind &&
	       (a->kind == SK_ANON || a->kind == SK_STACK);
}

static void merge_all(struct synth_space *s)
{
	size_t out = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (out && mergeable(&s->v[out - 1], &s->v[i]))
			s->v[out - 1].end = s->v[i].end;
		else
			s->v[out++] = s->v[i];
	}
	s->n = out;
}

/* Split the VMA containing addr so that addr starts a VMA. */
static int split_at(struct synth_space *s, uint64_t addr)
{
	for (size_t i = 0; i < s->n; i++) {
		struct synth_vma *v = &s->v[i];
		if (v->start < addr && addr < v->end) {
			if (reserve(s, s->n + 1) < 0)
				return -1;
			v = &s->v[i];
			memmove(v + 1, v, (s->n - i) * sizeof(*v));
			s->n++;
			v[0].end = addr;
			v[1].start = addr;
			if (v[1].kind == SK_FILE)
				v[1].offset += addr - v[0].start;
			return 0;
		}
	}
	return 0;
}

int synth_space_unmap(struct synth_space *s, uint64_t start, uint64_t end)
{
	if (split_at(s, start) < 0 || split_at(s, end) < 0)
		return -1;
	size_t out = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].end <= start || s->v[i].start >= end)
			s->v[out++] = s->v[i];
	s->n = out;
	return 0;
}

int synth_space_map(struct synth_space *s, const struct synth_vma *vma)
{
	if (synth_space_unmap(s, vma->start, vma->end) < 0 || reserve(s, s->n + 1) < 0)
		return -1;
	size_t i = 0;
	while (i < s->n && s->v[i].start < vma->start)
		i++;
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = *vma;
	s->n++;
	merge_all(s);
	return 0;
}

int synth_space_protect(struct synth_space *s, uint64_t start, uint64_t end, uint32_t prot)
{
	if (split_at(s, start) < 0 || split_at(s, end) < 0)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].start >= start && s->v[i].end <= end)
			s->v[i].prot = prot;
	merge_all(s);
	return 0;
}

/* Highest gap below mmap_base that fits len (for a PMD-aligned search:
 * len + PMD, then the highest aligned start, as the kernel's
 * __thp_get_unmapped_area ends up choosing). */
static int fits(uint64_t gap_start, uint64_t high, uint64_t len, int thp_align,
                uint64_t *at)
{
	uint64_t need = len + (thp_align ? SYNTH_PMD : 0);
	if (high <= gap_start || high - gap_start < need)
		return 0;
	*at = high - len;
	if (thp_align)
		*at &= ~(uint64_t)(SYNTH_PMD - 1);
	return 1;
}

uint64_t synth_space_place(const struct synth_space *s, uint64_t len, int thp_align)
{
	const uint64_t low_limit = 0x10000;
	uint64_t high = s->mmap_base, at;
	for (size_t i = s->n; i-- > 0;) {
		const struct synth_vma *v = &s->v[i];
		if (v->start >= high)
			continue;
		if (v->end < high && fits(v->end, high, len, thp_align, &at))
			return at;
		high = v->start;
	}
	return fits(low_limit, high, len, thp_align, &at) ? at : 0;
}
