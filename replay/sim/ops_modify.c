/* ops_modify.c - calls that change the flags of a range: mprotect,
 * pkey_mprotect, madvise, the mlock family and mseal.  Each goes through
 * sim_modify (vma_modify: merge at an edge, else split). */
#include <errno.h>
#include <sys/mman.h>
#include "replay/sim/sim_int.h"
#include "lib/compat.h"

/* give [s, e) of v the flags nf; returns the VMA covering s or NULL */
static struct sim_vma *apply(struct sim_mm *mm, struct sim_vma *v, uint64_t s, uint64_t e,
                             uint64_t nf, int *err, bool *changed)
{
	struct sim_vma *r;

	if (nf == v->flags)
		return v;
	r = sim_modify(mm, v, s, e, nf, err);
	if (r)
		*changed = true;
	return r;
}

static bool any_sealed(struct sim_mm *mm, uint64_t start, uint64_t end)
{
	for (struct sim_vma *v = sim_tree_find(&mm->tree, start); v && v->start < end; v = sim_tree_next(&mm->tree, v))
		if (v->flags & VM_SEALED)
			return true;
	return false;
}

static int64_t do_mprotect(struct sim_mm *mm, uint64_t start, uint64_t len, uint64_t prot, bool *changed)
{
	uint64_t end, tmp, e;
	struct sim_vma *v;
	int err = 0;

	*changed = false;
	prot &= ~(uint64_t)(PROT_GROWSDOWN | PROT_GROWSUP);
	if (start & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "mprotect: address not page-aligned");
	if (!len)
		return 0;
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end <= start)
		return sim_fail(mm, ENOMEM, "mprotect: range wraps around");
	if (prot & ~(uint64_t)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM))
		return sim_fail(mm, EINVAL, "mprotect: unknown protection bits");
	/* sealed VMAs: refused up front in 6.10/6.11 (X7), VMA by VMA from 6.12 */
	sim_cost_seal_precheck(mm);
	if (mm->seal_precheck && any_sealed(mm, start, end))
		return sim_fail_by(mm, EPERM, "mprotect: a sealed VMA in the range, checked first", R_X7_SEAL_PRECHECK);
	for (tmp = start; tmp < end; tmp = e) {
		uint64_t nf, old;

		v = sim_tree_find(&mm->tree, tmp);
		if (!v || v->start > tmp)
			return sim_fail(mm, ENOMEM, "mprotect: a hole in the range");
		if (v->flags & VM_SEALED)
			return sim_fail_by(mm, EPERM, "mprotect: sealed VMA", R_X1_MSEAL);
		old = v->flags;
		nf = sim_prot_flags(prot) | (old & ~VM_ACCESS_FLAGS);
		if ((nf & ~(nf >> 4)) & VM_ACCESS_FLAGS)
			return sim_fail(mm, EACCES, "mprotect: protection beyond the VMA's VM_MAY* bits");
		/* map_deny_write_exec */
		if (mm->mdwe && (nf & VM_EXEC) && ((nf & VM_WRITE) || !(old & VM_EXEC)))
			return sim_fail_by(mm, EACCES, "mprotect: gaining exec, or write and exec, under PR_SET_MDWE",
			                   R_W1_MDWE);
		/* private memory made writable is charged; unfaulted anonymous
		 * memory made read-only is uncharged again (A1; 6.1 keeps the
		 * charge, so the VMA then differs from an uncharged neighbour) */
		e = v->end < end ? v->end : end;
		if (nf == old)
			continue;
		if (nf & VM_WRITE) {
			if (!(old & (VM_ACCOUNT | VM_WRITE | VM_HUGETLB | VM_SHARED | VM_NORESERVE)))
				nf |= VM_ACCOUNT;
		} else if ((old & VM_ACCOUNT) && vma_is_anon(v) && !v->anon_vma &&
		           sim_has(mm->prof, R_A1_RO_UNACCOUNT)) {
			nf &= ~VM_ACCOUNT;
		}
		if (!(v = apply(mm, v, tmp, e, nf, &err, changed)))
			return err;
		/* a locked private VMA made writable is populated (COW now) */
		if ((old & (VM_WRITE | VM_SHARED | VM_LOCKED | VM_LOCKONFAULT)) == VM_LOCKED && (nf & VM_WRITE))
			sim_fault(mm, v);
	}
	return 0;
}

int64_t sim_do_mprotect(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	return do_mprotect(mm, c->a[0], c->a[1], c->a[2], changed);
}

