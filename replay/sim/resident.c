/* resident.c - the pages an address space has, as folios.  A residency
 * record names the pages the program had touched; the first touch of a
 * page decides the folio it lands in (a 2 MiB page, an mTHP folio or a
 * 4 KiB page, as do_anonymous_page would pick), which is what zeroing
 * costs at the touch and what fork copies later.  munmap, a brk shrink,
 * MADV_DONTNEED and the unmaps inside other calls drop pages; mremap
 * moves them.  Guard markers are runs of their own kind.  docs/kernel-profiles.md ("Modelled cost") says what the
 * model leaves out. */
#include <stdlib.h>
#include <string.h>
#include "replay/sim/sim_int.h"

#define ORDER_PMD 9   /* SIM_PMD / SIM_PAGE = 1 << 9 */

/* index of the first run with end > addr */
static size_t first_after(const struct sim_mm *mm, uint64_t addr)
{
	size_t lo = 0, hi = mm->nruns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (mm->runs[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

bool sim_res_any(const struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	size_t i = first_after(mm, lo);
	return i < mm->nruns && mm->runs[i].start < hi;
}

static bool room(struct sim_mm *mm, size_t more)
{
	if (mm->nruns + more <= mm->caprun)
		return true;
	size_t cap = mm->caprun ? mm->caprun * 2 : 16;
	while (cap < mm->nruns + more)
		cap *= 2;
	struct sim_run *r = realloc(mm->runs, cap * sizeof *r);
	if (!r)
		return false;
	mm->runs = r;
	mm->caprun = cap;
	return true;
}

static bool same_kind(const struct sim_run *a, const struct sim_run *b)
{
	return a->order == b->order && a->kind == b->kind;
}

/* [r->start, r->end) holds no run yet */
static void insert(struct sim_mm *mm, const struct sim_run *r)
{
	size_t i = first_after(mm, r->start);

	if (i > 0 && mm->runs[i - 1].end == r->start && same_kind(&mm->runs[i - 1], r)) {
		mm->runs[i - 1].end = r->end;
		if (i < mm->nruns && mm->runs[i].start == r->end && same_kind(&mm->runs[i], r)) {
			mm->runs[i - 1].end = mm->runs[i].end;
			memmove(&mm->runs[i], &mm->runs[i + 1], (mm->nruns - i - 1) * sizeof *mm->runs);
			mm->nruns--;
		}
		return;
	}
	if (i < mm->nruns && mm->runs[i].start == r->end && same_kind(&mm->runs[i], r)) {
		mm->runs[i].start = r->start;
		return;
	}
	if (!room(mm, 1))
		return;   /* out of memory: the pages go uncounted */
	memmove(&mm->runs[i + 1], &mm->runs[i], (mm->nruns - i) * sizeof *mm->runs);
	mm->runs[i] = *r;
	mm->nruns++;
}

void sim_res_drop(struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	size_t i = first_after(mm, lo), j;

	if (i >= mm->nruns || mm->runs[i].start >= hi)
		return;
	if (mm->runs[i].start < lo && mm->runs[i].end > hi) {
		/* a hole in the middle of one run */
		if (!room(mm, 1))
			return;
		memmove(&mm->runs[i + 1], &mm->runs[i], (mm->nruns - i) * sizeof *mm->runs);
		mm->nruns++;
		mm->runs[i].end = lo;
		mm->runs[i + 1].start = hi;
		return;
	}
	if (mm->runs[i].start < lo) {
		mm->runs[i].end = lo;
		i++;
	}
	for (j = i; j < mm->nruns && mm->runs[j].end <= hi; j++)
		;
	if (j < mm->nruns && mm->runs[j].start < hi)
		mm->runs[j].start = hi;
	memmove(&mm->runs[i], &mm->runs[j], (mm->nruns - j) * sizeof *mm->runs);
	mm->nruns -= j - i;
}

/* drop the runs of [lo, hi) of one kind (guard) or of every other kind */
static void drop_kind(struct sim_mm *mm, uint64_t lo, uint64_t hi, bool guards)
{
	size_t i = first_after(mm, lo);

	while (i < mm->nruns && mm->runs[i].start < hi) {
		struct sim_run r = mm->runs[i];
		if ((r.kind == SIM_RUN_GUARD) != guards) {
			i++;
			continue;
		}
		sim_res_drop(mm, r.start > lo ? r.start : lo, r.end < hi ? r.end : hi);
		i = first_after(mm, r.end < hi ? r.end : hi);
	}
}

void sim_res_zap(struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	drop_kind(mm, lo, hi, false);
}

void sim_res_unguard(struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	drop_kind(mm, lo, hi, true);
}

void sim_res_guard(struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	struct sim_run r = { .start = lo, .end = hi, .kind = SIM_RUN_GUARD };

	sim_res_drop(mm, lo, hi);
	insert(mm, &r);
}

bool sim_res_pages(const struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	for (size_t i = first_after(mm, lo); i < mm->nruns && mm->runs[i].start < hi; i++)
		if (mm->runs[i].kind == SIM_RUN_ANON || mm->runs[i].kind == SIM_RUN_FILE)
			return true;
	return false;
}

uint64_t sim_res_guarded(const struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	for (size_t i = first_after(mm, lo); i < mm->nruns && mm->runs[i].start < hi; i++)
		if (mm->runs[i].kind == SIM_RUN_GUARD)
			return mm->runs[i].start > lo ? mm->runs[i].start : lo;
	return hi;
}

void sim_res_move(struct sim_mm *mm, uint64_t lo, uint64_t hi, uint64_t dst)
{
	size_t i = first_after(mm, lo), n = 0;
	struct sim_run *tmp;

	if (i >= mm->nruns || mm->runs[i].start >= hi || dst == lo)
		return;
	for (size_t j = i; j < mm->nruns && mm->runs[j].start < hi; j++)
		n++;
	if (!(tmp = malloc(n * sizeof *tmp))) {
		sim_res_drop(mm, lo, hi);
		return;
	}
	for (size_t j = 0; j < n; j++) {
		tmp[j] = mm->runs[i + j];
		if (tmp[j].start < lo)
			tmp[j].start = lo;
		if (tmp[j].end > hi)
			tmp[j].end = hi;
	}
	sim_res_drop(mm, lo, hi);
	sim_res_drop(mm, dst, dst + (hi - lo));
	for (size_t j = 0; j < n; j++) {
		tmp[j].start = tmp[j].start - lo + dst;
		tmp[j].end = tmp[j].end - lo + dst;
		insert(mm, &tmp[j]);
	}
	free(tmp);
}

void sim_res_free(struct sim_mm *mm)
{
	free(mm->runs);
	mm->runs = NULL;
	mm->nruns = mm->caprun = 0;
}

/* The mTHP orders a write fault in v may take (thp_vma_allowable_orders):
 * the sizes enabled `always`, and those enabled `madvise` in a
 * VM_HUGEPAGE VMA; none in a VM_NOHUGEPAGE or shared one. */
static uint32_t mthp_orders(const struct sim_mm *mm, const struct sim_vma *v)
{
	if (!vma_is_anon(v) || (v->flags & (VM_SHARED | VM_NOHUGEPAGE)))
		return 0;
	return mm->mthp_always | (v->flags & VM_HUGEPAGE ? mm->mthp_madvise : 0);
}

/* a block [b, b + size) wholly inside v with no page yet */
static bool block_free(const struct sim_mm *mm, const struct sim_vma *v, uint64_t b, uint64_t size)
{
	return b >= v->start && b + size <= v->end && !sim_res_any(mm, b, b + size);
}

/* The first touch of page a of v: the folio it faults in.  Returns the
 * end of what is now resident from a on. */
static uint64_t first_touch(struct sim_mm *mm, const struct sim_vma *v, uint64_t a)
{
	struct sim_run r = { .start = a, .end = a + SIM_PAGE };
	uint32_t orders;

	if (!vma_is_anon(v) || (v->flags & VM_SHARED)) {
		r.kind = SIM_RUN_FILE;   /* a page-cache page (or shmem's) */
	} else if (!(v->flags & VM_WRITE)) {
		r.kind = SIM_RUN_ZERO;   /* a read maps the shared zero page */
	} else if (sim_thp_eligible(mm, v) && block_free(mm, v, a & ~(SIM_PMD - 1), SIM_PMD)) {
		r.start = a & ~(SIM_PMD - 1);
		r.end = r.start + SIM_PMD;
		r.order = ORDER_PMD;
		mm->cost.zero_2m++;
	} else {
		orders = mthp_orders(mm, v);
		for (int k = ORDER_PMD - 1; k >= 2; k--) {
			uint64_t size = SIM_PAGE << k, b = a & ~(size - 1);
			if ((orders & (1u << k)) && block_free(mm, v, b, size)) {
				r.start = b;
				r.end = b + size;
				r.order = (uint8_t)k;
				mm->cost.zero_mthp += 1u << k;
				mm->cost.fault_mthp++;
				break;
			}
		}
		if (!r.order)
			mm->cost.zero_4k++;
	}
	insert(mm, &r);
	return r.end;
}

static bool bit(const uint8_t *bits, uint64_t i)
{
	return bits[i / 8] & (1u << (i % 8));
}

void sim_res_touch(struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi, uint64_t base,
                   const uint8_t *bits)
{
	for (uint64_t a = lo; a < hi;) {
		uint64_t i = (a - base) / SIM_PAGE;
		if (!(i % 8) && a + 8 * SIM_PAGE <= hi && !bits[i / 8]) {
			a += 8 * SIM_PAGE;
			continue;
		}
		if (!bit(bits, i)) {
			a += SIM_PAGE;
			continue;
		}
		size_t k = first_after(mm, a);
		if (k < mm->nruns && mm->runs[k].start <= a) {
			a = mm->runs[k].end;   /* resident already: no first touch */
			continue;
		}
		a = first_touch(mm, v, a);
	}
}

void sim_res_populate(struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi)
{
	lo = lo > v->start ? lo : v->start;
	hi = hi < v->end ? hi : v->end;
	for (uint64_t a = lo; a < hi;) {
		size_t k = first_after(mm, a);
		if (k < mm->nruns && mm->runs[k].start <= a)
			a = mm->runs[k].end;
		else
			a = first_touch(mm, v, a);
	}
}

/* number of aligned blocks of 1 << order pages that [s, e) meets */
static uint64_t blocks(uint64_t s, uint64_t e, unsigned order)
{
	unsigned shift = 12 + order;
	return ((e - 1) >> shift) - (s >> shift) + 1;
}

/* copy_page_range for v: its pages go to the child, and what that costs:
 * a PMD for a whole 2 MiB page, else an entry per page; a refcount and
 * rmap update per page, or per folio (F1), none for the zero page. */
void sim_res_fork(struct sim_mm *child, const struct sim_mm *parent, const struct sim_vma *v)
{
	bool batch = sim_has(parent->prof, R_F1_FORK_BATCH);
	size_t i = first_after(parent, v->start);

	for (; i < parent->nruns && parent->runs[i].start < v->end; i++) {
		struct sim_run r = parent->runs[i];
		if (r.start < v->start)
			r.start = v->start;
		if (r.end > v->end)
			r.end = v->end;
		uint64_t pages = (r.end - r.start) / SIM_PAGE;
		if (r.order == ORDER_PMD) {
			uint64_t b0 = (r.start + SIM_PMD - 1) & ~(SIM_PMD - 1), b1 = r.end & ~(SIM_PMD - 1);
			uint64_t pmds = b1 > b0 ? (b1 - b0) / SIM_PMD : 0;
			pages -= pmds * (SIM_PMD / SIM_PAGE);
			child->cost.pte_copy += pmds;
			child->cost.fork_rmap += pmds;
			if (pages)   /* a 2 MiB page split by a partial unmap: PTE-mapped */
				child->cost.fork_rmap += batch ? (uint64_t)(r.start < b0) + (r.end > b1) : pages;
		} else if (r.kind != SIM_RUN_ZERO && r.kind != SIM_RUN_GUARD) {
			child->cost.fork_rmap += batch ? blocks(r.start, r.end, r.order) : pages;
		}
		child->cost.pte_copy += pages;
		if (r.kind != SIM_RUN_ZERO && batch && r.order && r.order != ORDER_PMD)
			child->cited |= 1u << R_F1_FORK_BATCH;
		insert(child, &r);
	}
}
