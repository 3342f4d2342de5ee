/* outcome.h - what one operation did to the VMA tree.  One vocabulary for
 * the kernel back end, the simulator and the reports; the names are the
 * strings written to results JSON ("expand_prev", ...). */
#ifndef VMREC_OUTCOME_H
#define VMREC_OUTCOME_H

#include <stdint.h>

enum vr_outcome {
	VR_NEW = 0,      /* a new VMA that merged with nothing */
	VR_EXPAND_PREV,  /* the range joined the VMA before it */
	VR_EXPAND_NEXT,  /* the range joined the VMA after it */
	VR_MERGE_BOTH,   /* prev, range and next became one VMA */
	VR_SPLIT,        /* a VMA was cut into more VMAs */
	VR_SHRINK,       /* a VMA lost its head or tail, count unchanged */
	VR_REMOVE,       /* whole VMAs went away */
	VR_MOVE,         /* mremap moved the range */
	VR_UNCHANGED,    /* no VMA changed (or the call changes none) */
	VR_FAILED,       /* the call failed (errno says why) */
	VR_OUTCOME_COUNT
};

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
	};
	return o >= 0 && o < VR_OUTCOME_COUNT ? names[o] : "?";
}

#endif
