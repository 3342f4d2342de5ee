/* vmreport_checks.c - fidelity and drift of one column. */
#include "analysis/vmreport_checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/vmreport_stats.h"
#include "lib/kernel_match.h"
#include "vmt.h"

/* The smallest (LOWEST) or largest value of a metric over the runs; -1
 * when the file lacks it. */
static long long extreme(const struct rep_results *r, const char *name, bool lowest, size_t *at)
{
	const struct rep_metric *m = rep_metric_find(r, name);
	long long best = -1;
	for (size_t k = 0; m && k < m->n; k++) {
		long long v = (long long)m->v[k];
		if (best < 0 || (lowest ? v < best : v > best)) {
			best = v;
			if (at)
				*at = k;
		}
	}
	return best;
}

void rep_trace_kernel(const char *trace, char *out, size_t len)
{
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_FILE };
	int err = 0;
	struct vmt_reader *rd = vmt_reader_open(trace, &prefs, &err);
	out[0] = 0;
	if (!rd)
		return;
	const struct vmt_header *h = vmt_reader_header(rd);
	if (h)
		snprintf(out, len, "%s", h->host.kernel);
	vmt_reader_close(rd);
}

/* The replay ran on the kernel the trace was recorded on (one rule with
 * vmreplay's --strict: lib/kernel_match.h). */
static bool same_kernel(const struct rep_results *r, const char *recorded)
{
	return km_same_kernel(r->sim, r->kernel, json_get_str(r->host, "kernel"), recorded);
}

void rep_check_fidelity(const struct rep_results *r, const char *recorded, struct rep_column *c)
{
	size_t at = 0;
	const struct rep_metric *tot = rep_metric_find(r, "vmreplay.fidelity.checkpoints_total");
	c->fidelity = REP_FAITHFUL;
	snprintf(c->recorded_kernel, sizeof(c->recorded_kernel), "%s", recorded ? recorded : "");
	c->matched = extreme(r, "vmreplay.fidelity.checkpoints_matched", true, &at);
	c->total = tot && at < tot->n ? (long long)tot->v[at] : -1;
	c->mismatches = extreme(r, "vmreplay.fidelity.result_mismatches", false, NULL);
	bool checkpoints_differ = c->matched >= 0 && c->total >= 0 && c->matched < c->total;
	if (c->mismatches > 0)
		c->fidelity = REP_UNFAITHFUL;
	else if (checkpoints_differ)
		c->fidelity = c->recorded_kernel[0] && !same_kernel(r, c->recorded_kernel)
			      ? REP_OTHER_LAYOUT : REP_UNFAITHFUL;
}

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	for (size_t k = 0; k < n; k++)
		s += v[k];
	return s / (double)n;
}

int rep_check_drift(const char *const *names, const double *const *v, const size_t *n,
		    size_t nmetrics, struct rep_drift *d)
{
	memset(d, 0, sizeof(*d));
	double *p = calloc(nmetrics ? nmetrics : 1, sizeof(*p));
	double *q = malloc((nmetrics ? nmetrics : 1) * sizeof(*q));
	size_t *which = malloc((nmetrics ? nmetrics : 1) * sizeof(*which));
	size_t tested = 0;
	if (!p || !q || !which) {
		free(p);
		free(q);
		free(which);
		return -1;
	}
	for (size_t k = 0; k < nmetrics; k++) {
		size_t h = n[k] / 2;
		struct rep_summary a, b;
		struct rep_welch w = { 0 };
		if (h < 2)
			continue;
		rep_summarize(v[k], h, &a);
		rep_summarize(v[k] + n[k] - h, h, &b);
		if (!rep_welch_test(&a, &b, &w) || a.var + b.var == 0)
			continue;
		p[tested] = w.p;
		which[tested++] = k;
	}
	int rc = rep_bh_adjust(p, tested, q);
	double worst = 0;
	for (size_t j = 0; !rc && j < tested; j++) {
		size_t k = which[j], h = n[k] / 2;
		struct rep_summary all;
		rep_summarize(v[k], n[k], &all);
		double first = mean_of(v[k], h), last = mean_of(v[k] + n[k] - h, h);
		double moved = fabs(last - first) / all.stddev;
		if (q[j] > REP_FDR || moved <= 1)
			continue;
		if (d->metric)
			d->more++;
		if (moved > worst) {
			worst = moved;
			d->metric = names[k];
			d->first = first;
			d->last = last;
			d->spread_pct = all.stddev_pct;
			d->half = h;
		}
	}
	free(p);
	free(q);
	free(which);
	return rc;
}
