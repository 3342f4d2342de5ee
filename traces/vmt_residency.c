/* vmt_residency.c - RESIDENCY records by runs (vmt_residency.h).
 *
 * A release of 128 MiB with one page present was a 4 KiB bitmap; as runs
 * it is two varints, and a record that repeats the chunk's previous one
 * (a malloc/free loop: the same range, the same page, the next seq) is
 * its type byte and one byte more.  Where runs would be larger than the
 * bitmap (scattered pages), the bitmap is stored instead. */
#include <stdlib.h>
#include <string.h>
#include "vmt_format.h"
#include "vmt_residency.h"
#include "vmt_scratch.h"

/* The flags in the low 4 bits of the record's first varint; the event
 * index's difference from the previous record's is in the bits above. */
#define RES_SEQ_STEP   1u   /* seq = previous seq + that difference */
#define RES_SAME_RANGE 2u   /* pid, start and npages as the previous record */
#define RES_SAME_PAGES 4u   /* the resident pages as the previous record */
#define RES_BITMAP     8u   /* a bitmap follows instead of runs */
#define RES_FLAG_BITS  4

static unsigned varint_len(uint64_t v)
{
	unsigned n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* The runs of x one by one, from x->runs or from its bitmap. */
struct run_it {
	const struct vmt_residency *x;
	uint64_t pos;
	uint32_t i;
};

static int bit(const uint8_t *bits, uint64_t i)
{
	return bits[i / 8] >> (i % 8) & 1;
}

static int run_next(struct run_it *it, struct vmt_run *r)
{
	const struct vmt_residency *x = it->x;
	if (x->runs || !x->bits) {
		if (!x->runs || it->i >= x->nruns)
			return 0;
		*r = x->runs[it->i++];
		return 1;
	}
	uint64_t p = it->pos, n = x->npages;
	while (p < n && !bit(x->bits, p))
		p += (p % 8 == 0 && !x->bits[p / 8]) ? 8 : 1;
	if (p >= n)
		return 0;
	uint64_t e = p;
	while (e < n && bit(x->bits, e))
		e += (e % 8 == 0 && x->bits[e / 8] == 0xff && e + 8 <= n) ? 8 : 1;
	r->first = p;
	r->count = e - p;
	it->pos = e;
	return 1;
}

size_t vmt_res_bound(const struct vmt_residency *x)
{
	size_t bitmap = (size_t)((x->npages + 7) / 8);
	size_t fixed = 6 * 10;
	if (x->runs || !x->bits) {
		size_t runs = 10 + (size_t)x->nruns * 20;
		return fixed + (runs < bitmap ? runs : bitmap);
	}
	return fixed + bitmap;
}

static uint8_t *put_bitmap(uint8_t *p, const struct vmt_residency *x)
{
	size_t n = (size_t)((x->npages + 7) / 8);
	if (x->bits && !x->runs) {
		memcpy(p, x->bits, n);
		return p + n;
	}
	memset(p, 0, n);
	for (uint32_t i = 0; i < x->nruns; i++)
		for (uint64_t pg = x->runs[i].first; pg < x->runs[i].first + x->runs[i].count; pg++)
			p[pg / 8] |= (uint8_t)(1u << (pg % 8));
	return p + n;
}

/* Whether x's runs are the ones prev remembers. */
static int same_runs(const struct vmt_residency *x, const struct vmt_meta_ctx *prev)
{
	struct run_it it = { x, 0, 0 };
	struct vmt_run r;
	uint32_t n = 0;

	if (!prev->runs_kept)
		return 0;
	while (run_next(&it, &r)) {
		if (n >= prev->nruns || r.first != prev->runs[n].first || r.count != prev->runs[n].count)
			return 0;
		n++;
	}
	return n == prev->nruns;
}

/* Remember x's runs in ctx, if there are few enough. */
static void keep_runs(const struct vmt_residency *x, struct vmt_meta_ctx *ctx)
{
	struct run_it it = { x, 0, 0 };
	struct vmt_run r;
	uint32_t n = 0;

	while (run_next(&it, &r)) {
		if (n == VMT_RES_KEEP) {
			ctx->runs_kept = 0;
			return;
		}
		ctx->runs[n++] = r;
	}
	ctx->nruns = n;
	ctx->runs_kept = 1;
}

uint8_t *vmt_res_encode(uint8_t *p, const struct vmt_residency *x,
                        uint64_t event_index, struct vmt_meta_ctx *ctx)
{
	static const struct vmt_meta_ctx none;
	const struct vmt_meta_ctx *prev = ctx ? ctx : &none;
	struct run_it it;
	struct vmt_run r;
	uint64_t nruns = 0;
	unsigned f = 0;

	uint64_t didx = event_index - prev->index;
	if (x->seq == prev->seq + didx)
		f |= RES_SEQ_STEP;
	if (x->pid == prev->pid && x->start == prev->start && x->npages == prev->npages)
		f |= RES_SAME_RANGE;
	if (same_runs(x, prev)) {
		f |= RES_SAME_PAGES;
	} else {
		uint64_t end = 0, bytes = 0;
		it = (struct run_it){ x, 0, 0 };
		while (run_next(&it, &r)) {
			bytes += varint_len(r.first - end) + varint_len(r.count - 1);
			end = r.first + r.count;
			nruns++;
		}
		if (bytes + varint_len(nruns) > (x->npages + 7) / 8)
			f |= RES_BITMAP;
	}
	p = vmt_put_varint(p, didx << RES_FLAG_BITS | f);
	if (!(f & RES_SEQ_STEP))
		p = vmt_put_varint(p, vmt_zigzag((int64_t)(x->seq - prev->seq)));
	if (!(f & RES_SAME_RANGE)) {
		p = vmt_put_varint(p, vmt_zigzag(x->pid));
		p = vmt_put_varint(p, vmt_zigzag((int64_t)(x->start - prev->start)));
		p = vmt_put_varint(p, x->npages);
	}
	if (f & RES_BITMAP) {
		p = put_bitmap(p, x);
	} else if (!(f & RES_SAME_PAGES)) {
		uint64_t end = 0;
		p = vmt_put_varint(p, nruns);
		it = (struct run_it){ x, 0, 0 };
		while (run_next(&it, &r)) {
			p = vmt_put_varint(p, r.first - end);
			p = vmt_put_varint(p, r.count - 1);
			end = r.first + r.count;
		}
	}
	if (ctx) {
		ctx->index = event_index;
		ctx->seq = x->seq;
		ctx->pid = x->pid;
		ctx->start = x->start;
		ctx->npages = x->npages;
		if (!(f & RES_SAME_PAGES))
			keep_runs(x, ctx);
	}
	return p;
}

int vmt_res_index(const uint8_t *p, const uint8_t *end,
                  const struct vmt_meta_ctx *ctx, uint64_t *index)
{
	uint64_t h;
	if (!vmt_get_varint(p, end, &h))
		return -1;
	*index = (ctx ? ctx->index : 0) + (h >> RES_FLAG_BITS);
	return 0;
}

void vmt_res_scratch_free(struct vmt_res_scratch *s)
{
	const struct vmt_alloc *a = s->alloc;
	vmt_scratch_release(s->bits, s->nbits, 1, a);
	vmt_scratch_release(s->runs, s->nruns, sizeof(*s->runs), a);
	memset(s, 0, sizeof(*s));
	s->alloc = a;
}

/* x's bitmap from its runs (checked against npages), in s. */
static int bits_of_runs(struct vmt_residency *x, struct vmt_res_scratch *s)
{
	size_t n = (size_t)((x->npages + 7) / 8);
	if (vmt_scratch_grow((void **)&s->bits, &s->nbits, n ? n : 1, 1, s->alloc))
		return VMT_ENOMEM;
	memset(s->bits, 0, n);
	for (uint32_t i = 0; i < x->nruns; i++) {
		uint64_t a = x->runs[i].first, b = a + x->runs[i].count;
		for (; a < b && a % 8; a++)
			s->bits[a / 8] |= (uint8_t)(1u << (a % 8));
		if (a + 8 <= b) {
			memset(s->bits + a / 8, 0xff, (size_t)((b - a) / 8));
			a += (b - a) / 8 * 8;
		}
		for (; a < b; a++)
			s->bits[a / 8] |= (uint8_t)(1u << (a % 8));
	}
	x->bits = s->bits;
	return 0;
}

int vmt_res_runs_of_bits(struct vmt_residency *x, struct vmt_res_scratch *s)
{
	struct vmt_residency only = *x;
	struct run_it it = { &only, 0, 0 };
	struct vmt_run r;
	size_t n = 0;

	only.runs = NULL;
	while (run_next(&it, &r)) {
		/* doubling when full: asking for 2n at every run past 16 was a
		 * realloc per run, quadratic in a bitmap of many runs */
		if (n == s->nruns && vmt_scratch_grow((void **)&s->runs, &s->nruns, n < 16 ? 16 : 2 * n, sizeof(r), s->alloc))
			return VMT_ENOMEM;
		s->runs[n++] = r;
	}
	x->nruns = (uint32_t)n;
	x->runs = s->runs;
	return 0;
}

int vmt_res_decode(const uint8_t **pp, const uint8_t *end, struct vmt_residency *x,
                   uint64_t *event_index, struct vmt_res_scratch *s,
                   struct vmt_meta_ctx *ctx)
{
	struct vmt_meta_ctx zero = { 0 };
	const uint8_t *p = *pp;
	uint64_t h, v, runs_end = 0;
	int ret;

	if (!ctx)
		ctx = &zero;
#define GET(var) do { if (!(p = vmt_get_varint(p, end, &(var)))) return VMT_ECORRUPT; } while (0)
	GET(h);
	unsigned f = (unsigned)(h & ((1u << RES_FLAG_BITS) - 1));
	uint64_t didx = h >> RES_FLAG_BITS;
	if ((f & RES_SAME_PAGES) && (f & RES_BITMAP))
		return VMT_ECORRUPT;
	*event_index = ctx->index + didx;
	x->seq = ctx->seq + didx;
	if (!(f & RES_SEQ_STEP)) {
		GET(v);
		x->seq = ctx->seq + (uint64_t)vmt_unzigzag(v);
	}
	x->pid = ctx->pid;
	x->start = ctx->start;
	x->npages = ctx->npages;
	if (!(f & RES_SAME_RANGE)) {
		int64_t pid;
		GET(v);
		pid = vmt_unzigzag(v);
		if (pid < INT32_MIN || pid > INT32_MAX)
			return VMT_ECORRUPT;
		x->pid = (int32_t)pid;
		GET(v);
		x->start = ctx->start + (uint64_t)vmt_unzigzag(v);
		GET(x->npages);
	}
	if (x->npages > VMT_RESIDENCY_PAGES_MAX)
		return VMT_ECORRUPT;
	if (f & RES_BITMAP) {
		size_t n = (size_t)((x->npages + 7) / 8);
		if (n > (size_t)(end - p))
			return VMT_ECORRUPT;
		x->bits = p;
		p += n;
		if ((ret = vmt_res_runs_of_bits(x, s)))
			return ret;
	} else if (f & RES_SAME_PAGES) {
		if (!ctx->runs_kept)
			return VMT_ECORRUPT;
		for (uint32_t i = 0; i < ctx->nruns; i++)
			if (ctx->runs[i].first + ctx->runs[i].count > x->npages)
				return VMT_ECORRUPT;
		if (vmt_scratch_grow((void **)&s->runs, &s->nruns, VMT_RES_KEEP, sizeof(*s->runs), s->alloc))
			return VMT_ENOMEM;
		memcpy(s->runs, ctx->runs, ctx->nruns * sizeof(*s->runs));
		x->nruns = ctx->nruns;
		x->runs = s->runs;
	} else {
		uint64_t nruns;
		GET(nruns);
		/* each run takes two bytes at least */
		if (nruns > (uint64_t)(end - p) / 2 || nruns > UINT32_MAX)
			return VMT_ECORRUPT;
		if (vmt_scratch_grow((void **)&s->runs, &s->nruns, nruns ? nruns : 1, sizeof(*s->runs), s->alloc))
			return VMT_ENOMEM;
		for (uint64_t i = 0; i < nruns; i++) {
			uint64_t gap, count;
			GET(gap);
			GET(count);
			if (gap > x->npages - runs_end || count >= x->npages - runs_end - gap)
				return VMT_ECORRUPT;
			s->runs[i].first = runs_end + gap;
			s->runs[i].count = count + 1;
			runs_end = s->runs[i].first + s->runs[i].count;
		}
		x->nruns = (uint32_t)nruns;
		x->runs = s->runs;
	}
#undef GET
	if (!(f & RES_BITMAP) && (ret = bits_of_runs(x, s)))
		return ret;
	ctx->index = *event_index;
	ctx->seq = x->seq;
	ctx->pid = x->pid;
	ctx->start = x->start;
	ctx->npages = x->npages;
	ctx->nruns = x->nruns;
	ctx->runs_kept = x->nruns <= VMT_RES_KEEP;
	if (ctx->runs_kept)
		memcpy(ctx->runs, x->runs, x->nruns * sizeof(*x->runs));
	*pp = p;
	return 0;
}
