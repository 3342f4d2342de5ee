/* ops_map.c - mmap, munmap and brk (mm/mmap.c do_mmap, mmap_region,
 * do_vmi_munmap, brk/do_brk_flags). */
#include <errno.h>
#include <sys/mman.h>
#include "replay/sim/sim_int.h"

#define SIM_MAP_DROPPABLE 0x08   /* MAP_TYPE value, 6.11 */

/* K1, __ksm_should_add_vma: after PR_SET_MEMORY_MERGE a new VMA of private
 * memory that is not special or hugetlb is VM_MERGEABLE */
uint64_t sim_ksm_flags(const struct sim_mm *mm, uint64_t f)
{
	const uint64_t no = VM_SHARED | VM_MAYSHARE | VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_HUGETLB |
	                    VM_MIXEDMAP | VM_DROPPABLE;

	return mm->ksm_any && !(f & no) ? VM_MERGEABLE : 0;
}

static void populate(struct sim_mm *mm, uint64_t start, uint64_t end)
{
	for (struct sim_vma *v = sim_tree_find(&mm->tree, start); v && v->start < end; v = sim_tree_next(&mm->tree, v))
		sim_populate(mm, v, start, end);
}

int64_t sim_do_mmap(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t addr = c->a[0], len = c->a[1], prot = c->a[2], flags = c->a[3], off = c->a[5];
	bool anon = flags & MAP_ANONYMOUS, shared, fixed = flags & (MAP_FIXED | MAP_FIXED_NOREPLACE);
	struct sim_place pl = { 0 };
	struct sim_newrange nr = { 0 };
	struct sim_vma *v;
	uint64_t vf, pgoff, droppable = 0;
	int64_t r;
	int how, e;
	char cite[64];

	*changed = false;
	if (!len)
		return sim_fail(mm, EINVAL, "mmap: length 0");
	len = PAGE_ALIGN(len);
	if (!len)
		return sim_fail(mm, ENOMEM, "mmap: length overflows when rounded to pages");
	if (off & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "mmap: offset not page-aligned");
	pgoff = off / SIM_PAGE;
	switch (flags & MAP_TYPE) {
	case MAP_SHARED: case MAP_SHARED_VALIDATE: shared = true; break;
	case MAP_PRIVATE: shared = false; break;
	case SIM_MAP_DROPPABLE:
		if (!anon || !sim_has(mm->prof, R_X6_DROPPABLE))
			return sim_fail_by(mm, EINVAL, "mmap: MAP_DROPPABLE is for anonymous memory, from 6.11", R_X6_DROPPABLE);
		if (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN))
			return sim_fail(mm, EINVAL, "mmap: MAP_DROPPABLE with MAP_LOCKED, MAP_HUGETLB or MAP_GROWSDOWN");
		shared = false;
		droppable = VM_DROPPABLE | VM_NORESERVE | VM_WIPEONFORK | VM_DONTDUMP;
		break;
	default: return sim_fail(mm, EINVAL, "mmap: no valid mapping type (MAP_SHARED, MAP_PRIVATE, ...) in flags");
	}
	if (!anon && !c->file_id && !c->file)
		return sim_fail(mm, EBADF, "mmap: no file for a file mapping");
	if (!fixed && addr && addr < mm->mmap_min_addr)
		addr = PAGE_ALIGN(mm->mmap_min_addr);   /* round_hint_to_min */
	if (fixed && (addr & (SIM_PAGE - 1)))
		return sim_fail(mm, EINVAL, "mmap: fixed address not page-aligned");
	if (mm->tree.count > mm->max_map_count)
		return sim_fail(mm, ENOMEM, "mmap: vm.max_map_count reached");
	vf = sim_prot_flags(prot) | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | mm->def_flags | droppable;
	if (flags & MAP_GROWSDOWN)
		vf |= VM_GROWSDOWN;
	if (flags & MAP_LOCKED)
		vf |= VM_LOCKED;
	if ((flags & MAP_STACK) && sim_has(mm->prof, R_T4_STACK_NOHUGE)) {
		vf |= VM_NOHUGEPAGE;
		sim_rule(mm, "MAP_STACK sets VM_NOHUGEPAGE (%s)",
		         sim_cite(mm, R_T4_STACK_NOHUGE, cite, sizeof cite));
	}
	if (shared)
		vf |= VM_SHARED | VM_MAYSHARE;
	if (!anon && c->file && c->file->fs_type == VMT_FS_HUGETLBFS) {
		vf |= VM_HUGETLB | VM_DONTEXPAND;   /* hugetlbfs_file_mmap */
		sim_rule(mm, "a hugetlbfs file's mapping is VM_HUGETLB (%s)",
		         sim_cite(mm, R_G1_HUGETLB_FILE, cite, sizeof cite));
	}
	if (flags & MAP_NORESERVE)
		vf |= VM_NORESERVE;
	if (mm->mdwe && (vf & VM_WRITE) && (vf & VM_EXEC))
		return sim_fail_by(mm, EACCES, "mmap: writable and executable under PR_SET_MDWE", R_W1_MDWE);
	vf |= sim_ksm_flags(mm, vf);

	pl.addr = addr;
	pl.len = len;
	pl.pgoff = pgoff;
	pl.mflags = flags;
	pl.file = !anon;
	pl.shared = shared;
	pl.vm_flags = vf;
	r = sim_get_unmapped_area(mm, &pl);
	if (r < 0)
		return r;
	addr = (uint64_t)r;
	if (flags & MAP_FIXED_NOREPLACE) {
		v = sim_tree_find(&mm->tree, addr);
		if (v && v->start < addr + len)
			return sim_fail(mm, EEXIST, "MAP_FIXED_NOREPLACE: the range is not free");
	}
	sim_cost_seal_precheck(mm);   /* mmap_region -> do_vmi_munmap (X7) */
	if ((e = sim_unmap_range(mm, addr, addr + len, changed)))
		return e;
	if ((vf & (VM_NORESERVE | VM_SHARED | VM_WRITE)) == VM_WRITE)
		vf |= VM_ACCOUNT;
	nr.start = addr;
	nr.end = addr + len;
	nr.flags = vf | VM_SOFTDIRTY;
	if (!anon) {
		nr.file_id = c->file_id ? c->file_id : c->file->id;
		nr.pgoff = pgoff;
	} else if (shared) {
		nr.file_id = mm->next_shmem++;
		nr.pgoff = 0;
	} else {
		nr.pgoff = addr / SIM_PAGE;
	}
	nr.next_first = !sim_has(mm->prof, R_M1_MERGE_REWRITE);
	if (!(v = sim_map_range(mm, &nr, &how)))
		return sim_fail(mm, ENOMEM, "out of memory in the simulator");
	*changed = true;
	if (((vf & VM_LOCKED) && !(vf & VM_LOCKONFAULT)) ||
	    ((flags & MAP_POPULATE) && !(flags & MAP_NONBLOCK)))
		populate(mm, addr, addr + len);
	return (int64_t)addr;
}

