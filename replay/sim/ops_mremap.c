/* ops_mremap.c - mremap: shrink, grow in place, move (copy_vma's pgoff
 * rule: an unfaulted anonymous VMA takes pgoff = new_addr >> PAGE_SHIFT and
 * so can merge at its destination). */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include "replay/sim/sim_int.h"
#include "lib/compat.h"

struct remap {
	uint64_t addr, old_len, new_len, flags, new_addr;
};

/* the source range must sit inside one VMA */
static struct sim_vma *source_vma(struct sim_mm *mm, const struct remap *r, int *err)
{
	struct sim_vma *v = sim_tree_find(&mm->tree, r->addr);

	*err = -EFAULT;
	if (!v || v->start > r->addr || r->old_len > v->end - r->addr) {
		sim_rule_fixed(mm, "mremap: the old range is not inside one VMA");
		return NULL;
	}
	if (r->new_len > r->old_len && (v->flags & (VM_DONTEXPAND | VM_PFNMAP))) {
		sim_rule_fixed(mm, "mremap: a VM_DONTEXPAND or VM_PFNMAP VMA does not grow");
		return NULL;
	}
	*err = 0;
	return v;
}

/* MREMAP_DONTUNMAP: the source stays mapped, unlocked (move_vma,
 * dontunmap_complete).  `o` is the VMA now holding addr: the source, or
 * the copy it merged with. */
static void dontunmap_done(struct sim_mm *mm, struct sim_vma *o, const struct remap *r, bool merged_self)
{
	char c[64];

	o->flags &= ~VM_LOCKED_MASK;
	if (sim_has(mm->prof, R_A2_DONTUNMAP_UNACCT)) {
		o->flags &= ~VM_ACCOUNT;
		sim_rule(mm, "the old VMA loses VM_ACCOUNT (%s)", sim_cite(mm, R_A2_DONTUNMAP_UNACCT, c, sizeof c));
	}
	if (merged_self || o->start != r->addr || o->end != r->addr + r->old_len)
		return;
	/* the whole VMA was moved: its anon_vma links go */
	o->anon_vma = 0;
	o->fork_child = false;
	if (vma_is_anon(o) && !(o->flags & VM_SHARED) && sim_has(mm->prof, R_D1_DONTUNMAP_APART))
		o->pgoff = o->start / SIM_PAGE;
}

