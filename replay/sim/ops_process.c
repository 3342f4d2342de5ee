/* ops_process.c - the prctl options that change what later calls do
 * (PR_SET_THP_DISABLE H1, PR_SET_MDWE W1, PR_SET_MEMORY_MERGE K1),
 * process_madvise (madvise over the RANGES record's iovec),
 * remap_file_pages (emulated since 4.0 as an mmap of the same file at the
 * new offset) and map_shadow_stack (S1).  A call that failed when
 * recorded for what the machine had (a CPU without shadow stacks, a
 * pidfd of another process) fails alike. */
#include <errno.h>
#include <string.h>
#include "replay/sim/sim_int.h"
#include "lib/compat.h"

#define PR_THP_DISABLE_EXCEPT_ADVISED (1 << 1)
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#define PR_MDWE_NO_INHERIT 2

static int64_t as_recorded(struct sim_mm *mm, const struct sim_call *c, const char *what)
{
	sim_rule(mm, "%s failed when recorded: the machine decides, it fails alike", what);
	return -c->err;
}

/* prctl(PR_SET_THP_DISABLE, on, flags): MMF_DISABLE_THP, wholly or but for
 * VM_HUGEPAGE VMAs (PR_THP_DISABLE_EXCEPT_ADVISED) */
int64_t sim_do_thp_disable(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	char cite[64];

	*changed = false;
	if (c->err)
		return as_recorded(mm, c, "PR_SET_THP_DISABLE");
	mm->thp_disabled = !c->a[1] ? 0 : c->a[2] & PR_THP_DISABLE_EXCEPT_ADVISED ? 2 : 1;
	sim_rule(mm, "THP %s for the process (%s)", mm->thp_disabled ? "disabled" : "enabled",
	         sim_cite(mm, R_H1_THP_DISABLE, cite, sizeof cite));
	return 0;
}

/* prctl(PR_SET_MDWE, bits): refuse-exec-gain from now on, and with
 * NO_INHERIT not in a fork child (mmf_init_flags); unknown bits or
 * NO_INHERIT alone are EINVAL, other bits than those set EPERM */
int64_t sim_do_mdwe(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	char cite[64];

	*changed = false;
	if (!sim_has(mm->prof, R_W1_MDWE))
		return sim_fail_by(mm, EINVAL, "PR_SET_MDWE: not in this release", R_W1_MDWE);
	if (c->err)
		return as_recorded(mm, c, "PR_SET_MDWE");
	uint64_t bits = c->a[1], now = (mm->mdwe ? PR_MDWE_REFUSE_EXEC_GAIN : 0) |
	                                (mm->mdwe_no_inherit ? PR_MDWE_NO_INHERIT : 0);
	if ((bits & ~(uint64_t)(PR_MDWE_REFUSE_EXEC_GAIN | PR_MDWE_NO_INHERIT)) ||
	    ((bits & PR_MDWE_NO_INHERIT) && !(bits & PR_MDWE_REFUSE_EXEC_GAIN)))
		return sim_fail_by(mm, EINVAL, "PR_SET_MDWE: bits it does not take", R_W1_MDWE);
	if (now && now != bits)
		return sim_fail_by(mm, EPERM, "PR_SET_MDWE: set already, cannot be changed", R_W1_MDWE);
	mm->mdwe = bits & PR_MDWE_REFUSE_EXEC_GAIN;
	mm->mdwe_no_inherit = bits & PR_MDWE_NO_INHERIT;
	sim_rule(mm, "MDWE %s (%s)", mm->mdwe ? "on" : "off", sim_cite(mm, R_W1_MDWE, cite, sizeof cite));
	return 0;
}

/* prctl(PR_SET_MEMORY_MERGE, on): MMF_VM_MERGE_ANY; every eligible VMA
 * gets VM_MERGEABLE in place (ksm_add_vmas: no merge, no split), off
 * clears it from all (ksm_del_vmas) */
int64_t sim_do_memory_merge(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	char cite[64];

	*changed = false;
	if (!sim_has(mm->prof, R_K1_KSM_ANY))
		return sim_fail_by(mm, EINVAL, "PR_SET_MEMORY_MERGE: not in this release", R_K1_KSM_ANY);
	if (c->err)
		return as_recorded(mm, c, "PR_SET_MEMORY_MERGE");
	mm->ksm_any = c->a[1] != 0;
	for (size_t i = 0; i < mm->tree.count; i++) {
		struct sim_vma *v = sim_tree_at(&mm->tree, i);
		uint64_t f = mm->ksm_any ? v->flags | (v->special ? 0 : sim_ksm_flags(mm, v->flags))
		                         : v->flags & ~VM_MERGEABLE;
		*changed |= f != v->flags;
		v->flags = f;
	}
	sim_rule(mm, "VM_MERGEABLE %s every VMA in place (%s)", mm->ksm_any ? "on" : "off",
	         sim_cite(mm, R_K1_KSM_ANY, cite, sizeof cite));
	return 0;
}

/* process_madvise(pidfd, iovec, n, advice, flags): each range advised as
 * madvise would, in the mm it is given (the driver gives the pidfd's
 * process's, format 6's RANGES target); the result is the bytes advised.
 * Another process's, and before R1 the caller's own too, take only the
 * advice process_madvise_remote_valid lists. */