int64_t sim_do_pkey_mprotect(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	int64_t pkey = (int64_t)c->a[3];

	*changed = false;
	if (pkey != -1 && pkey != 0)
		return sim_fail(mm, EINVAL, "pkey_mprotect: only the default key is modelled");
	return do_mprotect(mm, c->a[0], c->a[1], c->a[2], changed);
}

/* madvise: how each advice changes vm_flags (set, clear), or changes none */
struct advice {
	int adv;
	uint64_t set, clear;
	bool flags;          /* changes vm_flags */
};

static const struct advice advices[] = {
	{ MADV_NORMAL, 0, VM_SEQ_READ | VM_RAND_READ, true },
	{ MADV_RANDOM, VM_RAND_READ, VM_SEQ_READ, true },
	{ MADV_SEQUENTIAL, VM_SEQ_READ, VM_RAND_READ, true },
	{ MADV_DONTFORK, VM_DONTCOPY, 0, true },
	{ MADV_DOFORK, 0, VM_DONTCOPY, true },
	{ MADV_WIPEONFORK, VM_WIPEONFORK, 0, true },
	{ MADV_KEEPONFORK, 0, VM_WIPEONFORK, true },
	{ MADV_DONTDUMP, VM_DONTDUMP, 0, true },
	{ MADV_DODUMP, 0, VM_DONTDUMP, true },
	{ MADV_HUGEPAGE, VM_HUGEPAGE, VM_NOHUGEPAGE, true },
	{ MADV_NOHUGEPAGE, VM_NOHUGEPAGE, VM_HUGEPAGE, true },
	{ MADV_MERGEABLE, VM_MERGEABLE, 0, true },
	{ MADV_UNMERGEABLE, 0, VM_MERGEABLE, true },
	{ MADV_WILLNEED, 0, 0, false },
	{ MADV_DONTNEED, 0, 0, false },
	{ MADV_FREE, 0, 0, false },
	{ MADV_REMOVE, 0, 0, false },
	{ MADV_COLD, 0, 0, false },
	{ MADV_PAGEOUT, 0, 0, false },
	{ MADV_POPULATE_READ, 0, 0, false },
	{ MADV_POPULATE_WRITE, 0, 0, false },
	{ MADV_DONTNEED_LOCKED, 0, 0, false },
	{ MADV_COLLAPSE, 0, 0, false },
	{ MADV_GUARD_INSTALL, 0, 0, false },
	{ MADV_GUARD_REMOVE, 0, 0, false },
};

static const struct advice *find_advice(struct sim_mm *mm, int adv)
{
	if ((adv == MADV_GUARD_INSTALL || adv == MADV_GUARD_REMOVE) &&
	    !sim_has(mm->prof, R_X3_GUARD_REGIONS))
		return NULL;
	for (size_t i = 0; i < sizeof advices / sizeof advices[0]; i++)
		if (advices[i].adv == adv)
			return &advices[i];
	return NULL;
}

static int advice_check(const struct advice *a, const struct sim_vma *v);

/* per-VMA refusal of an advice, 0 if fine; *why names it (mseal's -EPERM:
 * the caller cites X1) */
static int advice_refused(const struct advice *a, const struct sim_vma *v, const char **why)
{
	int e = advice_check(a, v);
	static const char *const text[] = {
		[EINVAL] = "madvise: advice not allowed on this VMA (madvise_behavior_valid / vma checks)",
	};
	*why = e && -e < (int)(sizeof text / sizeof *text) ? text[-e] : NULL;
	return e;
}