static int64_t move(struct sim_mm *mm, struct sim_vma *v, const struct remap *r, uint64_t dst, bool *changed)
{
	struct sim_newrange nr = { 0 };
	struct sim_vma *nv, *o;
	bool ch, keep = r->flags & MREMAP_DONTUNMAP, unfaulted = false, d1 = sim_has(mm->prof, R_D1_DONTUNMAP_APART);
	int how, e;
	uint64_t pgoff = v->pgoff + (r->addr - v->start) / SIM_PAGE;
	char c[64], why[96];

	if (mm->tree.count + 3 >= mm->max_map_count) {
		sim_rule(mm, "refused: vm.max_map_count (%llu) leaves no room for a split into three",
		         (unsigned long long)mm->max_map_count);
		return -ENOMEM;
	}
	/* D1: a locked source is split first, so only the moved range is unlocked */
	if (keep && d1 && (v->flags & VM_LOCKED)) {
		if (v->start < r->addr && !(v = sim_split(mm, v, r->addr)))
			return sim_fail(mm, ENOMEM, "out of memory in the simulator");
		if (v->end > r->addr + r->old_len && !sim_split(mm, v, r->addr + r->old_len))
			return sim_fail(mm, ENOMEM, "out of memory in the simulator");
		*changed = true;
	}
	if (vma_is_anon(v) && !(v->flags & VM_SHARED) && !v->anon_vma) {
		pgoff = dst / SIM_PAGE;
		unfaulted = true;
		sim_rule(mm, "unfaulted anonymous source takes pgoff of its new address (copy_vma)");
	} else if (vma_is_anon(v) && !(v->flags & VM_SHARED)) {
		sim_rule(mm, "faulted source keeps its pgoff (copy_vma)");
	}
	nr.start = dst;
	nr.end = dst + r->new_len;
	nr.pgoff = pgoff;
	nr.flags = v->flags;
	nr.file_id = v->file_id;
	nr.anon_vma = v->anon_vma;
	nr.fork_child = v->fork_child;
	nr.special = v->special;
	nr.policy = v->policy;
	nr.name = v->name;
	nr.uffd = v->uffd;
	nr.copied = true;
	if (keep && unfaulted && d1) {
		/* the source stays: it must not become part of its copy.  The
		 * 6.1 backport skips the merge altogether next to it; from the
		 * merge rewrite (M1) only the source itself is left out */
		nr.apart = v;
		nr.alone = !sim_has(mm->prof, R_M1_MERGE_REWRITE) && (dst == v->end || v->start == nr.end);
		snprintf(why, sizeof why, "%s (%s)", nr.alone ? "next to the kept source: no merge tried"
		         : "the kept source itself", sim_cite(mm, R_D1_DONTUNMAP_APART, c, sizeof c));
		nr.apart_why = why;
	}
	if (!(nv = sim_map_range(mm, &nr, &how)))
		return sim_fail(mm, ENOMEM, "out of memory in the simulator");
	*changed = true;
	if ((nv->flags & VM_LOCKED_MASK) == VM_LOCKED && r->new_len > r->old_len)
		sim_populate(mm, nv, dst + r->old_len, dst + r->new_len);   /* the grown part of a locked VMA */
	/* the pages go with the range (move_page_tables); the grown part has none */
	sim_res_move(mm, r->addr, r->addr + (r->old_len < r->new_len ? r->old_len : r->new_len), dst);
	if (keep) {
		o = sim_tree_find(&mm->tree, r->addr);   /* v may have merged into the copy */
		dontunmap_done(mm, o, r, o == nv);
	} else if ((e = sim_unmap_range(mm, r->addr, r->addr + r->old_len, &ch))) {
		return e;
	}
	mm->how = VR_MOVE;
	return (int64_t)dst;
}

static int64_t remap_to(struct sim_mm *mm, struct remap *r, bool *changed)
{
	struct sim_place pl = { 0 };
	struct sim_vma *v;
	int64_t dst;
	int e;
	bool ch;

	if (r->new_addr & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "mremap: new address not page-aligned");
	if (r->new_len > SIM_TASK_SIZE || r->new_addr > SIM_TASK_SIZE - r->new_len)
		return sim_fail(mm, EINVAL, "mremap: new range past TASK_SIZE");
	if (r->addr + r->old_len > r->new_addr && r->new_addr + r->new_len > r->addr)
		return sim_fail(mm, EINVAL, "mremap: new range overlaps the old one");
	if (r->flags & MREMAP_FIXED) {
		if ((e = sim_unmap_range(mm, r->new_addr, r->new_addr + r->new_len, &ch)))
			return e;
		*changed |= ch;
	}
	if (r->old_len > r->new_len) {
		if ((e = sim_unmap_range(mm, r->addr + r->new_len, r->addr + r->old_len, &ch)))
			return e;
		*changed |= ch;
		r->old_len = r->new_len;
	}
	if (!(v = source_vma(mm, r, &e)))
		return e;
	pl.addr = r->new_addr;
	pl.len = r->new_len;
	pl.pgoff = v->pgoff + (r->addr - v->start) / SIM_PAGE;
	pl.mflags = (r->flags & MREMAP_FIXED) ? MAP_FIXED : 0;
	pl.file = v->file_id != 0;
	pl.shared = v->flags & VM_MAYSHARE;
	dst = sim_get_unmapped_area(mm, &pl);
	if (dst < 0)
		return dst;
	return move(mm, v, r, (uint64_t)dst, changed);
}