static bool remote_advice(uint64_t advice)
{
	return advice == MADV_COLD || advice == MADV_PAGEOUT || advice == MADV_WILLNEED ||
	       advice == MADV_COLLAPSE;
}

int64_t sim_do_process_madvise(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	const struct vmt_ranges *r = c->ranges;
	int64_t done = 0, e;
	bool ch;
	char cite[64];

	*changed = false;
	if (c->err && c->err != EINVAL)
		return as_recorded(mm, c, "process_madvise");   /* the pidfd, the privilege */
	if (c->a[4])
		return sim_fail(mm, EINVAL, "process_madvise: flags");
	bool remote = r && r->target > 0 && r->target != c->pid;
	if ((remote || !sim_has(mm->prof, R_R1_PMADV_SELF)) && !remote_advice(c->a[3]))
		return sim_fail_by(mm, EINVAL, remote ? "process_madvise: advice another process does not take"
		                                      : "process_madvise: advice not taken before 6.13",
		                   R_R1_PMADV_SELF);
	if (c->err)
		return as_recorded(mm, c, "process_madvise");
	if (!r)
		return sim_fail(mm, EFAULT, "process_madvise: no RANGES record for the call");
	for (uint32_t i = 0; i < r->n; i++) {
		if (!r->ranges[i].len)
			continue;   /* the iovec iterator skips it: no advice is checked */
		struct sim_call one = { .a = { r->ranges[i].start, r->ranges[i].len, c->a[3] } };
		if ((e = sim_do_madvise(mm, &one, &ch)) < 0)
			return done ? done : e;
		*changed |= ch;
		done += (int64_t)r->ranges[i].len;
	}
	if (remote)
		sim_rule(mm, "process_madvise in the pidfd's process (%s)", sim_cite(mm, R_R1_PMADV_SELF, cite, sizeof cite));
	return done;
}

/* remap_file_pages(start, size, prot, pgoff, flags): the shared file VMA
 * at start mapped again at pgoff (do_mmap MAP_SHARED|MAP_FIXED): a split
 * where pgoff is not the linear one */
int64_t sim_do_remap_file_pages(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[0], size = PAGE_ALIGN(c->a[1]);
	struct sim_vma *v = sim_tree_find(&mm->tree, start);
	struct sim_call m = { 0 };

	*changed = false;
	if (c->err)
		return as_recorded(mm, c, "remap_file_pages");
	if (c->a[2] || !v || v->start > start || !(v->flags & VM_SHARED) || !v->file_id || start + size > v->end)
		return sim_fail(mm, EINVAL, "remap_file_pages: not inside one shared file VMA, or prot");
	if (c->a[3] == v->pgoff + (start - v->start) / SIM_PAGE)
		return 0;   /* the linear offset already */
	m.a[0] = start;
	m.a[1] = size;
	m.a[2] = (v->flags & VM_READ ? PROT_READ : 0) | (v->flags & VM_WRITE ? PROT_WRITE : 0) |
	         (v->flags & VM_EXEC ? PROT_EXEC : 0);
	m.a[3] = MAP_SHARED | MAP_FIXED | (v->flags & VM_LOCKED ? MAP_LOCKED : 0);
	m.a[4] = (uint64_t)-1;
	m.a[5] = c->a[3] * SIM_PAGE;
	m.file_id = v->file_id;
	return sim_do_mmap(mm, &m, changed) < 0 ? -EINVAL : 0;
}

/* map_shadow_stack(addr, size, flags): a private VMA, readable, with
 * VM_SHADOW_STACK and VM_WRITE (only shadow-stack instructions write it),
 * at addr (MAP_FIXED_NOREPLACE) or placed; ENOSYS without the CPU
 * feature, as recorded */
int64_t sim_do_map_shadow_stack(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	struct sim_call m = { .a = { c->a[0], c->a[1], PROT_READ,
	                             MAP_PRIVATE | MAP_ANONYMOUS | (c->a[0] ? MAP_FIXED_NOREPLACE : 0),
	                             (uint64_t)-1, 0 } };
	struct sim_vma *v;
	int64_t r;
	int err = 0;
	char cite[64];

	*changed = false;
	if (!sim_has(mm->prof, R_S1_SHADOW_STACK))
		return sim_fail_by(mm, ENOSYS, "map_shadow_stack: not in this release", R_S1_SHADOW_STACK);
	if (c->err)
		return as_recorded(mm, c, "map_shadow_stack");
	if ((r = sim_do_mmap(mm, &m, changed)) < 0)
		return r;
	if (!(v = sim_tree_find(&mm->tree, (uint64_t)r)) ||
	    !sim_modify(mm, v, (uint64_t)r, (uint64_t)r + PAGE_ALIGN(c->a[1]),
	                v->flags | VM_SHADOW_STACK | VM_WRITE | VM_ACCOUNT, &err))
		return err ? err : -ENOMEM;
	sim_rule(mm, "a shadow stack VMA (%s)", sim_cite(mm, R_S1_SHADOW_STACK, cite, sizeof cite));
	return r;
}
