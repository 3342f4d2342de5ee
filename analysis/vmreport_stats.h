/* vmreport_stats.h - the numbers behind a comparison: LKP's summary and
 * median-separation rule, and Welch's t-test. */
#ifndef VMREC_VMREPORT_STATS_H
#define VMREC_VMREPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct rep_summary {
	size_t n;
	double mean, stddev;   /* stddev: population sigma, as LKP prints it */
	double stddev_pct;     /* 100 * stddev / mean; 0 when mean is 0 */
	double min, max;
	double var;            /* sample variance (n - 1), for the t-test */
};

void rep_summarize(const double *v, size_t n, struct rep_summary *s);

/* LKP (lib/stats.rb): with at least 3 runs on one side, trim n/4 runs off
 * each end of both sides, then the runs separate when one side's minimum
 * is above the other's median and its median above the other's maximum;
 * and the medians differ by more than RATIO (1.01 perf, 1.05 others). */
bool rep_lkp_separated(const double *a, size_t na, const double *b, size_t nb, double ratio);

struct rep_welch {
	double t, df, p;       /* two-sided p-value */
};
/* false when either side has fewer than 2 runs. */
bool rep_welch_test(const struct rep_summary *a, const struct rep_summary *b,
		    struct rep_welch *w);

/* Student's t CDF with DF degrees of freedom; through the regularized
 * incomplete beta function I_x(a, b). */
double rep_student_t_cdf(double t, double df);
double rep_incbeta(double x, double a, double b);

#endif
