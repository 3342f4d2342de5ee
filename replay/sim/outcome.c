/* outcome.c - a call's outcome from the VMAs around its range, defined as
 * the kernel back end defines it (replay/kernel.c, rp_derive_outcome), so
 * both back ends name the same change the same way.  Keep the two in step. */
#include "replay/sim/sim_int.h"

static size_t stored(const struct sim_snap *s)
{
	return s->n < SIM_SNAP_MAX ? s->n : SIM_SNAP_MAX;
}

static bool has_boundary(const struct sim_snap *s, uint64_t x)
{
	for (size_t i = 0; i < stored(s); i++)
		if (s->r[i][0] == x || s->r[i][1] == x)
			return true;
	return false;
}

static bool same_ranges(const struct sim_snap *a, const struct sim_snap *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < stored(a); i++)
		if (a->r[i][0] != b->r[i][0] || a->r[i][1] != b->r[i][1])
			return false;
	return true;
}

int sim_outcome_create(const struct sim_mm *mm, uint64_t lo, uint64_t hi)
{
	const struct sim_vma *v = tree_find(&mm->tree, lo);

	if (!v || v->start > lo)
		return VR_UNCHANGED;
	bool left = v->start < lo, right = v->end > hi;
	return left && right ? VR_MERGE_BOTH : left ? VR_EXPAND_PREV :
	       right ? VR_EXPAND_NEXT : VR_NEW;
}

int sim_outcome_remove(const struct sim_snap *before, uint64_t lo, uint64_t hi)
{
	int whole = 0, partial = 0;

	for (size_t i = 0; i < stored(before); i++) {
		uint64_t s = before->r[i][0], e = before->r[i][1];
		if (s >= hi || e <= lo)
			continue;
		if (s < lo && e > hi)
			return VR_SPLIT;
		if (s >= lo && e <= hi)
			whole++;
		else
			partial++;
	}
	return whole ? VR_REMOVE : partial ? VR_SHRINK : VR_UNCHANGED;
}

int sim_outcome_modify(const struct sim_snap *before, const struct sim_snap *after,
                       uint64_t lo, uint64_t hi, const char **why)
{
	*why = NULL;
	if (same_ranges(before, after))
		return VR_UNCHANGED;
	bool merged_l = has_boundary(before, lo) && !has_boundary(after, lo);
	bool merged_r = has_boundary(before, hi) && !has_boundary(after, hi);
	if (merged_l && merged_r)
		return VR_MERGE_BOTH;
	if (merged_l)
		return VR_EXPAND_PREV;
	if (merged_r)
		return VR_EXPAND_NEXT;
	if (after->n > before->n) {
		*why = "outcome split: more VMAs than before";
		return VR_SPLIT;
	}
	if ((!has_boundary(before, lo) && has_boundary(after, lo)) ||
	    (!has_boundary(before, hi) && has_boundary(after, hi))) {
		*why = "outcome split: a VMA was cut at an end of the range";
		return VR_SPLIT;
	}
	if (after->n < before->n) {
		*why = "outcome merge_both: VMAs inside the range merged";
		return VR_MERGE_BOTH;
	}
	return VR_UNCHANGED;
}