int64_t sim_do_munmap(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t addr = c->a[0], len = PAGE_ALIGN(c->a[1]);

	*changed = false;
	if ((addr & (SIM_PAGE - 1)) || !len || addr > SIM_TASK_SIZE || len > SIM_TASK_SIZE - addr)
		return sim_fail(mm, EINVAL, "munmap: address not page-aligned, length 0 or range past TASK_SIZE");
	sim_cost_seal_precheck(mm);
	return sim_unmap_range(mm, addr, addr + len, changed);
}

static void brk_grow(struct sim_mm *mm, uint64_t oldbrk, uint64_t newbrk, bool *changed)
{
	struct sim_vma *prev = oldbrk ? sim_tree_find(&mm->tree, oldbrk - 1) : NULL, *v;
	uint64_t f = VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_ACCOUNT |
	             VM_SOFTDIRTY | mm->def_flags;
	f |= sim_ksm_flags(mm, f);
	char cite[64];
	const char *why = NULL;

	if (prev && (prev->end != oldbrk || prev->start < mm->start_brk))
		prev = NULL;
	if (!prev)
		why = "no VMA ends at the old break";
	else if (prev->special || ((prev->flags ^ f) & ~VM_SOFTDIRTY))
		why = "flags differ";
	else if (prev->file_id)
		why = "heap VMA is file-backed";
	else if (prev->pgoff + vma_pages(prev) != oldbrk / SIM_PAGE)
		why = "pgoff not contiguous";
	else if (prev->anon_vma && prev->fork_child)
		why = "heap VMA is a faulted fork child (anon_vma chain > 1)";
	*changed = true;
	if (!why) {
		prev->end = newbrk;
		sim_tree_end_changed(&mm->tree, prev);
		if (mm->brk_prealloc) {
			mm->tree.preallocs++;
			mm->tree.nodes += mm->tree.prealloc_nodes;
		}
		mm->cost.mt_walk += mm->brk_rewalks;
		mm->cited |= mm->brk_cited;
		mm->grown = prev;
		mm->how = VR_EXPAND_PREV;
		sim_rule_fixed(mm, mm->brk_msg[0]);
		return;
	}
	if (!(v = sim_vma_new(mm)))
		return;
	v->start = oldbrk;
	v->end = newbrk;
	v->pgoff = oldbrk / SIM_PAGE;
	v->flags = f;
	sim_tree_insert(&mm->tree, v);
	mm->grown = v;
	mm->how = VR_NEW;
	sim_rule(mm, "brk made a new VMA: %s (%s)", why, sim_cite(mm, R_B1_BRK_EXPAND, cite, sizeof cite));
}

