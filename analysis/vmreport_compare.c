/* vmreport_compare.c - build the comparison table: which metrics, what
 * kind each is, and whether each column differs from the first (the
 * statistic is stated in vmreport_stats.h and docs/reading-flags.md). */
#include "analysis/vmreport_compare.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/vmreport_stacks.h"

enum match { EXACT, PREFIX, SUFFIX, INFIX };

struct metric_kind {
	const char *pattern;
	enum match how;
	enum rep_direction direction;
	enum rep_kind kind;
	bool layout;      /* VMA counts and merge outcomes: only as good as the replay */
	bool headline;    /* shown whenever the columns differ */
};

/* First match wins. */
static const struct metric_kind kinds[] = {
	{ ".ops_per_sec",             SUFFIX, REP_HIGHER_BETTER, REP_KIND_TIMING, false, true },
	{ ".latency_ns.",             INFIX,  REP_LOWER_BETTER,  REP_KIND_TIMING, false, false },
	{ "vmreplay.events_per_sec",  EXACT,  REP_HIGHER_BETTER, REP_KIND_TIMING, false, false },
	{ "vmreplay.elapsed_ns",      EXACT,  REP_LOWER_BETTER,  REP_KIND_TIMING, false, false },
	{ "vmreplay.clock_cost_ns",   EXACT,  REP_NEUTRAL,       REP_KIND_TIMING, false, false },
	{ "vmreplay.vma_count.final", EXACT,  REP_LOWER_BETTER,  REP_KIND_COUNT,  true,  true },
	{ "vmreplay.vma_count.",      PREFIX, REP_LOWER_BETTER,  REP_KIND_COUNT,  true,  false },
	{ "vmreplay.merge.failed",    EXACT,  REP_LOWER_BETTER,  REP_KIND_COUNT,  true,  true },
	{ "vmreplay.merge.",          PREFIX, REP_NEUTRAL,       REP_KIND_COUNT,  true,  true },
	{ "vmreplay.fidelity.",       PREFIX, REP_NEUTRAL,       REP_KIND_REPLAY, false, false },
	{ "vmreplay.skipped_events",  EXACT,  REP_NEUTRAL,       REP_KIND_REPLAY, false, false },
	{ "vmreplay.unplaceable_mappings", EXACT, REP_NEUTRAL,   REP_KIND_REPLAY, false, false },
	{ "",                         PREFIX, REP_NEUTRAL,       REP_KIND_COUNT,  false, false },
};

static bool matches(const char *name, const struct metric_kind *k)
{
	size_t n = strlen(name), p = strlen(k->pattern);
	switch (k->how) {
	case EXACT: return strcmp(name, k->pattern) == 0;
	case PREFIX: return strncmp(name, k->pattern, p) == 0;
	case SUFFIX: return n >= p && strcmp(name + n - p, k->pattern) == 0;
	case INFIX: return strstr(name, k->pattern) != NULL;
	}
	return false;
}

/* The last pattern matches every name. */
static const struct metric_kind *kind_of(const char *name)
{
	size_t i = 0;
	while (i + 1 < sizeof(kinds) / sizeof(kinds[0]) && !matches(name, &kinds[i]))
		i++;
	return &kinds[i];
}

enum rep_kind rep_metric_kind(const char *name)
{
	return kind_of(name)->kind;
}

static void classify(struct rep_row *row)
{
	const struct metric_kind *k = kind_of(row->name);
	row->direction = k->direction;
	row->kind = k->kind;
	row->timing = k->kind == REP_KIND_TIMING;
	row->layout = k->layout;
	row->headline = k->headline;
}

const char *rep_verdict_name(enum rep_verdict v)
{
	static const char *const names[] = { "same", "improvement", "regression", "changed" };
	return names[v];
}

const char *rep_direction_name(enum rep_direction d)
{
	static const char *const names[] = { "neutral", "higher_is_better", "lower_is_better" };
	return names[d];
}

const char *rep_kind_name(enum rep_kind k)
{
	static const char *const names[] = { "timing", "count", "replay" };
	return names[k];
}

const char *rep_test_name(enum rep_test t)
{
	static const char *const names[] = { "none", "exact", "welch" };
	return names[t];
}

double rep_min_effect_pct(const struct rep_row *row)
{
	return row->timing ? REP_MIN_EFFECT_TIMING_PCT : REP_MIN_EFFECT_COUNT_PCT;
}

