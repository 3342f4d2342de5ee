/* outcome.c - the outcome of a call from the VMA ranges around it, defined
 * once for the kernel back end and the simulator. */
#include <stdbool.h>
#include "lib/outcome.h"

static bool has_boundary(const struct vr_ranges *s, uint64_t x)
{
	for (size_t i = 0; i < s->stored; i++)
		if (s->r[i][0] == x || s->r[i][1] == x)
			return true;
	return false;
}

static bool same_ranges(const struct vr_ranges *a, const struct vr_ranges *b)
{
	if (a->n != b->n || a->stored != b->stored)
		return false;
	for (size_t i = 0; i < a->stored; i++)
		if (a->r[i][0] != b->r[i][0] || a->r[i][1] != b->r[i][1])
			return false;
	return true;
}

static int created(const struct vr_change *c)
{
	for (size_t i = 0; i < c->after.stored; i++) {
		const uint64_t *v = c->after.r[i];
		if (v[0] <= c->lo && c->lo < v[1]) {
			bool left = v[0] < c->lo, right = v[1] > c->hi;
			return left && right ? VR_MERGE_BOTH : left ? VR_EXPAND_PREV :
			       right ? VR_EXPAND_NEXT : VR_NEW;
		}
	}
	return VR_UNCHANGED;
}

static int removed(const struct vr_change *c)
{
	int whole = 0, partial = 0;

	for (size_t i = 0; i < c->before.stored; i++) {
		uint64_t s = c->before.r[i][0], e = c->before.r[i][1];
		if (s >= c->hi || e <= c->lo)
			continue;
		if (s < c->lo && e > c->hi)
			return VR_SPLIT;
		if (s >= c->lo && e <= c->hi)
			whole++;
		else
			partial++;
	}
	return whole ? VR_REMOVE : partial ? VR_SHRINK : VR_UNCHANGED;
}

static int modified(const struct vr_change *c, const char **why)
{
	const struct vr_ranges *b = &c->before, *a = &c->after;

	if (same_ranges(b, a))
		return VR_UNCHANGED;
	bool merged_l = has_boundary(b, c->lo) && !has_boundary(a, c->lo);
	bool merged_r = has_boundary(b, c->hi) && !has_boundary(a, c->hi);
	if (merged_l && merged_r)
		return VR_MERGE_BOTH;
	if (merged_l)
		return VR_EXPAND_PREV;
	if (merged_r)
		return VR_EXPAND_NEXT;
	if (a->n > b->n) {
		*why = "outcome split: more VMAs than before";
		return VR_SPLIT;
	}
	if ((!has_boundary(b, c->lo) && has_boundary(a, c->lo)) ||
	    (!has_boundary(b, c->hi) && has_boundary(a, c->hi))) {
		*why = "outcome split: a VMA was cut at an end of the range";
		return VR_SPLIT;
	}
	if (a->n < b->n) {
		*why = "outcome merge_both: VMAs inside the range merged";
		return VR_MERGE_BOTH;
	}
	return VR_UNCHANGED;
}

int vr_classify(const struct vr_change *c, const char **why)
{
	const char *dummy;
	if (!why)
		why = &dummy;
	*why = NULL;
	static const int moved[] = {
		[VR_NEW] = VR_MOVE, [VR_EXPAND_PREV] = VR_MOVE_PREV, [VR_EXPAND_NEXT] = VR_MOVE_NEXT,
		[VR_MERGE_BOTH] = VR_MOVE_BOTH, [VR_UNCHANGED] = VR_MOVE,
	};
	/* the tail joins its own VMA (prev); with the next one too: both */
	static const int grown[] = {
		[VR_NEW] = VR_GROW, [VR_EXPAND_PREV] = VR_GROW, [VR_EXPAND_NEXT] = VR_GROW_NEXT,
		[VR_MERGE_BOTH] = VR_GROW_NEXT, [VR_UNCHANGED] = VR_GROW,
	};
	switch (c->kind) {
	case VR_CH_CREATE: return created(c);
	case VR_CH_MOVE: return moved[created(c)];
	case VR_CH_GROW: return grown[created(c)];
	case VR_CH_REMOVE: return removed(c);
	case VR_CH_MODIFY: return modified(c, why);
	}
	return VR_UNCHANGED;
}
