/* place.c - get_unmapped_area: top-down search below mmap_base, address
 * hints, MAP_FIXED, and the per-release PMD alignment of anonymous maps. */
#include <errno.h>
#include <sys/mman.h>
#include "replay/sim/sim_int.h"

static uint64_t low_limit(const struct sim_mm *mm)
{
	return mm->mmap_min_addr > SIM_PAGE ? mm->mmap_min_addr : SIM_PAGE;
}

/* arch_get_unmapped_area_topdown (x86): a free hint wins, else the highest
 * gap below mmap_base.  0 when nothing fits. */
static uint64_t topdown(struct sim_mm *mm, uint64_t hint, uint64_t len, bool *hinted)
{
	*hinted = false;
	if (hint) {
		hint &= ~(SIM_PAGE - 1);
		if (hint <= SIM_TASK_SIZE - len) {
			struct sim_vma *v = sim_tree_find(&mm->tree, hint);
			if (!v || hint + len <= sim_start_gap(v)) {
				*hinted = true;
				return hint;
			}
		}
	}
	return sim_tree_gap_topdown(&mm->tree, len, low_limit(mm), mm->mmap_base);
}

/* __thp_get_unmapped_area for anonymous memory (file offset 0) */
static uint64_t thp_aligned(struct sim_mm *mm, uint64_t hint, uint64_t len)
{
	uint64_t ret, off_sub;
	bool hinted;

	if (len + SIM_PMD < len)
		return 0;
	ret = topdown(mm, hint, len + SIM_PMD, &hinted);
	if (!ret)
		return 0;
	if (hinted && ret == hint)
		return ret;
	off_sub = (0 - ret) & (SIM_PMD - 1);
	if (off_sub == 0 && sim_has(mm->prof, R_T3_THP_TOPDOWN))
		return ret + SIM_PMD;
	return ret + off_sub;
}

static bool thp_applies(struct sim_mm *mm, const struct sim_place *pl)
{
	char c[64];

	if (pl->file || pl->shared || !sim_has(mm->prof, R_T1_THP_ALIGN) || pl->len < SIM_PMD)
		return false;
	if (sim_has(mm->prof, R_T5_THP_MULTIPLE) && pl->len % SIM_PMD) {
		sim_rule(mm, "not PMD-aligned: length not a multiple of 2 MiB (%s)",
		         sim_cite(mm, R_T5_THP_MULTIPLE, c, sizeof c));
		return false;
	}
	if (sim_has(mm->prof, R_T6_THP_NO_HINT) && pl->addr) {
		sim_rule(mm, "not PMD-aligned: address hint given (%s)",
		         sim_cite(mm, R_T6_THP_NO_HINT, c, sizeof c));
		return false;
	}
	return true;
}

int64_t sim_get_unmapped_area(struct sim_mm *mm, const struct sim_place *pl)
{
	uint64_t len = pl->len, addr;
	bool hinted;
	char c[64];

	if (len > SIM_TASK_SIZE - mm->mmap_min_addr)
		return sim_fail(mm, ENOMEM, "length larger than the address space");
	if (pl->mflags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (pl->addr > SIM_TASK_SIZE - len)
			return sim_fail(mm, ENOMEM, "fixed range past TASK_SIZE");
		/* security_mmap_addr -> cap_mmap_addr: below mmap_min_addr only
		 * with CAP_SYS_RAWIO (no LSM of its own modelled) */
		if (pl->addr < mm->mmap_min_addr && !mm->cap_rawio) {
			sim_rule(mm, "refused: fixed address below mmap_min_addr (%#llx) without CAP_SYS_RAWIO (cap_mmap_addr)",
			         (unsigned long long)mm->mmap_min_addr);
			return -EPERM;
		}
		return (int64_t)pl->addr;
	}
	if (thp_applies(mm, pl)) {
		addr = thp_aligned(mm, pl->addr, len);
		if (addr) {
			if (addr == pl->addr)
				sim_rule(mm, "placed at the free hint");
			else
				sim_rule(mm, "placed PMD-aligned (%s)",
				         sim_cite(mm, R_T1_THP_ALIGN, c, sizeof c));
			return (int64_t)addr;
		}
	}
	addr = topdown(mm, pl->addr, len, &hinted);
	if (!addr)
		return sim_fail(mm, ENOMEM, "no free gap large enough below mmap_base");
	if (hinted)
		sim_rule(mm, "placed at the free hint");
	else if (pl->addr)
		sim_rule(mm, "hint taken: placed top-down below mmap_base");
	return (int64_t)addr;
}
