/* vmreport_stats.c - summary statistics, Welch's t-test, Benjamini-Hochberg. */
#include "analysis/vmreport_stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rep_summarize(const double *v, size_t n, struct rep_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	double sum = 0;
	s->min = s->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = sum / n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = sqrt(ss / n);
	s->var = n > 1 ? ss / (n - 1) : 0;
	s->stddev_pct = s->mean != 0 ? 100 * s->stddev / fabs(s->mean) : 0;
}

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

int rep_bh_adjust(const double *p, size_t n, double *q)
{
	if (!n)
		return 0;
	struct ranked *r = malloc(n * sizeof(*r));
	if (!r)
		return -1;
	for (size_t k = 0; k < n; k++)
		r[k] = (struct ranked){ p[k], k };
	qsort(r, n, sizeof(*r), by_p);
	double run = 1;	/* the minimum from the largest p down */
	for (size_t k = n; k-- > 0;) {
		double v = r[k].p * (double)n / (double)(k + 1);
		if (v < run)
			run = v;
		q[r[k].i] = run;
	}
	free(r);
	return 0;
}

/* Continued fraction for I_x(a, b) (modified Lentz), valid for
 * x < (a + 1) / (a + b + 2); the caller uses the symmetry otherwise. */
static double incbeta_cf(double x, double a, double b)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double f = d;
	for (int m = 1; m <= 300; m++) {
		for (int odd = 0; odd < 2; odd++) {
			double num = odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
					 : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
			d = 1 + num * d;
			if (fabs(d) < tiny)
				d = tiny;
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1 / d;
			f *= c * d;
			if (odd && fabs(c * d - 1) < 1e-15)
				return f;
		}
	}
	return f;
}

double rep_incbeta(double x, double a, double b)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * incbeta_cf(x, a, b) / a;
	return 1 - exp(lfront) * incbeta_cf(1 - x, b, a) / b;
}

double rep_student_t_cdf(double t, double df)
{
	if (isinf(t))
		return t > 0 ? 1 : 0;
	double tail = 0.5 * rep_incbeta(df / (df + t * t), df / 2, 0.5);
	return t > 0 ? 1 - tail : tail;
}

bool rep_welch_test(const struct rep_summary *a, const struct rep_summary *b,
		    struct rep_welch *w)
{
	if (a->n < 2 || b->n < 2)
		return false;
	double va = a->var / a->n, vb = b->var / b->n, se2 = va + vb;
	if (se2 == 0) {	/* every run equal on both sides */
		w->t = a->mean == b->mean ? 0 : copysign(INFINITY, b->mean - a->mean);
		w->df = a->n + b->n - 2;
		w->p = a->mean == b->mean ? 1 : 0;
		return true;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / ((va ? va * va / (a->n - 1) : 0) + (vb ? vb * vb / (b->n - 1) : 0));
	w->p = rep_incbeta(w->df / (w->df + w->t * w->t), w->df / 2, 0.5);
	return true;
}