bool rep_emulated(const struct rep_results *r)
{
	return r->vm != NULL;
}

const char *rep_table_trace(const struct rep_table *t, char *buf, size_t len)
{
	const char *named = NULL, *opt = t->opt->trace;
	const char *base = rep_trace_name(&t->in[0]);
	const char *slash = opt ? strrchr(opt, '/') : NULL;
	if (opt && (!base || strcmp(slash ? slash + 1 : opt, base) == 0))
		return opt;
	for (size_t i = 0; i < t->nin; i++) {
		const char *p = rep_stacks_trace_path(&t->in[i], buf, len);
		if (p && access(p, F_OK) == 0)
			return p;
		if (!named)
			named = p;
	}
	return named;
}

static int make_labels(struct rep_table *t)
{
	const struct rep_options *o = t->opt;
	t->labels = calloc(t->nin, sizeof(*t->labels));
	t->owned_labels = calloc(t->nin, sizeof(*t->owned_labels));
	if (!t->labels || !t->owned_labels)
		return -1;
	for (size_t i = 0; i < t->nin; i++) {
		if (o->labels) {
			t->labels[i] = o->labels[i];
		} else if (t->in[i].sim) {
			if (asprintf(&t->owned_labels[i], "sim:%s", t->in[i].kernel) < 0)
				return -1;
			t->labels[i] = t->owned_labels[i];
		} else {
			t->labels[i] = t->in[i].kernel;
		}
	}
	return 0;
}

static int check_traces(const struct rep_table *t)
{
	const char *base = rep_trace_name(&t->in[0]);
	int bad = 0;
	for (size_t i = 1; i < t->nin; i++) {
		const char *other = rep_trace_name(&t->in[i]);
		if (!base || !other || strcmp(base, other) == 0)
			continue;
		fprintf(stderr, "vmreport: %s: results of trace %s, but %s is of trace %s%s\n",
			t->in[i].path, other, t->in[0].path, base,
			t->opt->any_trace ? " (compared anyway: --any-trace)" :
			"; compare results of one trace (or pass --any-trace)");
		bad = 1;
	}
	return bad && !t->opt->any_trace ? -1 : 0;
}

static const char *row_name(size_t r, const void *arg)
{
	return ((const struct rep_table *)arg)->rows[r].name;
}

static int add_row(struct rep_table *t, const char *name, size_t *cap)
{
	if (rep_names_find(&t->index, name, row_name, t) >= 0)
		return 0;
	if (t->nrows == *cap) {
		size_t nc = *cap ? *cap * 2 : 32;
		struct rep_row *nr = realloc(t->rows, nc * sizeof(*nr));
		if (!nr)
			return -1;
		t->rows = nr;
		*cap = nc;
	}
	struct rep_row *row = &t->rows[t->nrows];
	memset(row, 0, sizeof(*row));
	row->name = name;
	row->cells = calloc(t->nin, sizeof(*row->cells));
	if (!row->cells)
		return -1;
	t->nrows++;
	if (rep_names_add(&t->index, t->nrows - 1, row_name, t))
		return -1;
	classify(row);
	return 0;
}

/* No spread to test against: one run, or every run the same. */
static bool constant(const struct rep_summary *s)
{
	return s->n < 2 || s->var == 0;
}

/* Everything but the verdict, which waits for the whole table's q-values. */
static void compare_cell(const struct rep_table *t, const struct rep_row *row, size_t i)
{
	const struct rep_cell *b = &row->cells[0];
	struct rep_cell *c = &row->cells[i];
	if (c->state != REP_CELL_OK || b->state != REP_CELL_OK)
		return;
	if (row->timing && (rep_emulated(&t->in[0]) || rep_emulated(&t->in[i]))) {
		c->comparable = false;
		c->nc = REP_NC_EMULATED;
		return;
	}
	c->delta = c->s.mean - b->s.mean;
	if (b->s.mean != 0) {
		c->has_change = true;
		c->change_pct = 100 * c->delta / fabs(b->s.mean);
	} else if (c->s.mean == 0) {
		c->has_change = true;
		c->change_pct = 0;
	}
	if (row->kind == REP_KIND_REPLAY)
		return;
	if (row->layout && (t->cols[0].fidelity == REP_UNFAITHFUL ||
			    t->cols[i].fidelity == REP_UNFAITHFUL)) {
		c->comparable = false;
		c->nc = REP_NC_FIDELITY;
		return;
	}
	if (!row->timing && constant(&b->s) && constant(&c->s)) {
		c->test = REP_TEST_EXACT;
		return;
	}
	c->has_welch = rep_welch_test(&b->s, &c->s, &c->welch);
	/* a timing the same in every run on both sides is a clock's grain, not a measurement */
	if (c->has_welch && !(b->s.var == 0 && c->s.var == 0))
		c->test = REP_TEST_WELCH;
}

