/* vmreport_compare.h - the comparison every output format prints: one row
 * per metric, one cell per results file, each against the first. */
#ifndef VMREC_VMREPORT_COMPARE_H
#define VMREC_VMREPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/vmreport_checks.h"
#include "analysis/vmreport_names.h"
#include "analysis/vmreport_results.h"
#include "analysis/vmreport_stats.h"

enum rep_direction { REP_NEUTRAL, REP_HIGHER_BETTER, REP_LOWER_BETTER };
enum rep_verdict { REP_SAME, REP_IMPROVEMENT, REP_REGRESSION, REP_CHANGED };

/* What a metric measures, which decides how it is compared. */
enum rep_kind {
	REP_KIND_TIMING,   /* a clock: noisy, meaningless under emulation */
	REP_KIND_COUNT,    /* VMAs, outcomes, calls: usually the same in every run */
	REP_KIND_REPLAY,   /* how the replay went (fidelity, skipped events): never a verdict */
};

enum rep_cell_state {
	REP_CELL_OK,
	REP_CELL_MISSING,      /* the file lacks a metric another file has */
	REP_CELL_NOT_MEASURED, /* timings of a simulator run: there are none */
};

/* Why a cell is not compared with the first column. */
enum rep_nc {
	REP_NC_NONE,
	REP_NC_EMULATED,       /* a timing, and a side ran in an emulated guest */
	REP_NC_FIDELITY,       /* a VMA or merge row, and a side's replay did not match its recording */
};

enum rep_test {
	REP_TEST_NONE,         /* nothing to test: the first column, a REPLAY row, too few runs, ... */
	REP_TEST_EXACT,        /* no variance on either side: any difference counts */
	REP_TEST_WELCH,
};

struct rep_cell {
	enum rep_cell_state state;
	const struct rep_metric *metric;
	struct rep_summary s;
	bool comparable;       /* false: see nc */
	enum rep_nc nc;
	bool has_change;       /* %change against the first file is defined */
	double change_pct;
	double delta;          /* mean minus the first column's mean */
	enum rep_test test;
	bool has_welch;
	struct rep_welch welch;
	double q;              /* Welch's p adjusted over the table (Benjamini-Hochberg) */
	bool significant;      /* flagged: an exact difference, or q <= REP_FDR and the minimum effect */
	bool exact;            /* flagged by the exact comparison */
	enum rep_verdict verdict;
};

struct rep_row {
	const char *name;
	enum rep_direction direction;
	enum rep_kind kind;
	bool timing;               /* kind == REP_KIND_TIMING */
	bool layout;               /* a VMA or merge row: what a replay's fidelity decides */
	bool headline, shown;
	bool identical;            /* every column has the same mean */
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
	const char *trace;         /* --trace=TRACE: the trace of that name is there */
	const char *const *labels;
};

struct rep_table {
	struct rep_results *in;
	size_t nin;
	const char **labels;       /* one per input */
	char **owned_labels;
	struct rep_column *cols;   /* one per input: fidelity and drift */
	struct rep_row *rows;
	size_t nrows, nshown;
	size_t nidentical, nalone;  /* rows folded: the same in every column; measured in fewer than two */
	size_t ntested;            /* cells Welch-tested: what q is adjusted for */
	struct rep_names index;    /* row name -> rows[] */
	bool any_vm;
	const struct rep_options *opt;
};

int rep_table_build(struct rep_table *t, struct rep_results *in, size_t nin,
		    const struct rep_options *opt);
void rep_table_free(struct rep_table *t);

const char *rep_verdict_name(enum rep_verdict v);
const char *rep_direction_name(enum rep_direction d);
const char *rep_kind_name(enum rep_kind k);
const char *rep_test_name(enum rep_test t);
/* The minimum effect (% of the first column's mean) of a row's kind. */
double rep_min_effect_pct(const struct rep_row *row);
/* The trace the table's results were replayed from: --trace=TRACE when it
 * has their trace's name, else the first an input names that exists (as
 * given, or beside its results file), else the first named (for a note);
 * NULL when none is named.  BUF may hold the answer. */
const char *rep_table_trace(const struct rep_table *t, char *buf, size_t len);
/* What the metric NAME measures, which decides how it is compared. */
enum rep_kind rep_metric_kind(const char *name);
/* A side of the comparison ran in an emulated guest: its timings say nothing. */
bool rep_emulated(const struct rep_results *r);

#endif
