/* vmreport_results.c - read and check a results file.  Every problem is
 * reported as one line naming the field, so the caller can prefix the
 * file name and stop. */
#include "analysis/vmreport_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errmsg.h"
#include "vmt.h"

/* An optional string field: absent or null is fine, another type is not. */
static int opt_str(const json_t *doc, const char *key, const char **out,
		   char *err, size_t errlen)
{
	const json_t *v = json_object_get(doc, key);
	*out = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return errmsg(err, errlen, "\"%s\" is %s, not a string", key, json_kind(v));
	*out = json_string_value(v);
	return 0;
}

/* V as a whole number within [LO, HI]; false when it is not one. */
static bool whole(const json_t *v, long long lo, long long hi, long long *out)
{
	double x = json_number_value(v);
	if (!json_is_number(v) || x != floor(x) || x < (double)lo || x > (double)hi)
		return false;
	*out = (long long)x;
	return true;
}

/* The most runs a results file may say it has: vmreplay --repeat's limit. */
#define MAX_RUNS 1000000000LL

enum kind { K_STR, K_INT, K_BOOL };

/* A field of OBJ that may be absent or null, else must be of KIND (K_INT:
 * a whole number in [LO, HI]).  WHERE names the object in the message
 * ("" at the top level, "host: ", "per_event[3] (event 7): "). */
static int field(const json_t *obj, const char *key, enum kind kind, long long lo, long long hi,
		 const char *where, char *err, size_t errlen)
{
	const json_t *v = json_object_get(obj, key);
	long long n;
	if (!v || json_is_null(v))
		return 0;
	switch (kind) {
	case K_STR:
		if (!json_is_string(v))
			return errmsg(err, errlen, "%s\"%s\" is %s, not a string", where, key, json_kind(v));
		return 0;
	case K_BOOL:
		if (!json_is_boolean(v))
			return errmsg(err, errlen, "%s\"%s\" is %s, not true or false", where, key, json_kind(v));
		return 0;
	case K_INT:
		if (!json_is_number(v))
			return errmsg(err, errlen, "%s\"%s\" is %s, not a number", where, key, json_kind(v));
		if (!whole(v, lo, hi, &n))
			return errmsg(err, errlen, "%s\"%s\" is %.17g, not a whole number from %lld to %lld",
				      where, key, json_number_value(v), lo, hi);
		return 0;
	}
	return 0;
}

struct field_rule {
	const char *key;
	enum kind kind;
	long long lo, hi;
};

/* What docs/results-schema.md says each field of these objects is. */
static const struct field_rule host_fields[] = {
	{ "cpu", K_STR, 0, 0 }, { "machine", K_STR, 0, 0 }, { "kernel", K_STR, 0, 0 },
	{ "thp_enabled", K_STR, 0, 0 }, { "thp_defrag", K_STR, 0, 0 },
	{ "cores", K_INT, 0, 1LL << 32 }, { "memory", K_INT, 0, 1LL << 62 },
	{ "page_size", K_INT, 0, 1LL << 32 },
};
static const struct field_rule event_fields[] = {
	{ "pid", K_INT, 0, 1LL << 32 }, { "order", K_INT, 0, 1LL << 53 },
	{ "op", K_STR, 0, 0 }, { "outcome", K_STR, 0, 0 }, { "rule", K_STR, 0, 0 },
	{ "call", K_STR, 0, 0 }, { "vma_count", K_INT, -1, 1LL << 53 },
	{ "errno", K_INT, 0, VMT_MAX_ERRNO }, { "recorded_errno", K_INT, 0, VMT_MAX_ERRNO },
	{ "result", K_INT, -(1LL << 53), 1LL << 53 }, { "recorded_result", K_INT, -(1LL << 53), 1LL << 53 },
	{ "offset", K_INT, -(1LL << 53), 1LL << 53 }, { "latency_ns", K_INT, 0, 1LL << 53 },
	{ "mismatch", K_BOOL, 0, 0 }, { "moved", K_BOOL, 0, 0 },
};

static int fields(const json_t *obj, const struct field_rule *rules, size_t n, const char *where,
		  char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (field(obj, rules[i].key, rules[i].kind, rules[i].lo, rules[i].hi, where, err, errlen))
			return -1;
	return 0;
}

static const char *metric_name(size_t i, const void *arg)
{
	return ((const struct rep_results *)arg)->metrics[i].name;
}