/* the checks behind advice_refused */
static int advice_check(const struct advice *a, const struct sim_vma *v)
{
	bool ro_anon = vma_is_anon(v) && !(v->flags & (VM_SHARED | VM_WRITE));

	/* mseal: no discarding of read-only anonymous memory, now or in a
	 * child (observed on 6.18) */
	static const int discard[] = { MADV_DONTNEED, MADV_FREE, MADV_REMOVE, MADV_DONTFORK,
	                               MADV_WIPEONFORK, MADV_DONTNEED_LOCKED };

	if ((v->flags & VM_SEALED) && ro_anon)
		for (size_t i = 0; i < sizeof discard / sizeof discard[0]; i++)
			if (a->adv == discard[i])
				return -EPERM;
	switch (a->adv) {
	case MADV_DOFORK:
		return v->flags & VM_IO ? -EINVAL : 0;
	case MADV_WIPEONFORK:
		return v->file_id || (v->flags & VM_SHARED) ? -EINVAL : 0;
	case MADV_DODUMP:
		return v->special || (v->flags & VM_SPECIAL) ? -EINVAL : 0;
	case MADV_DONTNEED:
		return v->flags & (VM_LOCKED | VM_PFNMAP) ? -EINVAL : 0;
	case MADV_FREE:
		return !vma_is_anon(v) || (v->flags & VM_SHARED) ? -EINVAL : 0;
	case MADV_REMOVE:
		return !(v->flags & VM_SHARED) ? -EINVAL : 0;
	case MADV_COLD:
	case MADV_PAGEOUT:   /* can_madv_lru_vma: hugetlb files' mappings too (G1) */
		return v->flags & (VM_LOCKED | VM_PFNMAP | VM_HUGETLB) ? -EINVAL : 0;
	case MADV_GUARD_INSTALL:
		return v->special || (v->flags & (VM_SPECIAL | VM_LOCKED | VM_HUGETLB)) ? -EINVAL : 0;
	/* faultin_page_range -> check_vma_flags: -EFAULT, which madvise_populate
	 * answers with EINVAL ("incompatible mappings / permissions") */
	case MADV_POPULATE_READ:
		return v->special || (v->flags & (VM_IO | VM_PFNMAP)) || !(v->flags & VM_READ) ? -EINVAL : 0;
	case MADV_POPULATE_WRITE:
		return v->special || (v->flags & (VM_IO | VM_PFNMAP)) || !(v->flags & VM_WRITE) ? -EINVAL : 0;
	}
	return 0;
}

static uint64_t advice_flags(const struct advice *a, const struct sim_vma *v)
{
	const uint64_t ksm_no = VM_SHARED | VM_MAYSHARE | VM_PFNMAP | VM_IO | VM_DONTEXPAND |
	                        VM_HUGETLB | VM_MIXEDMAP;

	if (a->adv == MADV_MERGEABLE && ((v->flags & ksm_no) || v->special))
		return v->flags;   /* KSM silently ignores what it cannot merge */
	return (v->flags & ~a->clear) | a->set;
}

/* MADV_POPULATE_READ/WRITE of [start, e) of v: faults the pages in up to
 * the first guard marker, where GUP stops with EFAULT (X3) */
