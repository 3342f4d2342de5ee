/* outcome.h - what one operation did to the VMA tree.  One vocabulary for
 * the kernel back end, the simulator and the reports; the names are the
 * strings written to results JSON ("expand_prev", ...). */
#ifndef VMREC_OUTCOME_H
#define VMREC_OUTCOME_H

#include <stddef.h>
#include <stdint.h>

enum vr_outcome {
	VR_NEW = 0,      /* a new VMA that merged with nothing */
	VR_EXPAND_PREV,  /* the range joined the VMA before it */
	VR_EXPAND_NEXT,  /* the range joined the VMA after it */
	VR_MERGE_BOTH,   /* prev, range and next became one VMA */
	VR_SPLIT,        /* a VMA was cut into more VMAs */
	VR_SHRINK,       /* a VMA lost its head or tail, count unchanged */
	VR_REMOVE,       /* whole VMAs went away */
	VR_MOVE,         /* mremap moved the range; it merged with neither neighbour there */
	VR_UNCHANGED,    /* no VMA changed (or the call changes none) */
	VR_FAILED,       /* the call failed (errno says why) */
	/* mremap: what the moved range did at its destination, and growth in
	 * place (a shrink in place is a shrink or split, as for munmap) */
	VR_MOVE_PREV,    /* moved and merged with the VMA before it */
	VR_MOVE_NEXT,    /* moved and merged with the VMA after it */
	VR_MOVE_BOTH,    /* moved, and prev, range and next became one */
	VR_GROW,         /* grown in place: its VMA reaches over the new tail */
	VR_GROW_NEXT,    /* grown in place up to the next VMA, and merged with it */
	VR_OUTCOME_COUNT
};

/* Every move, whatever it merged with: "move" in the merge totals (results
 * before the move_* kinds existed counted them all as move). */
static inline int vr_is_move(int o)
{
	return o == VR_MOVE || o == VR_MOVE_PREV || o == VR_MOVE_NEXT || o == VR_MOVE_BOTH;
}

/* What a back end reports for one replayed operation. */
struct vr_result {
	int64_t ret;          /* raw result, in replay addresses */
	int err;              /* errno, 0 on success */
	int outcome;          /* enum vr_outcome */
	int64_t vma_count;    /* VMAs of the address space after the call; -1 unknown */
	uint64_t latency_ns;  /* 0 where not measured (the simulator) */
	const char *rule;     /* simulator: the rule that decided it, or NULL */
};

static inline const char *vr_outcome_name(int o)
{
	static const char *const names[VR_OUTCOME_COUNT] = {
		"new", "expand_prev", "expand_next", "merge_both", "split",
		"shrink", "remove", "move", "unchanged", "failed",
		"move_prev", "move_next", "move_both", "grow", "grow_next",
	};
	return o >= 0 && o < VR_OUTCOME_COUNT ? names[o] : "?";
}

/* The VMAs a back end saw around a call's range, in address order: how
 * many there were and the [start, end) of the first `stored` of them. */
struct vr_ranges {
	size_t n;
	size_t stored;
	const uint64_t (*r)[2];
};

/* What a call did to its range [lo, hi), and the VMAs seen around it.
 * CREATE (a new range): `after` holds the VMA covering lo afterwards, or
 * none.  REMOVE: `before` holds the VMAs the range intersected.  MODIFY (a
 * change in place): the VMAs touching the range before and after.  MOVE
 * (mremap's destination) and GROW (mremap's new tail in place) are read
 * as CREATE and named as moves and growths. */
enum vr_change_kind { VR_CH_CREATE, VR_CH_REMOVE, VR_CH_MODIFY, VR_CH_MOVE, VR_CH_GROW };
struct vr_change {
	int kind;
	uint64_t lo, hi;
	struct vr_ranges before, after;
};

/* The outcome of a change: the one definition both back ends use
 * (lib/outcome.c).  *why, where why is not NULL: what decided an outcome
 * that is not plain from the ranges, or NULL. */
int vr_classify(const struct vr_change *c, const char **why);

#endif