static int load_metrics(struct rep_results *r, const json_t *m, char *err, size_t errlen)
{
	if (!m)
		return errmsg(err, errlen, "no \"metrics\" object");
	if (!json_is_object(m))
		return errmsg(err, errlen, "\"metrics\" is %s, not an object", json_kind(m));
	size_t nm = json_object_size(m);
	r->metrics = calloc(nm ? nm : 1, sizeof(*r->metrics));
	if (!r->metrics)
		return errmsg(err, errlen, "out of memory");
	const char *key;
	const json_t *a;
	/* one value (or null) a run: as many as "runs" says, or else as the
	 * longest metric has */
	if (!r->runs)
		json_object_foreach((json_t *)m, key, a)
			if (json_is_array(a) && json_array_size(a) > r->runs)
				r->runs = json_array_size(a);
	json_object_foreach((json_t *)m, key, a) {
		struct rep_metric *rm = &r->metrics[r->nmetrics];
		if (!json_is_array(a))
			return errmsg(err, errlen, "metric \"%s\" is %s, not an array of numbers",
				      key, json_kind(a));
		if (json_array_size(a) != r->runs)
			return errmsg(err, errlen, "metric \"%s\" has %zu value%s for %zu run%s", key,
				      json_array_size(a), json_array_size(a) == 1 ? "" : "s",
				      r->runs, r->runs == 1 ? "" : "s");
		size_t cap = json_array_size(a) ? json_array_size(a) : 1;
		if (!(rm->v = malloc(cap * sizeof(double))))
			return errmsg(err, errlen, "out of memory");
		rm->name = key;
		r->nmetrics++;
		for (size_t k = 0; k < json_array_size(a); k++) {
			const json_t *x = json_array_get(a, k);
			if (json_is_null(x))
				continue;	/* a run that did not measure it */
			if (!json_is_number(x))
				return errmsg(err, errlen, "metric \"%s\" value %zu is %s, not a number",
					      key, k + 1, json_kind(x));
			rm->v[rm->n++] = json_number_value(x);
		}
		if (rep_metric_find(r, rm->name) == NULL &&
		    rep_names_add(&r->index, r->nmetrics - 1, metric_name, r))
			return errmsg(err, errlen, "out of memory");
	}
	return 0;
}

static const char *word_at(size_t i, const void *arg)
{
	return ((const struct rep_results *)arg)->words[i];
}

/* One copy of each op, outcome, rule and model name, however many rows
 * carry it: its number in r->words plus one, 0 for none. */
static uint32_t word(struct rep_results *r, const char *s, bool *oom)
{
	if (!s)
		return 0;
	long i = rep_names_find(&r->word_index, s, word_at, r);
	if (i >= 0)
		return (uint32_t)i + 1;
	if (r->nwords % 64 == 0) {
		const char **w = realloc(r->words, (r->nwords + 64) * sizeof(*w));
		if (!w)
			goto oom;
		r->words = w;
	}
	if (!(r->words[r->nwords] = rep_arena_str(&r->arena, s)) ||
	    rep_names_add(&r->word_index, r->nwords, word_at, r))
		goto oom;
	return (uint32_t)++r->nwords;
oom:
	*oom = true;
	return 0;
}

/* "model" and "cited" of an event (docs/results-schema.md) into ROW: -1
 * with a message when they are not what vmreplay writes. */
static int load_model(struct rep_results *r, const json_t *e, struct rep_event_row *row, size_t k,
		      char *err, size_t errlen)
{
	const json_t *m = json_object_get(e, "model"), *c = json_object_get(e, "cited"), *v;
	const char *key;
	bool oom = false;
	size_t n = 0;

	row->has_model = false;
	row->nmodel = row->ncited = 0;
	if (!m || json_is_null(m))
		return 0;
	if (!json_is_object(m) || json_object_size(m) > REP_MAX_MODEL)
		return errmsg(err, errlen, "per_event[%zu] (event %lld): \"model\" is not an object of counts", k, row->i);
	json_object_foreach((json_t *)m, key, v) {
		if (!whole(v, 0, 1LL << 53, &row->model_v[n]))
			return errmsg(err, errlen, "per_event[%zu] (event %lld): model \"%s\" is not a count", k, row->i, key);
		row->model_name[n++] = word(r, key, &oom);
	}
	if (c && !json_is_null(c) && (!json_is_array(c) || json_array_size(c) > REP_MAX_MODEL))
		return errmsg(err, errlen, "per_event[%zu] (event %lld): \"cited\" is not an array of rules", k, row->i);
	size_t nc = json_is_array(c) ? json_array_size(c) : 0;
	for (size_t j = 0; j < nc; j++)
		if (!(row->cited[j] = word(r, json_string_value(json_array_get(c, j)), &oom)) && !oom)
			return errmsg(err, errlen, "per_event[%zu] (event %lld): \"cited\"[%zu] is not a string", k, row->i, j);
	if (oom)
		return errmsg(err, errlen, "out of memory");
	row->has_model = true;
	row->nmodel = (unsigned)n;
	row->ncited = (unsigned)nc;
	r->has_model = true;
	return 0;
}

