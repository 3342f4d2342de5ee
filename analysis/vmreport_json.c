/* vmreport_json.c - {"vmreport": 1, "inputs": [...], "metrics": [...],
 * "explain": [...]}; every metric is written, "shown" says whether the
 * text report would list it.  Undefined numbers are null. */
#include "analysis/vmreport_json.h"

#include "lib/json.h"
#include "analysis/vmreport_explain.h"
#include "analysis/vmreport_format.h"

static void column_checks(struct json_w *w, const struct rep_column *c)
{
	static const char *const fidelity[] = {
		[REP_FAITHFUL] = "faithful", [REP_UNFAITHFUL] = "unfaithful",
		[REP_OTHER_LAYOUT] = "other_layout",
	};
	json_w_key(w, "fidelity");
	json_w_begin(w, '{');
	json_w_key(w, "state");
	json_w_str(w, fidelity[c->fidelity]);
	json_w_key(w, "checkpoints_matched");
	c->total >= 0 ? json_w_int(w, c->matched) : json_w_null(w);
	json_w_key(w, "checkpoints_total");
	c->total >= 0 ? json_w_int(w, c->total) : json_w_null(w);
	json_w_key(w, "result_mismatches");
	c->mismatches >= 0 ? json_w_int(w, c->mismatches) : json_w_null(w);
	json_w_key(w, "recorded_kernel");
	json_w_str(w, c->recorded_kernel[0] ? c->recorded_kernel : NULL);
	json_w_end(w, '}');
	json_w_key(w, "drift");
	if (!c->drift.metric) {
		json_w_null(w);
		return;
	}
	json_w_begin(w, '{');
	json_w_key(w, "metric");
	json_w_str(w, c->drift.metric);
	json_w_key(w, "first");
	json_w_num(w, c->drift.first);
	json_w_key(w, "last");
	json_w_num(w, c->drift.last);
	json_w_key(w, "half");
	json_w_int(w, (long long)c->drift.half);
	json_w_key(w, "spread_pct");
	json_w_num(w, c->drift.spread_pct);
	json_w_key(w, "more");
	json_w_int(w, (long long)c->drift.more);
	json_w_end(w, '}');
}

static void statistic(struct json_w *w, const struct rep_table *t)
{
	char text[1024];
	rep_fmt_statistic(text, sizeof(text), t);
	json_w_key(w, "statistic");
	json_w_begin(w, '{');
	json_w_key(w, "test");
	json_w_str(w, "welch");
	json_w_key(w, "adjust");
	json_w_str(w, "benjamini-hochberg");
	json_w_key(w, "fdr");
	json_w_num(w, REP_FDR);
	json_w_key(w, "min_effect_pct");
	json_w_begin(w, '{');
	json_w_key(w, "timing");
	json_w_num(w, REP_MIN_EFFECT_TIMING_PCT);
	json_w_key(w, "count");
	json_w_num(w, REP_MIN_EFFECT_COUNT_PCT);
	json_w_end(w, '}');
	json_w_key(w, "tested");
	json_w_int(w, (long long)t->ntested);
	json_w_key(w, "text");
	json_w_str(w, text);
	json_w_end(w, '}');
}

static void note(const char *line, bool warning, void *arg)
{
	struct json_w *w = arg;
	json_w_begin(w, '{');
	json_w_key(w, "level");
	json_w_str(w, warning ? "warning" : "note");
	json_w_key(w, "text");
	json_w_str(w, line);
	json_w_end(w, '}');
}

static void inputs(struct json_w *w, const struct rep_table *t)
{
	json_w_begin(w, '[');
	for (size_t i = 0; i < t->nin; i++) {
		const struct rep_results *r = &t->in[i];
		json_w_begin(w, '{');
		json_w_key(w, "file");
		json_w_str(w, r->path);
		json_w_key(w, "label");
		json_w_str(w, t->labels[i]);
		json_w_key(w, "trace");
		json_w_str(w, r->trace);
		json_w_key(w, "target");
		json_w_str(w, r->target);
		json_w_key(w, "kernel");
		json_w_str(w, r->kernel);
		json_w_key(w, "vm");
		json_w_str(w, r->vm);
		json_w_key(w, "command");
		json_w_str(w, r->command);
		json_w_key(w, "reproduce");
		json_w_str(w, r->reproduce);
		json_w_key(w, "complete");
		json_w_bool(w, !r->incomplete);
		if (r->incomplete_reason) {
			json_w_key(w, "incomplete_reason");
			json_w_str(w, r->incomplete_reason);
		}
		json_w_key(w, "runs");
		json_w_int(w, (long long)r->runs);
		json_w_key(w, "host");
		json_w_begin(w, '{');
		const char *key;
		const json_t *v;
		json_object_foreach((json_t *)r->host, key, v) {
			json_w_key(w, key);
			if (json_is_number(v))
				json_w_num(w, json_number_value(v));
			else if (json_is_string(v))
				json_w_str(w, json_string_value(v));
			else if (json_is_boolean(v))
				json_w_bool(w, json_is_true(v));
			else
				json_w_null(w);
		}
		json_w_end(w, '}');
		column_checks(w, &t->cols[i]);
		json_w_end(w, '}');
	}
	json_w_end(w, ']');
}

