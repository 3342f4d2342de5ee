/* around.c - the public view of the model's VMAs: one by index, and those
 * around a range as the kernel back end queries them (replay/vmaquery.c),
 * for the driver and for the snapshots sim_apply derives outcomes from. */
#include <string.h>
#include "replay/sim/sim_int.h"

static void view(const struct sim_vma *v, struct sim_vma_view *out)
{
	out->start = v->start;
	out->end = v->end;
	out->pgoff = v->pgoff;
	out->vm_flags = v->flags;
	out->file_id = v->file_id >= SIM_SHMEM_ID ? 0 : v->file_id;
	out->anon_faulted = v->anon_vma != 0;
}

int sim_vma_at(const struct sim_mm *mm, size_t i, struct sim_vma_view *out)
{
	const struct sim_vma *v = mm ? sim_tree_at(&mm->tree, i) : NULL;

	if (!v && mm && mm->gate_vmas && i == mm->tree.count) {
		memset(out, 0, sizeof *out);
		out->start = mm->gate_start;
		out->end = mm->gate_end;
		out->vm_flags = VM_EXEC;
		return 0;
	}
	if (!v)
		return -1;
	view(v, out);
	return 0;
}

/* VMAs from the first with end > from while start < upto (or <= when
 * inclusive): n counted, the first max stored */
static size_t walk(const struct sim_mm *mm, uint64_t from, uint64_t upto, bool inclusive,
                   struct sim_vma_view *out, uint64_t (*ranges)[2], size_t max)
{
	size_t n = 0;

	if (!mm)
		return 0;
	for (const struct sim_vma *v = sim_tree_find(&mm->tree, from); v; v = sim_tree_next(&mm->tree, v)) {
		if (inclusive ? v->start > upto : v->start >= upto)
			break;
		if (n < max && out)
			view(v, &out[n]);
		else if (n < max) {
			ranges[n][0] = v->start;
			ranges[n][1] = v->end;
		}
		n++;
	}
	return n;
}

size_t sim_vmas_around(const struct sim_mm *mm, uint64_t lo, uint64_t hi,
                       struct sim_vma_view *out, size_t max)
{
	return walk(mm, lo ? lo - 1 : 0, hi, true, out, NULL, max);
}

size_t sim_vmas_intersecting(const struct sim_mm *mm, uint64_t lo, uint64_t hi,
                             struct sim_vma_view *out, size_t max)
{
	return lo < hi ? walk(mm, lo, hi, false, out, NULL, max) : 0;
}

void sim_snap_around(const struct sim_mm *mm, uint64_t lo, uint64_t hi, struct sim_snap *s)
{
	s->n = walk(mm, lo ? lo - 1 : 0, hi, true, NULL, s->r, SIM_SNAP_MAX);
}

void sim_snap_intersecting(const struct sim_mm *mm, uint64_t lo, uint64_t hi, struct sim_snap *s)
{
	s->n = lo < hi ? walk(mm, lo, hi, false, NULL, s->r, SIM_SNAP_MAX) : 0;
}
