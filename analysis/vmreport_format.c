/* vmreport_format.c - number, label and host formatting. */
#include "analysis/vmreport_format.h"

#include <math.h>
#include <string.h>

void rep_fmt_value(char *buf, size_t len, double v)
{
	if (fabs(v) < 1000)
		snprintf(buf, len, "%.2f", v);
	else if (fabs(v) > 1e8)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.0f", v);
}

void rep_fmt_change(char *buf, size_t len, const struct rep_cell *c)
{
	buf[0] = 0;
	if (c->nc == REP_NC_EMULATED)
		snprintf(buf, len, "n/c");
	else if (c->has_change)
		snprintf(buf, len, "%+.1f%%", c->change_pct);
	else if (c->state == REP_CELL_OK && c->s.n)
		snprintf(buf, len, "%sinf%%", c->s.mean > 0 ? "+" : "-");
}

void rep_fmt_p(char *buf, size_t len, const struct rep_cell *c)
{
	char v[48];
	buf[0] = 0;
	if (c->test == REP_TEST_EXACT && c->delta != 0) {
		if (c->delta == floor(c->delta))
			snprintf(buf, len, "%+.0f", c->delta);
		else {
			rep_fmt_value(v, sizeof(v), fabs(c->delta));
			snprintf(buf, len, "%c%s", c->delta > 0 ? '+' : '-', v);
		}
	} else if (c->test == REP_TEST_WELCH && c->q < 0.001) {
		snprintf(buf, len, "q<0.001");
	} else if (c->test == REP_TEST_WELCH) {
		snprintf(buf, len, "q=%.3f", c->q);
	}
}

void rep_fmt_flag(char *buf, size_t len, const struct rep_cell *c)
{
	char p[48];
	buf[0] = 0;
	if (c->nc == REP_NC_FIDELITY) {
		snprintf(buf, len, "not comparable");
	} else if (c->significant) {
		rep_fmt_p(p, sizeof(p), c);
		snprintf(buf, len, "%s%s%s", rep_verdict_name(c->verdict), p[0] ? " " : "", p);
	}
}

void rep_fmt_statistic(char *buf, size_t len, const struct rep_table *t)
{
	char tested[64] = "";
	if (t->ntested)
		snprintf(tested, sizeof(tested), " for the %zu comparison%s tested", t->ntested,
			 t->ntested == 1 ? "" : "s");
	snprintf(buf, len, "statistic: %%change of the means.  Flagged when Welch's t-test on the "
		 "runs gives q <= %.2f (its p adjusted%s, Benjamini-Hochberg) and the change is at "
		 "least %.0f%% (timings) or %.0f%% (counts); a metric that does not vary in either "
		 "column is compared exactly: any difference is flagged \"changed\" with its size.  "
		 "The test assumes independent runs (vmreport(1)).", REP_FDR, tested,
		 REP_MIN_EFFECT_TIMING_PCT, REP_MIN_EFFECT_COUNT_PCT);
}

void rep_fmt_folded(char *buf, size_t len, const struct rep_table *t)
{
	size_t n = t->nrows - t->nshown, same = t->nidentical, alone = t->nalone;
	size_t quiet = n - same - alone;
	const char *what[3] = { "the same in every column", "measured in fewer than two columns",
				"without a flag" };
	size_t count[3] = { same, alone, quiet };
	char parts[160] = "";
	size_t kinds = (same > 0) + (alone > 0) + (quiet > 0);
	for (int k = 0; k < 3; k++) {
		size_t at = strlen(parts);
		if (!count[k])
			continue;
		if (kinds == 1)
			snprintf(parts + at, sizeof(parts) - at, "%s", what[k]);
		else
			snprintf(parts + at, sizeof(parts) - at, "%s%zu %s", at ? ", " : "", count[k], what[k]);
	}
	if (t->nshown)
		snprintf(buf, len, "%zu more row%s folded (%s)", n, n == 1 ? "" : "s", parts);
	else
		snprintf(buf, len, "all %zu row%s folded (%s)", n, n == 1 ? "" : "s", parts);
}

static void fidelity_note(const struct rep_table *t, size_t i, char *buf, size_t len)
{
	const struct rep_column *c = &t->cols[i];
	char what[160] = "";
	if (c->total >= 0 && c->matched < c->total)
		snprintf(what, sizeof(what), "%lld/%lld checkpoints matched", c->matched, c->total);
	if (c->mismatches > 0)
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%lld call%s returned "
			 "other results than recorded", what[0] ? ", " : "", c->mismatches,
			 c->mismatches == 1 ? "" : "s");
	if (c->fidelity == REP_OTHER_LAYOUT)
		snprintf(buf, len, "column #%zu: %s, every call as recorded: its kernel (%s) lays "
			 "VMAs out unlike the recording's (%s); its VMA and merge rows are compared",
			 i + 1, what, t->in[i].kernel, c->recorded_kernel);
	else
		snprintf(buf, len, "column #%zu: %s; its VMA and merge rows are not comparable%s%s",
			 i + 1, what, i ? "" : ", so no column's are", c->mismatches > 0 ||
			 c->recorded_kernel[0] ? "" : " (vmreport could not read the trace to tell "
			 "whether it was recorded on another kernel, whose VMA layout would explain it)");
}

