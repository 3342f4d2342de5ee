/* vmreport_compare.h - the comparison every output format prints: one row
 * per metric, one cell per results file, each against the first. */
#ifndef VMREC_VMREPORT_COMPARE_H
#define VMREC_VMREPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/vmreport_results.h"
#include "analysis/vmreport_stats.h"

enum rep_direction { REP_NEUTRAL, REP_HIGHER_BETTER, REP_LOWER_BETTER };
enum rep_verdict { REP_SAME, REP_IMPROVEMENT, REP_REGRESSION, REP_CHANGED };

enum rep_cell_state {
	REP_CELL_OK,
	REP_CELL_MISSING,      /* the file lacks a metric another file has */
	REP_CELL_NOT_MEASURED, /* timings of a simulator run: there are none */
};

struct rep_cell {
	enum rep_cell_state state;
	const struct rep_metric *metric;
	struct rep_summary s;
	bool comparable;       /* false: timing metric and a side ran in a VM */
	bool has_change;       /* %change against the first file is defined */
	double change_pct;
	bool has_welch;
	struct rep_welch welch;
	bool significant;
	bool exact;            /* significant because both are simulator runs */
	enum rep_verdict verdict;
};

struct rep_row {
	const char *name;
	enum rep_direction direction;
	bool timing, headline, shown;
	struct rep_cell *cells;    /* one per input */
};

/* --explain's stacks: AUTO shows them when the trace has some; ON
 * (--stacks) also says when it has none; OFF (--no-stacks) reads no trace. */
enum rep_stacks_mode { REP_STACKS_AUTO, REP_STACKS_ON, REP_STACKS_OFF };

struct rep_options {
	bool all, ranges;
	bool any_trace;
	int explain;               /* events to show per comparison; 0: no --explain */
	enum rep_stacks_mode stacks;
	const char *stacks_trace;  /* --stacks=TRACE: read stacks there, not from the trace named */
	const char *const *labels;
};

struct rep_table {
	struct rep_results *in;
	size_t nin;
	const char **labels;       /* one per input */
	char **owned_labels;
	struct rep_row *rows;
	size_t nrows, nshown;
	struct rep_names index;    /* row name -> rows[] */
	bool any_vm;
	const struct rep_options *opt;
};

int rep_table_build(struct rep_table *t, struct rep_results *in, size_t nin,
		    const struct rep_options *opt);
void rep_table_free(struct rep_table *t);

const char *rep_verdict_name(enum rep_verdict v);
const char *rep_direction_name(enum rep_direction d);

#endif
