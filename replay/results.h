/* results.h - per-run aggregates of the replayed events, the text summary
 * and the results JSON (docs/results-schema.md). */
#ifndef VMREPLAY_RESULTS_H
#define VMREPLAY_RESULTS_H

#include <stdint.h>
#include <stdio.h>
#include "vmt.h"
#include "replay/engine.h"
#include "replay/fidelity.h"
#include "replay/latency.h"
#include "lib/outcome.h"

struct rp_run {
	struct lat_stats lat[VMT_SYS_COUNT];
	uint64_t outcomes[VR_OUTCOME_COUNT];
	uint64_t model[RP_MODEL_MAX];   /* the modelled kernel cost (backend.h), over loops */
	uint64_t ck_matched, ck_total, mismatches, skipped, unplaceable;
	uint64_t moved;        /* events at absolute low addresses issued elsewhere */
	int64_t vma_start, vma_final, vma_peak;
	uint64_t events, elapsed_ns, loops;
	struct rp_fid_diff *fdiffs;   /* the reported loop's differing VMAs (fidelity.h) */
	size_t nfdiffs;
	int64_t *ck_got;       /* the reported loop's count per checkpoint (rp_shared.ck) */
	char incomplete[256];  /* why a loop was not a whole replay (its first reason), "" */
};


void rp_run_reset(struct rp_run *r);
void rp_run_free(struct rp_run *r);
/* Add one replay of the trace (the shared results just written); `report`
 * keeps its checkpoints and their differing VMAs for rp_print_fidelity. */
void rp_run_add_loop(struct rp_run *r, const struct rp_engine *e, int report);
/* Each checkpoint of the reported loop whose count differs, with its
 * differences and verdict (blame.h) below it. */
void rp_print_fidelity(FILE *f, const struct rp_trace *t, const struct rp_run *r);

struct rp_report {
	const struct rp_trace *t;
	const struct rp_opts *o;
	const char *target, *kernel;    /* "kernel"/"sim"; uname -r or profile */
	uint64_t clock_cost;
	const struct rp_run *runs;
	int nruns;
	const struct rp_engine *e;      /* per-event results of the last loop */
};

/* Why the replay is not a whole replay of the whole trace, or NULL: the
 * trace was cut short, or a run was (rp_run's incomplete). */
const char *rp_incomplete_reason(const struct rp_report *rep);
void rp_print_summary(FILE *f, const struct rp_report *rep);
/* 0, or -1 with a message printed. */
int rp_write_json(const char *path, const struct rp_report *rep);

#endif