static void drift_note(const struct rep_table *t, size_t i, char *buf, size_t len)
{
	const struct rep_drift *d = &t->cols[i].drift;
	char a[48], b[48], more[48] = "";
	rep_fmt_value(a, sizeof(a), d->first);
	rep_fmt_value(b, sizeof(b), d->last);
	if (d->more)
		snprintf(more, sizeof(more), ", and %zu more metric%s", d->more, d->more == 1 ? "" : "s");
	snprintf(buf, len, "column #%zu: its runs drift: %s went from %s (first %zu runs) to %s "
		 "(last %zu), more than its spread of \u00b1%.0f%%%s; the test assumes independent "
		 "runs, so a flag in this column may be the machine's", i + 1, d->metric, a, d->half,
		 b, d->half, d->spread_pct, more);
}

void rep_each_column_note(const struct rep_table *t,
			  void (*emit)(const char *line, bool warning, void *arg), void *arg)
{
	char buf[1024];
	for (size_t i = 0; i < t->nin; i++) {
		if (t->cols[i].fidelity != REP_FAITHFUL) {
			fidelity_note(t, i, buf, sizeof(buf));
			emit(buf, t->cols[i].fidelity == REP_UNFAITHFUL, arg);
		}
		if (t->cols[i].drift.metric) {
			drift_note(t, i, buf, sizeof(buf));
			emit(buf, true, arg);
		}
	}
}

void rep_fmt_range(char *buf, size_t len, const struct rep_cell *c)
{
	char lo[32], hi[32];
	if (c->state != REP_CELL_OK) {
		buf[0] = 0;
		return;
	}
	rep_fmt_value(lo, sizeof(lo), c->s.min);
	rep_fmt_value(hi, sizeof(hi), c->s.max);
	snprintf(buf, len, "%s\u2013%s", lo, hi);
}

const char *rep_cell_placeholder(const struct rep_cell *c)
{
	switch (c->state) {
	case REP_CELL_MISSING: return "missing";
	case REP_CELL_NOT_MEASURED: return "n/a";
	case REP_CELL_OK: break;
	}
	return "";
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);
	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
}

void rep_fmt_host(char *buf, size_t len, const struct rep_results *r)
{
	const json_t *h = r->host, *v;
	char part[96];
	buf[0] = 0;
	const char *cpu = json_get_str(h, "cpu");
	if (cpu)
		append(buf, len, ", ", cpu);
	if ((v = json_object_get(h, "cores")) && json_is_number(v)) {
		double n = json_number_value(v);
		snprintf(part, sizeof(part), "%g core%s", n, n == 1 ? "" : "s");
		append(buf, len, ", ", part);
	}
	if ((v = json_object_get(h, "memory"))) {
		if (json_is_number(v)) {	/* bytes */
			snprintf(part, sizeof(part), "%.1f GiB", json_number_value(v) / (1 << 30));
			append(buf, len, ", ", part);
		} else if (json_is_string(v)) {
			append(buf, len, ", ", json_string_value(v));
		}
	}
	const char *en = json_get_str(h, "thp_enabled"), *df = json_get_str(h, "thp_defrag");
	if (en || df) {
		snprintf(part, sizeof(part), "THP %s%s%s", en ? en : "?", df ? "/" : "", df ? df : "");
		append(buf, len, ", ", part);
	}
	if (!buf[0])
		append(buf, len, "", "host unknown");
}

static int utf8_width(const char *s, size_t *bytes_for, int width)
{
	int cols = 0;
	size_t i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cols == width)
			break;
		cols++;
	}
	*bytes_for = i;
	return cols;
}

void rep_put_padded(FILE *f, const char *s, int width, int right)
{
	size_t bytes;
	int cols = utf8_width(s, &bytes, width);
	if (right)
		fprintf(f, "%*s", width - cols, "");
	fwrite(s, 1, bytes, f);
	if (!right)
		fprintf(f, "%*s", width - cols, "");
}

void rep_fmt_column_tag(char *buf, size_t len, const struct rep_table *t, size_t i)
{
	if (t->nin > 2)
		snprintf(buf, len, "#%zu ", i + 1);
	else
		buf[0] = 0;
}