/* What load_event needs besides the results. */
struct loading {
	struct rep_results *r;
	bool keep;              /* the rows go to r->spill */
	struct rep_event_row row;
};

/* json_row_fn for "per_event": one row checked, and kept when asked. */
static int load_event(const json_t *e, size_t k, void *arg, char *err, size_t errlen)
{
	struct loading *ld = arg;
	struct rep_results *r = ld->r;
	struct rep_event_row *row = &ld->row;
	if (!json_is_object(e))
		return errmsg(err, errlen, "per_event[%zu] is %s, not an object", k, json_kind(e));
	long long num;
	if (!whole(json_object_get(e, "i"), 0, 1LL << 53, &row->i))
		return errmsg(err, errlen, "per_event[%zu] has no event index \"i\"", k);
	char where[64];
	snprintf(where, sizeof(where), "per_event[%zu] (event %lld): ", k, row->i);
	if (fields(e, event_fields, sizeof(event_fields) / sizeof(*event_fields), where, err, errlen))
		return -1;
	bool oom = false;
	row->op = word(r, json_get_str(e, "op"), &oom);
	row->outcome = word(r, json_get_str(e, "outcome"), &oom);
	row->rule = word(r, json_get_str(e, "rule"), &oom);
	row->call = json_get_str(e, "call");
	if (oom)
		return errmsg(err, errlen, "out of memory");
	if (!row->outcome)
		return errmsg(err, errlen, "per_event[%zu] (event %lld) has no \"outcome\"", k, row->i);
	row->vma_count = whole(json_object_get(e, "vma_count"), 0, 1LL << 53, &num) ? num : -1;
	row->err = whole(json_object_get(e, "errno"), 0, VMT_MAX_ERRNO, &num) ? (int)num : 0;
	row->pid = whole(json_object_get(e, "pid"), 0, 1LL << 32, &num) ? num : 0;
	if (load_model(r, e, row, k, err, errlen))
		return -1;
	if (ld->keep && rep_spill_add(&r->spill, row, err, errlen))
		return -1;
	r->nevents++;
	return 0;
}

static int load_events(struct rep_results *r, bool streamed, char *err, size_t errlen)
{
	const json_t *pe = json_object_get(r->doc, "per_event");
	if (!streamed && pe && !json_is_null(pe))
		return errmsg(err, errlen, "\"per_event\" is %s, not an array", json_kind(pe));
	r->has_events = streamed;
	/* --explain walks two lists in step: in event order */
	return rep_spill_end(&r->spill, err, errlen);
}