int64_t sim_do_brk(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t brk = c->a[0], newbrk = PAGE_ALIGN(brk), oldbrk = PAGE_ALIGN(mm->brk);
	struct sim_vma *next;
	int e;

	*changed = false;
	if (!mm->start_brk) {
		sim_rule_fixed(mm, "brk: the program break is unknown (no [heap] in the map, no sim_mm_set_brk)");
		return (int64_t)mm->brk;
	}
	if (brk < mm->start_brk)
		return (int64_t)mm->brk;
	if (newbrk < brk || newbrk > SIM_TASK_SIZE) {   /* check_brk_limits -> get_unmapped_area */
		sim_rule_fixed(mm, "brk refused: the new break is past TASK_SIZE");
		return (int64_t)mm->brk;
	}
	if (oldbrk == newbrk) {
		mm->brk = brk;
		return (int64_t)brk;
	}
	if (brk <= mm->brk) {
		next = sim_tree_find(&mm->tree, newbrk);
		if (!next || next->start >= oldbrk)
			return (int64_t)mm->brk;
		if ((e = sim_unmap_range(mm, newbrk, oldbrk, changed)))
			return (int64_t)mm->brk;
		mm->cost.tlb_flush++;
		mm->brk = brk;
		sim_rule_fixed(mm, mm->brk_msg[1]);
		return (int64_t)brk;
	}
	next = sim_tree_find(&mm->tree, oldbrk);
	if (next && next->start < newbrk + SIM_PAGE + SIM_GUARD_GAP &&
	    newbrk + SIM_PAGE > sim_start_gap(next)) {
		sim_rule(mm, "brk refused: the next VMA is within a page (or its guard gap)");
		return (int64_t)mm->brk;
	}
	if (mm->tree.count > mm->max_map_count)
		return (int64_t)mm->brk;
	brk_grow(mm, oldbrk, newbrk, changed);
	mm->brk = brk;
	if (mm->def_flags & VM_LOCKED)
		populate(mm, oldbrk, newbrk);
	return (int64_t)brk;
}
