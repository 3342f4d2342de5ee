/* vmreport_checks.h - what a column's own numbers say about whether it can
 * be compared at all: did its replay do what the recording did (fidelity),
 * and were its runs alike from the first to the last (drift; the test
 * assumes independent runs). */
#ifndef VMREC_VMREPORT_CHECKS_H
#define VMREC_VMREPORT_CHECKS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/vmreport_results.h"

enum rep_fidelity {
	REP_FAITHFUL,        /* every checkpoint matched, every call returned what it did when recorded */
	REP_UNFAITHFUL,      /* the replay did something else: its VMA and merge rows are not comparable */
	REP_OTHER_LAYOUT,    /* checkpoints differ, every call as recorded, on another kernel than the
	                        recording's: that kernel lays VMAs out differently, which is the news */
};

struct rep_drift {
	const char *metric;  /* the metric that moved most against its spread; NULL: no drift */
	double first, last;  /* its means over the first and the last half of the runs */
	double spread_pct;   /* its stddev, % of its mean */
	size_t half;         /* runs in each half */
	size_t more;         /* other metrics that drift too */
};

struct rep_column {
	enum rep_fidelity fidelity;
	long long matched, total;     /* checkpoints in the run with the fewest matched; total -1: none */
	long long mismatches;         /* result mismatches, the most of any run */
	char recorded_kernel[80];     /* from the trace's header; "" when the trace is not at hand */
	struct rep_drift drift;
};

/* The fidelity half of C from R's metrics.  RECORDED: the kernel the trace
 * was recorded on ("" or NULL: not known), which decides whether a
 * checkpoint that differs, every call as recorded, is another kernel's
 * layout or the replay's fault. */
void rep_check_fidelity(const struct rep_results *r, const char *recorded, struct rep_column *c);
/* The kernel (uname -r) TRACE's header names; "" when it cannot be read. */
void rep_trace_kernel(const char *trace, char *out, size_t len);

/* Drift in one column: the first and the last half of its runs compared as
 * two columns are (Welch, Benjamini-Hochberg over the metrics given), and
 * the difference larger than the column's spread.  V[k], N[k]: the runs of
 * metric NAMES[k] in run order.  0, or -1 when out of memory. */
int rep_check_drift(const char *const *names, const double *const *v, const size_t *n,
		    size_t nmetrics, struct rep_drift *d);

#endif