/* X5's vma_multi_allowed(): a VMA that may move together with others.  A
 * userfaultfd-armed one (VM_UFFD_*) may not: its remap event needs the
 * mmap lock dropped.  Nor may a file whose get_unmapped_area is its own
 * (not shmem's, hugetlb's or thp_get_unmapped_area): device files; the
 * model knows files by identity only and takes every one as allowed. */
static bool multi_allowed(const struct sim_vma *v)
{
	return !(v->flags & VM_UFFD_FLAGS);
}

/* X5: a move that keeps the length (MREMAP_FIXED, old_len == new_len) may
 * span several VMAs (remap_move): each VMA's part of the old range moves
 * on its own, to the destination plus its distance from the first VMA, so
 * the gaps between them stay; a gap before the first VMA is EFAULT, one
 * after the last is allowed.  A VMA that may not move with others
 * (multi_allowed) is EFAULT when the range goes on past it as its first,
 * before anything moved, and as a later one.  A part that fails leaves the
 * parts before it moved.  The result is where the first part went. */
static int64_t remap_move(struct sim_mm *mm, const struct remap *all, bool *changed)
{
	uint64_t start = all->addr, end = all->addr + all->old_len, cur = start, last_end = 0;
	uint64_t target = all->new_addr;
	int64_t res = 0, r;
	int parts = 0;
	char c[64];
	struct sim_vma *v0 = sim_tree_find(&mm->tree, start), *v1 = v0 ? sim_tree_next(&mm->tree, v0) : NULL;

	if (v0 && v0->start <= start && v0->end < end && v1 && v1->start < end)
		sim_rule(mm, "the VMAs of the old range move one by one (%s)", sim_cite(mm, R_X5_MREMAP_MULTI, c, sizeof c));
	while (cur < end) {
		struct sim_vma *v = sim_tree_find(&mm->tree, cur);
		struct remap part = *all;

		if (!v || v->start >= end)
			break;
		if (!parts && start < v->start)
			return sim_fail(mm, EFAULT, "mremap: no VMA at the old address");
		part.addr = v->start > start ? v->start : start;
		part.old_len = part.new_len = (end < v->end ? end : v->end) - part.addr;
		part.new_addr = target + (parts ? v->start - last_end : 0);
		last_end = v->end;
		if (!multi_allowed(v) && parts)
			return sim_fail_by(mm, EFAULT, "mremap: a userfaultfd-armed VMA after the first of "
			                   "several does not move (the parts before it moved)", R_X5_MREMAP_MULTI);
		if (!multi_allowed(v) && v->end < end)
			return sim_fail_by(mm, EFAULT, "mremap: a userfaultfd-armed first VMA moves only alone, "
			                   "and the old range goes on past it (nothing moved)", R_X5_MREMAP_MULTI);
		if (parts && (v->flags & VM_SEALED))
			return sim_fail_by(mm, EPERM, "mremap: sealed VMA (the parts before it moved)", R_X1_MSEAL);
		if ((part.flags & MREMAP_DONTUNMAP) && (v->flags & (VM_DONTEXPAND | VM_PFNMAP)))
			return sim_fail(mm, EINVAL, "mremap: MREMAP_DONTUNMAP of a VM_DONTEXPAND or VM_PFNMAP VMA");
		if ((r = remap_to(mm, &part, changed)) < 0)
			return r;
		if (!parts++)
			res = r;
		target = (uint64_t)r + part.new_len;
		cur = part.addr + part.old_len;
	}
	if (!parts)
		return sim_fail(mm, EFAULT, "mremap: no VMA in the old range");
	return res;
}