static void verdict(const struct rep_row *row, struct rep_cell *c)
{
	if (c->test == REP_TEST_EXACT) {
		c->exact = c->significant = c->delta != 0;
	} else if (c->test == REP_TEST_WELCH) {
		double effect = c->has_change ? fabs(c->change_pct) : INFINITY;
		c->significant = c->q <= REP_FDR && effect >= rep_min_effect_pct(row);
	}
	if (!c->significant)
		return;
	bool up = c->delta > 0;
	if (c->exact || row->direction == REP_NEUTRAL)
		c->verdict = REP_CHANGED;	/* an exact difference is a fact, not a judgement */
	else if (row->direction == REP_HIGHER_BETTER)
		c->verdict = up ? REP_IMPROVEMENT : REP_REGRESSION;
	else
		c->verdict = up ? REP_REGRESSION : REP_IMPROVEMENT;
}

/* Benjamini-Hochberg over every Welch-tested cell of the table, then the
 * verdicts.  0, or -1 when out of memory. */
static int decide(struct rep_table *t)
{
	size_t n = 0, k = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 1; i < t->nin; i++)
			n += t->rows[r].cells[i].test == REP_TEST_WELCH;
	double *p = malloc((n ? n : 1) * sizeof(*p)), *q = malloc((n ? n : 1) * sizeof(*q));
	if (!p || !q) {
		free(p);
		free(q);
		return -1;
	}
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 1; i < t->nin; i++)
			if (t->rows[r].cells[i].test == REP_TEST_WELCH)
				p[k++] = t->rows[r].cells[i].welch.p;
	int rc = rep_bh_adjust(p, n, q);
	k = 0;
	for (size_t r = 0; !rc && r < t->nrows; r++)
		for (size_t i = 1; i < t->nin; i++) {
			struct rep_cell *c = &t->rows[r].cells[i];
			if (c->test == REP_TEST_WELCH)
				c->q = q[k++];
			verdict(&t->rows[r], c);
		}
	t->ntested = n;
	free(p);
	free(q);
	return rc;
}

/* Every column's fidelity; the trace's header is read only when a
 * checkpoint differs with every call as recorded. */
static void check_fidelity(struct rep_table *t)
{
	char recorded[80] = "", buf[PATH_MAX];
	bool looked = false;
	for (size_t i = 0; i < t->nin; i++) {
		rep_check_fidelity(&t->in[i], NULL, &t->cols[i]);
		if (t->cols[i].fidelity != REP_UNFAITHFUL || t->cols[i].mismatches > 0)
			continue;
		if (!looked) {
			const char *trace = rep_table_trace(t, buf, sizeof(buf));
			if (trace)
				rep_trace_kernel(trace, recorded, sizeof(recorded));
			looked = true;
		}
		rep_check_fidelity(&t->in[i], recorded, &t->cols[i]);
	}
}

/* Drift of each column with enough runs, over its tested kinds of metric. */
static int check_drift(struct rep_table *t)
{
	const char **names = malloc((t->nrows ? t->nrows : 1) * sizeof(*names));
	const double **v = malloc((t->nrows ? t->nrows : 1) * sizeof(*v));
	size_t *n = malloc((t->nrows ? t->nrows : 1) * sizeof(*n));
	int rc = names && v && n ? 0 : -1;
	for (size_t i = 0; !rc && i < t->nin; i++) {
		size_t m = 0;
		for (size_t r = 0; r < t->nrows; r++) {
			const struct rep_row *row = &t->rows[r];
			const struct rep_cell *c = &row->cells[i];
			if (c->state != REP_CELL_OK || row->kind == REP_KIND_REPLAY ||
			    (row->timing && rep_emulated(&t->in[i])))
				continue;
			names[m] = row->name;
			v[m] = c->metric->v;
			n[m++] = c->metric->n;
		}
		rc = rep_check_drift(names, v, n, m, &t->cols[i].drift);
	}
	free(names);
	free(v);
	free(n);
	return rc;
}