static int check(struct rep_results *r, bool streamed, char *err, size_t errlen)
{
	const json_t *doc = r->doc, *ver = json_object_get(doc, "vmrec_results");
	if (!json_is_object(doc))
		return errmsg(err, errlen, "not vmrec results (the document is %s, not an object)",
			      json_kind(doc));
	if (!ver)
		return errmsg(err, errlen, "not vmrec results (no \"vmrec_results\" version field)");
	if (!json_is_number(ver))
		return errmsg(err, errlen, "\"vmrec_results\" is %s, not a version number",
			      json_kind(ver));
	if (json_number_value(ver) != REP_SCHEMA_VERSION)
		return errmsg(err, errlen, "results schema version %g; this vmreport reads version %d",
			      json_number_value(ver), REP_SCHEMA_VERSION);
	if (opt_str(doc, "trace", &r->trace, err, errlen) ||
	    opt_str(doc, "target", &r->target, err, errlen) ||
	    opt_str(doc, "kernel", &r->kernel, err, errlen) ||
	    opt_str(doc, "vm", &r->vm, err, errlen) ||
	    opt_str(doc, "command", &r->command, err, errlen) ||
	    opt_str(doc, "reproduce", &r->reproduce, err, errlen) ||
	    opt_str(doc, "incomplete_reason", &r->incomplete_reason, err, errlen))
		return -1;
	if (!r->reproduce && !r->vm)
		r->reproduce = r->command;
	if (!r->target)
		return errmsg(err, errlen, "no \"target\" (\"kernel\" or \"sim\")");
	if (strcmp(r->target, "kernel") && strcmp(r->target, "sim"))
		return errmsg(err, errlen, "target \"%s\" is neither \"kernel\" nor \"sim\"", r->target);
	r->sim = strcmp(r->target, "sim") == 0;
	if (!r->kernel)
		return errmsg(err, errlen, "no \"kernel\" (release or simulator profile)");
	r->host = json_object_get(doc, "host");
	if (r->host && !json_is_null(r->host) && !json_is_object(r->host))
		return errmsg(err, errlen, "\"host\" is %s, not an object", json_kind(r->host));
	if (!json_is_object(r->host))
		r->host = NULL;
	else if (fields(r->host, host_fields, sizeof(host_fields) / sizeof(*host_fields), "host: ",
			err, errlen))
		return -1;
	if (field(doc, "complete", K_BOOL, 0, 0, "", err, errlen) ||
	    field(doc, "runs", K_INT, 1, MAX_RUNS, "", err, errlen))
		return -1;
	r->incomplete = json_is_false(json_object_get(doc, "complete"));
	long long runs;
	if (whole(json_object_get(doc, "runs"), 1, MAX_RUNS, &runs))
		r->runs = (size_t)runs;
	if (load_metrics(r, json_object_get(doc, "metrics"), err, errlen))
		return -1;
	return load_events(r, streamed, err, errlen);
}

/* PATH opens as a trace (the trace library decides; standard input is
 * not reopened). */
static bool is_trace(const char *path)
{
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_FILE };
	int err = 0;
	struct vmt_reader *r = strcmp(path, "-") ? vmt_reader_open(path, &prefs, &err) : NULL;
	if (r)
		vmt_reader_close(r);
	return r != NULL;
}

/* "t.json" for "dir/t.lz4": where vmreplay could write the trace's results. */
static const char *results_name(const char *trace)
{
	static char buf[256];
	const char *base = strrchr(trace, '/') ? strrchr(trace, '/') + 1 : trace;
	const char *dot = strrchr(base, '.');
	int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
	snprintf(buf, sizeof(buf), "%.*s.json", n, base);
	return buf;
}

int rep_results_load(const char *path, struct rep_results *r, bool keep_events,
		     char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	char jerr[200];
	struct loading *ld = malloc(sizeof(*ld));
	if (!ld)
		return errmsg(err, errlen, "out of memory");
	ld->r = r;
	ld->keep = keep_events;
	struct json_read rd = { .stream_key = "per_event", .row = load_event, .arg = ld };
	enum json_read_status st = json_read_file(path, &rd, jerr, sizeof(jerr));
	r->doc = rd.doc;
	if (st == JSON_READ_SYNTAX && is_trace(path))
		errmsg(err, errlen, "a vmrec trace, not results: make results from it with "
		       "vmreplay --repeat 5 --json %s %s", results_name(path), path);
	else if (st == JSON_READ_SYNTAX)
		errmsg(err, errlen, "not valid JSON: %s", jerr);
	else if (st != JSON_READ_OK)
		errmsg(err, errlen, "%s", jerr);
	free(ld);
	if (st != JSON_READ_OK || check(r, rd.streamed, err, errlen)) {
		rep_results_free(r);
		r->path = path;
		return -1;
	}
	return 0;
}

void rep_results_free(struct rep_results *r)
{
	for (size_t i = 0; i < r->nmetrics; i++)
		free(r->metrics[i].v);
	free(r->metrics);
	rep_names_free(&r->index);
	rep_names_free(&r->word_index);
	free(r->words);
	rep_spill_free(&r->spill);
	rep_arena_free(&r->arena);
	json_decref(r->doc);
	memset(r, 0, sizeof(*r));
}

const struct rep_metric *rep_metric_find(const struct rep_results *r, const char *name)
{
	long i = rep_names_find(&r->index, name, metric_name, r);
	return i < 0 ? NULL : &r->metrics[i];
}

const char *rep_trace_name(const struct rep_results *r)
{
	if (!r->trace)
		return NULL;
	const char *slash = strrchr(r->trace, '/');
	return slash ? slash + 1 : r->trace;
}