static const char *const state_names[] = {
	[REP_CELL_OK] = "ok", [REP_CELL_MISSING] = "missing",
	[REP_CELL_NOT_MEASURED] = "not_measured",
};

static void num_or_null(struct json_w *w, const char *key, bool have, double v)
{
	json_w_key(w, key);
	if (have)
		json_w_num(w, v);
	else
		json_w_null(w);
}

static void cell(struct json_w *w, const struct rep_cell *c, bool base)
{
	bool ok = c->state == REP_CELL_OK;
	json_w_begin(w, '{');
	json_w_key(w, "state");
	json_w_str(w, state_names[c->state]);
	json_w_key(w, "n");
	json_w_int(w, (long long)c->s.n);
	num_or_null(w, "mean", ok, c->s.mean);
	num_or_null(w, "stddev", ok, c->s.stddev);
	num_or_null(w, "stddev_pct", ok, c->s.stddev_pct);
	num_or_null(w, "min", ok, c->s.min);
	num_or_null(w, "max", ok, c->s.max);
	json_w_key(w, "values");
	json_w_begin(w, '[');
	for (size_t k = 0; ok && k < c->metric->n; k++)
		json_w_num(w, c->metric->v[k]);
	json_w_end(w, ']');
	if (!base) {
		json_w_key(w, "comparable");
		json_w_bool(w, c->comparable);
		num_or_null(w, "change_pct", c->has_change, c->change_pct);
		num_or_null(w, "t", c->has_welch, c->welch.t);
		num_or_null(w, "df", c->has_welch, c->welch.df);
		num_or_null(w, "p", c->has_welch, c->welch.p);
		num_or_null(w, "q", c->test == REP_TEST_WELCH, c->q);
		num_or_null(w, "delta", c->has_change || c->test != REP_TEST_NONE, c->delta);
		json_w_key(w, "test");
		json_w_str(w, rep_test_name(c->test));
		json_w_key(w, "not_comparable");
		json_w_str(w, c->nc == REP_NC_EMULATED ? "emulated" : c->nc == REP_NC_FIDELITY ?
			   "fidelity" : NULL);
		json_w_key(w, "significant");
		json_w_bool(w, c->significant);
		json_w_key(w, "exact");
		json_w_bool(w, c->exact);
		json_w_key(w, "verdict");
		json_w_str(w, rep_verdict_name(c->verdict));
	}
	json_w_end(w, '}');
}

static void comparison(struct json_w *w, const struct rep_table *t)
{
	json_w_begin(w, '{');
	json_w_key(w, "vmreport");
	json_w_int(w, REP_JSON_VERSION);
	json_w_key(w, "inputs");
	inputs(w, t);
	statistic(w, t);
	json_w_key(w, "notes");
	json_w_begin(w, '[');
	rep_each_column_note(t, note, w);
	json_w_end(w, ']');
	json_w_key(w, "metrics");
	json_w_begin(w, '[');
	for (size_t r = 0; r < t->nrows; r++) {
		const struct rep_row *row = &t->rows[r];
		json_w_begin(w, '{');
		json_w_key(w, "name");
		json_w_str(w, row->name);
		json_w_key(w, "direction");
		json_w_str(w, rep_direction_name(row->direction));
		json_w_key(w, "kind");
		json_w_str(w, rep_kind_name(row->kind));
		json_w_key(w, "timing");
		json_w_bool(w, row->timing);
		json_w_key(w, "headline");
		json_w_bool(w, row->headline);
		json_w_key(w, "shown");
		json_w_bool(w, row->shown);
		json_w_key(w, "cells");
		json_w_begin(w, '[');
		for (size_t i = 0; i < t->nin; i++)
			cell(w, &row->cells[i], i == 0);
		json_w_end(w, ']');
		json_w_end(w, '}');
	}
	json_w_end(w, ']');
	if (t->opt->explain) {
		json_w_key(w, "explain");
		rep_explain_json(w, t);
	}
	json_w_end(w, '}');
}

void rep_write_json(FILE *f, const struct rep_table *const *tables, size_t n, bool as_array)
{
	struct json_w w;
	json_w_init(&w, f, true);
	if (as_array)
		json_w_begin(&w, '[');
	for (size_t k = 0; k < n; k++)
		comparison(&w, tables[k]);
	if (as_array)
		json_w_end(&w, ']');
}
