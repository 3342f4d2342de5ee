/* vmreport_stats.h - the numbers behind a comparison: LKP's summary,
 * Welch's t-test and Benjamini-Hochberg's adjustment for many rows
 * (docs/reading-flags.md says why these). */
#ifndef VMREC_VMREPORT_STATS_H
#define VMREC_VMREPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The statistic of every report (docs/reading-flags.md): a column differs
 * from the first when Welch's t-test on the runs, its p-values adjusted
 * over every row and column tested (Benjamini-Hochberg), gives q <= REP_FDR
 * and the means differ by at least the minimum effect of the metric's kind.
 * Metrics with no variance in either column are compared exactly. */
#define REP_FDR 0.01
#define REP_MIN_EFFECT_TIMING_PCT 3.0  /* above the latency histogram's 3% buckets */
#define REP_MIN_EFFECT_COUNT_PCT 1.0

struct rep_summary {
	size_t n;
	double mean, stddev;   /* stddev: population sigma, as LKP prints it */
	double stddev_pct;     /* 100 * stddev / mean; 0 when mean is 0 */
	double min, max;
	double var;            /* sample variance (n - 1), for the t-test */
};

void rep_summarize(const double *v, size_t n, struct rep_summary *s);

struct rep_welch {
	double t, df, p;       /* two-sided p-value */
};
/* false when either side has fewer than 2 runs. */
bool rep_welch_test(const struct rep_summary *a, const struct rep_summary *b,
		    struct rep_welch *w);

/* Benjamini-Hochberg: Q[k] = min over the p-values P[j] >= P[k] of
 * P[j] * n / rank(j), at most 1.  Rejecting every Q[k] <= alpha keeps the
 * expected share of false flags among the flags at alpha or below (under
 * independence or positive dependence of the tests).  0, or -1 when out of
 * memory. */
int rep_bh_adjust(const double *p, size_t n, double *q);

/* Student's t CDF with DF degrees of freedom; through the regularized
 * incomplete beta function I_x(a, b). */
double rep_student_t_cdf(double t, double df);
double rep_incbeta(double x, double a, double b);

#endif