static int populate_advised(struct sim_mm *mm, const struct advice *a, struct sim_vma *v, uint64_t start,
                            uint64_t e)
{
	uint64_t g = sim_res_guarded(mm, start, e);
	char c[64];

	if (a->adv == MADV_POPULATE_WRITE && (v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE && g > start) {
		sim_fault(mm, v);
		sim_res_populate(mm, v, start, g);
	}
	if (g == e)
		return 0;
	sim_rule(mm, "populate stops at a guard marker: EFAULT (%s)", sim_cite(mm, R_X3_GUARD_REGIONS, c, sizeof c));
	return -EFAULT;
}

/* MADV_COLLAPSE of [start, e) of v (madvise_collapse): EINVAL where no
 * huge page may be (VM_NOHUGEPAGE, special and hugetlb VMAs; the sysfs
 * setting does not count); each whole 2 MiB block of the range is then
 * collapsed, and one holding a guard marker (a non-present entry) fails
 * with EINVAL (X3), as does one without a page (no page table to
 * collapse, SCAN_PMD_NULL).  Otherwise the model takes success: what
 * else stops a collapse (memory, pinned pages) is not in a trace. */
static int collapse(struct sim_mm *mm, const struct sim_vma *v, uint64_t start, uint64_t e)
{
	uint64_t b0 = (start + SIM_PMD - 1) & ~(SIM_PMD - 1), b1 = e & ~(SIM_PMD - 1);
	char c[64];

	if (v->special || (v->flags & (VM_NOHUGEPAGE | VM_SPECIAL | VM_HUGETLB))) {
		sim_rule(mm, "MADV_COLLAPSE: no huge page may be here (VM_NOHUGEPAGE or special): EINVAL");
		return -EINVAL;
	}
	/* vma_thp_disabled: PR_SET_THP_DISABLE; with PR_THP_DISABLE_EXCEPT_ADVISED
	 * (mode 2) a collapse is forced, so allowed (prctl_thp_disable, 7.2) */
	if (mm->thp_disabled == 1) {
		sim_rule(mm, "MADV_COLLAPSE: THP disabled for the process: EINVAL (%s)",
		         sim_cite(mm, R_H1_THP_DISABLE, c, sizeof c));
		return -EINVAL;
	}
	if (b0 < b1 && sim_res_guarded(mm, b0, b1) < b1) {
		sim_rule(mm, "MADV_COLLAPSE: a guard marker in a 2 MiB block: EINVAL (%s)",
		         sim_cite(mm, R_X3_GUARD_REGIONS, c, sizeof c));
		return -EINVAL;
	}
	for (uint64_t b = b0; b < b1; b += SIM_PMD)
		if (!sim_res_pages(mm, b, b + SIM_PMD)) {
			sim_rule(mm, "MADV_COLLAPSE: a 2 MiB block without pages (no page table): EINVAL");
			return -EINVAL;
		}
	return 0;
}

int64_t sim_do_madvise(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[0], len = c->a[1], end;
	const struct advice *a = find_advice(mm, (int)c->a[2]);
	struct sim_vma *v;
	int64_t unmapped = 0;
	int err = 0;
	const char *why;

	*changed = false;
	if (!a || (start & (SIM_PAGE - 1)))
		return sim_fail(mm, EINVAL, "madvise: unknown advice (for this release) or address not page-aligned");
	len = PAGE_ALIGN(len);
	end = start + len;
	if (end < start)
		return sim_fail(mm, EINVAL, "madvise: range wraps around");
	if (end == start)
		return 0;
	sim_cost_seal_precheck(mm);   /* can_modify_mm_madv (X7) */
	if (!a->flags)
		sim_rule(mm, "this advice changes no VMA");
	v = sim_tree_find(&mm->tree, start);
	if (!v)
		return sim_fail(mm, ENOMEM, "madvise: no VMA in the range");
	while (v && start < end) {
		uint64_t e;

		if (start < v->start) {
			unmapped = -ENOMEM;
			start = v->start;
			if (start >= end)
				break;
		}
		if ((err = advice_refused(a, v, &why)))
			return err == -EPERM
			       ? sim_fail_by(mm, EPERM, "madvise: discarding sealed read-only anonymous memory", R_X1_MSEAL)
			       : sim_fail(mm, -err, why);
		e = v->end < end ? v->end : end;
		if (a->flags && !(v = apply(mm, v, start, e, advice_flags(a, v), &err, changed)))
			return err;
		if ((a->adv == MADV_POPULATE_READ || a->adv == MADV_POPULATE_WRITE) &&
		    (err = populate_advised(mm, a, v, start, e)))
			return err;
		if (a->adv == MADV_COLLAPSE && (err = collapse(mm, v, start, e)))
			return err;
		if (a->adv == MADV_DONTNEED || a->adv == MADV_DONTNEED_LOCKED)
			sim_res_zap(mm, start, e);   /* zap_page_range: guard markers stay */
		if (a->adv == MADV_GUARD_INSTALL) {
			/* page tables without pages: an anonymous VMA gets the
			 * anon_vma they need (anon_vma_prepare), so fork copies them */
			if (vma_is_anon(v))
				sim_fault(mm, v);
			sim_res_guard(mm, start, e);
		}
		if (a->adv == MADV_GUARD_REMOVE)
			sim_res_unguard(mm, start, e);
		start = e;
		v = sim_tree_find(&mm->tree, start);
	}
	if (start < end)
		unmapped = -ENOMEM;
	if (unmapped)
		sim_rule(mm, "madvise: a hole in the range (ENOMEM, the rest advised)");
	return unmapped;
}

/* __mm_populate after mlock: stops with ENOMEM (EFAULT as POSIX wants
 * it) at the first inaccessible VMA unless errors are ignored (mlockall) */
static int populate_locked(struct sim_mm *mm, uint64_t start, uint64_t end, bool ignore_errors)
{
	for (struct sim_vma *v = sim_tree_find(&mm->tree, start); v && v->start < end; v = sim_tree_next(&mm->tree, v)) {
		if (!(v->flags & VM_LOCKED) || (v->flags & VM_LOCKONFAULT) || (v->flags & (VM_IO | VM_PFNMAP)))
			continue;
		if (!(v->flags & VM_ACCESS_FLAGS)) {
			if (ignore_errors)
				continue;
			sim_rule(mm, "populate fails on a PROT_NONE VMA: ENOMEM after locking");
			return -ENOMEM;
		}
		sim_populate(mm, v, start, end);
	}
	return 0;
}

static bool lock_skips(const struct sim_vma *v)
{
	return v->special || (v->flags & (VM_SPECIAL | VM_HUGETLB));
}

static int64_t lock_range(struct sim_mm *mm, uint64_t start, uint64_t len, uint64_t lf, bool *changed)
{
	uint64_t end, tmp, e;
	struct sim_vma *v;
	int err = 0;

	len = PAGE_ALIGN(len + (start & (SIM_PAGE - 1)));
	start &= ~(SIM_PAGE - 1);
	end = start + len;
	if (end < start)
		return sim_fail(mm, EINVAL, "mlock: range wraps around");
	if (end == start)
		return 0;
	for (tmp = start; tmp < end; tmp = e) {
		v = sim_tree_find(&mm->tree, tmp);
		if (!v || v->start > tmp)
			return sim_fail(mm, ENOMEM, "mlock: a hole in the range");
		e = v->end < end ? v->end : end;
		if (!lock_skips(v) &&
		    !apply(mm, v, tmp, e, (v->flags & ~VM_LOCKED_MASK) | lf, &err, changed))
			return err;
	}
	if ((lf & VM_LOCKED) && !(lf & VM_LOCKONFAULT))
		return populate_locked(mm, start, end, false);
	return 0;
}

static int64_t lock_all(struct sim_mm *mm, uint64_t flags, bool *changed)
{
	uint64_t add = 0;
	int err;

	if (flags) {
		if (flags & ~(uint64_t)(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) || flags == MCL_ONFAULT)
			return sim_fail(mm, EINVAL, "mlockall: unknown flags or MCL_ONFAULT alone");
	}
	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & MCL_FUTURE) {
		mm->def_flags |= VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
		if (!(flags & MCL_CURRENT))
			return 0;
	}
	if (flags & MCL_CURRENT)
		add = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	for (struct sim_vma *v = sim_tree_first(&mm->tree); v; ) {
		uint64_t end = v->end;
		struct sim_vma *r = v;

		if (!lock_skips(v))
			r = apply(mm, v, v->start, v->end, (v->flags & ~VM_LOCKED_MASK) | add, &err, changed);
		v = r ? sim_tree_find(&mm->tree, end) : NULL;
	}
	if ((add & VM_LOCKED) && !(add & VM_LOCKONFAULT))
		populate_locked(mm, 0, SIM_TASK_SIZE, true);
	return 0;
}

