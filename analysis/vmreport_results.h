/* vmreport_results.h - one results file written by `vmreplay --json`,
 * loaded and checked against the schema (docs/results-schema.md). */
#ifndef VMREC_VMREPORT_RESULTS_H
#define VMREC_VMREPORT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/json.h"
#include "analysis/vmreport_events.h"
#include "analysis/vmreport_names.h"

#define REP_SCHEMA_VERSION 1

struct rep_metric {
	const char *name;
	double *v;        /* one value per run (nulls dropped) */
	size_t n;
};

struct rep_results {
	const char *path;
	json_t *doc;                     /* all but per_event; strings below point into it */
	const char *trace, *target, *kernel, *vm, *command;
	/* the command that recreates this file on the machine reading it:
	 * "reproduce" (vmreplay --vm writes it: "command" is then the
	 * guest's), else "command" unless the file came from a guest; NULL
	 * when there is none */
	const char *reproduce;
	const json_t *host;              /* object or NULL */
	bool sim;                        /* target "sim" */
	bool incomplete;                 /* "complete": false - the replay was not whole */
	const char *incomplete_reason;   /* why ("incomplete_reason"), or NULL */
	struct rep_metric *metrics;
	size_t nmetrics;
	struct rep_names index;          /* metric name -> metrics[]; the first of a repeated name */
	/* per_event: checked as it is read, kept on disk (rep_cursor reads
	 * it back in event order) when the caller asked for the rows */
	struct rep_spill spill;
	size_t nevents;
	struct rep_arena arena;          /* the words */
	const char **words;              /* each op, outcome, rule and model name once */
	size_t nwords;
	struct rep_names word_index;
	bool has_events;                 /* a per_event array (even when not kept) */
	bool has_model;                  /* some event has "model" */
	size_t runs;                     /* "runs", or the most values any metric has */
};

/* Loads PATH into R, its per_event rows only checked unless KEEP_EVENTS
 * (--explain and the plots walk them).  0 on success; -1 with a one-line
 * message (without the file name) in ERR. */
int rep_results_load(const char *path, struct rep_results *r, bool keep_events,
		     char *err, size_t errlen);
void rep_results_free(struct rep_results *r);
const struct rep_metric *rep_metric_find(const struct rep_results *r, const char *name);
/* The trace file name without its directory: results of one trace made on
 * different machines carry different paths. */
const char *rep_trace_name(const struct rep_results *r);

#endif