/* One line per file listing the metrics it lacks, the first few by name. */
static void warn_missing(const struct rep_table *t)
{
	for (size_t i = 0; i < t->nin; i++) {
		size_t n = 0;
		for (size_t r = 0; r < t->nrows; r++)
			n += t->rows[r].cells[i].state == REP_CELL_MISSING;
		if (!n)
			continue;
		fprintf(stderr, "vmreport: %s: %zu metric%s that other results have %s missing:",
			t->in[i].path, n, n > 1 ? "s" : "", n > 1 ? "are" : "is");
		size_t shown = 0;
		for (size_t r = 0; r < t->nrows && shown < 3; r++)
			if (t->rows[r].cells[i].state == REP_CELL_MISSING)
				fprintf(stderr, "%s %s", shown++ ? "," : "", t->rows[r].name);
		if (n > shown)
			fprintf(stderr, " and %zu more", n - shown);
		fputs(" (shown as \"missing\")\n", stderr);
	}
}

/* Columns that measure the row (with numbers, or missing them). */
static size_t measured(const struct rep_table *t, const struct rep_row *row)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nin; i++)
		n += row->cells[i].state != REP_CELL_NOT_MEASURED;
	return n;
}

/* Two or more columns have numbers, all the same mean, and none lacks the metric. */
static bool identical(const struct rep_table *t, const struct rep_row *row)
{
	const struct rep_cell *first = NULL;
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_cell *c = &row->cells[i];
		if (c->state == REP_CELL_MISSING)
			return false;
		if (c->state != REP_CELL_OK)
			continue;
		if (first && c->s.mean != first->s.mean)
			return false;
		first = first ? first : c;
	}
	return measured(t, row) >= 2;
}

int rep_table_build(struct rep_table *t, struct rep_results *in, size_t nin,
		    const struct rep_options *opt)
{
	size_t cap = 0;
	memset(t, 0, sizeof(*t));
	t->in = in;
	t->nin = nin;
	t->opt = opt;
	if (make_labels(t) || !(t->cols = calloc(nin, sizeof(*t->cols))))
		goto nomem;
	if (check_traces(t))
		return -1;
	for (size_t i = 0; i < nin; i++) {
		t->any_vm |= rep_emulated(&in[i]);
		for (size_t m = 0; m < in[i].nmetrics; m++)
			if (add_row(t, in[i].metrics[m].name, &cap))
				goto nomem;
	}
	check_fidelity(t);
	for (size_t r = 0; r < t->nrows; r++) {
		struct rep_row *row = &t->rows[r];
		for (size_t i = 0; i < nin; i++) {
			struct rep_cell *c = &row->cells[i];
			c->comparable = true;
			c->metric = rep_metric_find(&in[i], row->name);
			if (row->timing && in[i].sim)
				c->state = REP_CELL_NOT_MEASURED;
			else if (!c->metric || c->metric->n == 0)
				c->state = REP_CELL_MISSING;
			else
				rep_summarize(c->metric->v, c->metric->n, &c->s);
		}
		for (size_t i = 1; i < nin; i++)
			compare_cell(t, row, i);
	}
	if (decide(t) || check_drift(t))
		goto nomem;
	for (size_t r = 0; r < t->nrows; r++) {
		struct rep_row *row = &t->rows[r];
		bool comparable = measured(t, row) >= 2;
		row->identical = identical(t, row);
		for (size_t i = 1; i < nin; i++)	/* a difference that cannot be judged is shown, marked */
			row->shown |= row->cells[i].significant ||
				      (row->cells[i].nc == REP_NC_FIDELITY && !row->identical);
		row->shown |= opt->all || (row->headline && comparable && !row->identical);
		t->nshown += row->shown;
		t->nidentical += !row->shown && row->identical;
		t->nalone += !row->shown && !comparable;
	}
	warn_missing(t);
	return 0;
nomem:
	fprintf(stderr, "vmreport: out of memory\n");
	return -1;
}

void rep_table_free(struct rep_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		free(t->rows[r].cells);
	free(t->rows);
	rep_names_free(&t->index);
	for (size_t i = 0; t->owned_labels && i < t->nin; i++)
		free(t->owned_labels[i]);
	free(t->owned_labels);
	free(t->labels);
	free(t->cols);
	memset(t, 0, sizeof(*t));
}