int64_t sim_do_mlock(struct sim_mm *mm, const struct sim_call *c, int sys, bool *changed)
{
	*changed = false;
	switch (sys) {
	case VMT_SYS_MLOCK:
		return lock_range(mm, c->a[0], c->a[1], VM_LOCKED, changed);
	case VMT_SYS_MLOCK2:
		if (c->a[2] & ~(uint64_t)MLOCK_ONFAULT)
			return sim_fail(mm, EINVAL, "mlock2: unknown flags");
		return lock_range(mm, c->a[0], c->a[1],
		                  VM_LOCKED | (c->a[2] & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0), changed);
	case VMT_SYS_MUNLOCK:
		return lock_range(mm, c->a[0], c->a[1], 0, changed);
	case VMT_SYS_MLOCKALL:
		if (!c->a[0])
			return sim_fail(mm, EINVAL, "mlockall: no flags");
		return lock_all(mm, c->a[0], changed);
	default: /* munlockall */
		return lock_all(mm, 0, changed);
	}
}

int64_t sim_do_mseal(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[0], len = PAGE_ALIGN(c->a[1]), end = start + len, tmp;
	struct sim_vma *v;
	int err = 0;

	*changed = false;
	if (!sim_has(mm->prof, R_X1_MSEAL))
		return sim_fail_by(mm, ENOSYS, "mseal(2) does not exist before 6.10", R_X1_MSEAL);
	if (c->a[2] || (start & (SIM_PAGE - 1)))
		return sim_fail(mm, EINVAL, "mseal: flags not 0 or address not page-aligned");
	if (len < c->a[1])
		return sim_fail(mm, ENOMEM, "mseal: length overflows when rounded to pages");
	if (end < start)
		return sim_fail(mm, EINVAL, "mseal: range wraps around");
	if (end == start)
		return 0;
	/* the whole range must be mapped before anything is sealed */
	v = sim_tree_find(&mm->tree, start);
	for (tmp = start; tmp < end; v = sim_tree_next(&mm->tree, v)) {
		if (!v || v->start > tmp)
			return sim_fail(mm, ENOMEM, "mseal: the range is not wholly mapped (checked before sealing anything)");
		tmp = v->end;
	}
	v = sim_tree_find(&mm->tree, start);
	for (tmp = start; v && tmp < end; ) {
		uint64_t e = v->end < end ? v->end : end;

		if (!(v = apply(mm, v, tmp, e, v->flags | VM_SEALED, &err, changed)))
			return err;
		tmp = e;
		v = sim_tree_find(&mm->tree, tmp);
	}
	return 0;
}
