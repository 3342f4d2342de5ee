/* vmreport_explain.h - --explain: the first events where two replays of
 * one trace part ways (merge outcome, VMA count or, in the simulator,
 * modelled cost), and for a cost the rule behind it. */
#ifndef VMREC_VMREPORT_EXPLAIN_H
#define VMREC_VMREPORT_EXPLAIN_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/json.h"
#include "analysis/vmreport_compare.h"

/* Events differ when their merge outcomes differ or they change the VMA
 * count of their process by different amounts: once one event adds a VMA
 * the other did not, every later count differs too, and those later
 * events are not news.  With the simulator's per-event cost on both sides
 * they also differ when their modelled costs do.  One differing event;
 * either side is NULL when only the other has it. */
struct rep_divergence {
	const struct rep_event *base, *other;
	long long dbase, dother;       /* VMAs each added (negative: removed); REP_NO_DELTA */
	bool cost_differs;
	bool layout_differs;           /* in outcome or VMAs added, or only one side has it */
	/* the rules behind a cost difference: those that this event, or else
	 * the nearest earlier one whose cited rules differ, cites on one side
	 * only (vmreport_explain.c) */
	const struct rep_event *why_base, *why_other;
};
#define REP_NO_DELTA LLONG_MIN

struct rep_explain {
	const char *problem;           /* why no comparison was made, or NULL */
	size_t compared;               /* events seen on either side */
	size_t differ;                 /* differ in outcome or in the VMAs they add or remove */
	size_t count_differs;          /* end with another VMA count (a difference carries on) */
	bool costs;                    /* both sides have per-event modelled costs */
	size_t cost_differs;           /* differ in modelled cost */
	struct rep_divergence *first;  /* up to the --explain count */
	size_t nfirst;
	struct rep_arena arena;        /* their events, copied */
};

/* Compares input I against the first.  0, or -1 when out of memory. */
int rep_explain_pair(const struct rep_table *t, size_t i, struct rep_explain *e);
/* The same walk, handing FN every event where input I differs from the
 * first, in event order (the plots mark them).  False when the two cannot
 * be compared event by event (see rep_explain.problem). */
typedef void rep_divergence_fn(const struct rep_divergence *d, void *arg);
bool rep_explain_each(const struct rep_table *t, size_t i, rep_divergence_fn *fn, void *arg);
void rep_explain_free(struct rep_explain *e);

void rep_explain_text(FILE *f, const struct rep_table *t, bool markdown);
void rep_explain_json(struct json_w *w, const struct rep_table *t);

#endif