int64_t sim_do_mremap(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	struct remap r = { c->a[0], PAGE_ALIGN(c->a[1]), PAGE_ALIGN(c->a[2]), c->a[3], c->a[4] };
	struct sim_newrange nr = { 0 };
	struct sim_place pl = { 0 };
	struct sim_vma *v, *nx;
	int64_t dst;
	int e, how;

	*changed = false;
	if (r.flags & ~(uint64_t)(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return sim_fail(mm, EINVAL, "mremap: unknown flags");
	if ((r.flags & MREMAP_FIXED) && !(r.flags & MREMAP_MAYMOVE))
		return sim_fail(mm, EINVAL, "mremap: MREMAP_FIXED without MREMAP_MAYMOVE");
	if ((r.flags & MREMAP_DONTUNMAP) && (!(r.flags & MREMAP_MAYMOVE) || r.old_len != r.new_len))
		return sim_fail(mm, EINVAL, "mremap: MREMAP_DONTUNMAP needs MREMAP_MAYMOVE and an unchanged length");
	if ((r.addr & (SIM_PAGE - 1)) || !r.new_len)
		return sim_fail(mm, EINVAL, "mremap: old address not page-aligned or new length 0");
	if (r.flags & MREMAP_FIXED) {
		if (r.new_addr & (SIM_PAGE - 1))
			return sim_fail(mm, EINVAL, "mremap: new address not page-aligned");
		if (r.new_len > SIM_TASK_SIZE || r.new_addr > SIM_TASK_SIZE - r.new_len)
			return sim_fail(mm, EINVAL, "mremap: new range past TASK_SIZE");
		if (r.addr + r.old_len > r.new_addr && r.new_addr + r.new_len > r.addr)
			return sim_fail(mm, EINVAL, "mremap: new range overlaps the old one");
	}
	sim_cost_seal_precheck(mm);   /* the old range (X7); the unmaps it makes are not counted */
	v = sim_tree_find(&mm->tree, r.addr);
	if (!v || v->start > r.addr)
		return sim_fail(mm, EFAULT, "mremap: no VMA at the old address");
	if (v->flags & VM_SEALED)
		return sim_fail_by(mm, EPERM, "mremap: sealed VMA", R_X1_MSEAL);
	if ((r.flags & MREMAP_FIXED) && r.old_len == r.new_len && sim_has(mm->prof, R_X5_MREMAP_MULTI))
		return remap_move(mm, &r, changed);
	if (r.flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return remap_to(mm, &r, changed);
	if (r.old_len >= r.new_len) {
		if (r.old_len > r.new_len &&
		    (e = sim_unmap_range(mm, r.addr + r.new_len, r.addr + r.old_len, changed)))
			return e;
		return (int64_t)r.addr;
	}
	if (!(v = source_vma(mm, &r, &e)))
		return e;
	if (r.addr + r.old_len == v->end) {
		uint64_t end = v->end + (r.new_len - r.old_len);

		nx = sim_tree_next(&mm->tree, v);
		if (end > v->end && end <= SIM_TASK_SIZE && (!nx || nx->start >= end)) {
			nr.start = v->end;
			nr.end = end;
			nr.pgoff = v->pgoff + vma_pages(v);
			nr.flags = v->flags;
			nr.file_id = v->file_id;
			nr.anon_vma = v->anon_vma;
			nr.fork_child = v->fork_child;
			nr.special = v->special;
			nr.policy = v->policy;
			nr.name = v->name;
			nr.uffd = v->uffd;
			if (!sim_map_range(mm, &nr, &how))
				return sim_fail(mm, ENOMEM, "out of memory in the simulator");
			*changed = true;
			mm->how = how;
			sim_rule(mm, "grown in place");
			v = sim_tree_find(&mm->tree, r.addr);
			if ((v->flags & VM_LOCKED_MASK) == VM_LOCKED)
				sim_populate(mm, v, r.addr + r.old_len, r.addr + r.new_len);
			return (int64_t)r.addr;
		}
	}
	if (!(r.flags & MREMAP_MAYMOVE))
		return sim_fail(mm, ENOMEM, "mremap: no room to grow in place and no MREMAP_MAYMOVE");
	pl.len = r.new_len;
	pl.pgoff = v->pgoff + (r.addr - v->start) / SIM_PAGE;
	pl.file = v->file_id != 0;
	pl.shared = v->flags & VM_MAYSHARE;
	dst = sim_get_unmapped_area(mm, &pl);
	if (dst < 0)
		return dst;
	return move(mm, v, &r, (uint64_t)dst, changed);
}
