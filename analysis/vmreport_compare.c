/* vmreport_compare.c - build the comparison table: which metrics, what
 * kind each is, and whether each column differs from the first. */
#include "analysis/vmreport_compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum match { EXACT, PREFIX, SUFFIX, INFIX };

struct metric_kind {
	const char *pattern;
	enum match how;
	enum rep_direction direction;
	bool timing;      /* measured with a clock: meaningless under emulation */
	bool headline;    /* shown even when nothing changed */
};

/* First match wins. */
static const struct metric_kind kinds[] = {
	{ ".ops_per_sec",                          SUFFIX, REP_HIGHER_BETTER, true,  true },
	{ ".latency_ns.",                          INFIX,  REP_LOWER_BETTER,  true,  false },
	{ "vmreplay.events_per_sec",               EXACT,  REP_HIGHER_BETTER, true,  false },
	{ "vmreplay.elapsed_ns",                   EXACT,  REP_LOWER_BETTER,  true,  false },
	{ "vmreplay.clock_cost_ns",                EXACT,  REP_NEUTRAL,       true,  false },
	{ "vmreplay.vma_count.final",              EXACT,  REP_LOWER_BETTER,  false, true },
	{ "vmreplay.vma_count.",                   PREFIX, REP_LOWER_BETTER,  false, false },
	{ "vmreplay.merge.failed",                 EXACT,  REP_LOWER_BETTER,  false, true },
	{ "vmreplay.merge.",                       PREFIX, REP_NEUTRAL,       false, true },
	{ "vmreplay.fidelity.checkpoints_matched", EXACT,  REP_HIGHER_BETTER, false, false },
	{ "vmreplay.fidelity.result_mismatches",   EXACT,  REP_LOWER_BETTER,  false, false },
	{ "vmreplay.skipped_events",               EXACT,  REP_LOWER_BETTER,  false, false },
	{ "vmreplay.unplaceable_mappings",         EXACT,  REP_LOWER_BETTER,  false, false },
};

/* LKP's thresholds for the ratio of medians. */
#define PERF_RATIO  1.01
#define OTHER_RATIO 1.05

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

static void classify(struct rep_row *row)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (matches(row->name, &kinds[i])) {
			row->direction = kinds[i].direction;
			row->timing = kinds[i].timing;
			row->headline = kinds[i].headline;
			return;
		}
	}
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

static void compare_cell(const struct rep_table *t, const struct rep_row *row, size_t i)
{
	const struct rep_cell *b = &row->cells[0];
	struct rep_cell *c = &row->cells[i];
	if (c->state != REP_CELL_OK || b->state != REP_CELL_OK)
		return;
	if (row->timing && (t->in[0].vm || t->in[i].vm)) {
		c->comparable = false;
		return;
	}
	if (b->s.mean != 0) {
		c->has_change = true;
		c->change_pct = 100 * (c->s.mean - b->s.mean) / fabs(b->s.mean);
	} else if (c->s.mean == 0) {
		c->has_change = true;
		c->change_pct = 0;
	}
	c->has_welch = rep_welch_test(&b->s, &c->s, &c->welch);
	if (t->in[0].sim && t->in[i].sim) {
		c->exact = c->s.mean != b->s.mean;
		c->significant = c->exact;
	} else {
		c->significant = rep_lkp_separated(b->metric->v, b->metric->n, c->metric->v,
						   c->metric->n, row->timing ? PERF_RATIO : OTHER_RATIO);
	}
	if (!c->significant)
		return;
	bool up = c->s.mean > b->s.mean;
	switch (row->direction) {
	case REP_NEUTRAL: c->verdict = REP_CHANGED; break;
	case REP_HIGHER_BETTER: c->verdict = up ? REP_IMPROVEMENT : REP_REGRESSION; break;
	case REP_LOWER_BETTER: c->verdict = up ? REP_REGRESSION : REP_IMPROVEMENT; break;
	}
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

int rep_table_build(struct rep_table *t, struct rep_results *in, size_t nin,
		    const struct rep_options *opt)
{
	size_t cap = 0;
	memset(t, 0, sizeof(*t));
	t->in = in;
	t->nin = nin;
	t->opt = opt;
	if (make_labels(t))
		goto nomem;
	if (check_traces(t))
		return -1;
	for (size_t i = 0; i < nin; i++) {
		t->any_vm |= in[i].vm != NULL;
		for (size_t m = 0; m < in[i].nmetrics; m++)
			if (add_row(t, in[i].metrics[m].name, &cap))
				goto nomem;
	}
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
		bool numbers = false;
		for (size_t i = 0; i < nin; i++)
			numbers |= row->cells[i].state == REP_CELL_OK;
		for (size_t i = 1; i < nin; i++) {
			compare_cell(t, row, i);
			row->shown |= row->cells[i].significant;
		}
		row->shown |= opt->all || (row->headline && numbers);
		t->nshown += row->shown;
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
	memset(t, 0, sizeof(*t));
}
