/* vmtrace_top_results.h - the one thing `vmtrace top --by outcome=new`
 * needs from a vmreplay --per-event results file: which events (by index
 * in seq order) made a VMA that merged with nothing. */
#ifndef VMREC_VMTRACE_TOP_RESULTS_H
#define VMREC_VMTRACE_TOP_RESULTS_H

#include <stddef.h>
#include <stdint.h>

struct outcome_set {
	uint8_t *bits;   /* bit i: event i's outcome was "new" */
	uint64_t nbits;
	uint64_t entries; /* per_event entries read */
};

/* 0, or -1 with a one-line message in err ("R.json: no per_event array"). */
int outcome_set_load(struct outcome_set *set, const char *path, const char *outcome,
                     char *err, size_t errlen);
int outcome_set_has(const struct outcome_set *set, uint64_t i);
void outcome_set_free(struct outcome_set *set);

#endif
