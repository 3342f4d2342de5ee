/* vmreport_results.c - read and check a results file.  Every problem is
 * reported as one line naming the field, so the caller can prefix the
 * file name and stop. */
#include "analysis/vmreport_results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vmt.h"

#define MAX_RESULTS_BYTES (1u << 30)

__attribute__((format(printf, 3, 4)))
static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static char *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		bad(err, errlen, "cannot open: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	size_t cap = 1 << 16, n = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (unsigned long long)st.st_size < MAX_RESULTS_BYTES)
		cap = (size_t)st.st_size + 1;	/* one more byte to see the end */
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = cap < MAX_RESULTS_BYTES ? realloc(buf, cap * 2) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			bad(err, errlen, "too large (over %u MiB)", MAX_RESULTS_BYTES >> 20);
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		bad(err, errlen, "read error: %s", strerror(errno));
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/* An optional string field: absent or null is fine, another type is not. */
static int opt_str(const struct json *doc, const char *key, const char **out,
		   char *err, size_t errlen)
{
	const struct json *v = json_get(doc, key);
	*out = NULL;
	if (!v || v->type == JSON_NULL)
		return 0;
	if (v->type != JSON_STRING)
		return bad(err, errlen, "\"%s\" is %s, not a string", key, json_type_name(v->type));
	*out = v->string;
	return 0;
}

/* V as a whole number within [LO, HI]; false when it is not one. */
static bool whole(const struct json *v, long long lo, long long hi, long long *out)
{
	if (!v || v->type != JSON_NUMBER || v->number != floor(v->number) ||
	    v->number < (double)lo || v->number > (double)hi)
		return false;
	*out = (long long)v->number;
	return true;
}

static const char *metric_name(size_t i, const void *arg)
{
	return ((const struct rep_results *)arg)->metrics[i].name;
}

static int load_metrics(struct rep_results *r, const struct json *m, char *err, size_t errlen)
{
	if (!m)
		return bad(err, errlen, "no \"metrics\" object");
	if (m->type != JSON_OBJECT)
		return bad(err, errlen, "\"metrics\" is %s, not an object", json_type_name(m->type));
	r->metrics = calloc(m->n ? m->n : 1, sizeof(*r->metrics));
	if (!r->metrics)
		return bad(err, errlen, "out of memory");
	for (size_t i = 0; i < m->n; i++) {
		const struct json *a = m->items[i];
		struct rep_metric *rm = &r->metrics[r->nmetrics];
		if (a->type != JSON_ARRAY && a->type != JSON_NUMBER)
			return bad(err, errlen, "metric \"%s\" is %s, not an array of numbers",
				   m->keys[i], json_type_name(a->type));
		size_t cap = a->type == JSON_ARRAY && a->n ? a->n : 1;
		if (!(rm->v = malloc(cap * sizeof(double))))
			return bad(err, errlen, "out of memory");
		rm->name = m->keys[i];
		r->nmetrics++;
		if (a->type == JSON_NUMBER)	/* a single run written as a scalar */
			rm->v[rm->n++] = a->number;
		for (size_t k = 0; a->type == JSON_ARRAY && k < a->n; k++) {
			if (a->items[k]->type == JSON_NULL)
				continue;	/* a run that did not measure it */
			if (a->items[k]->type != JSON_NUMBER)
				return bad(err, errlen, "metric \"%s\" value %zu is %s, not a number",
					   m->keys[i], k + 1, json_type_name(a->items[k]->type));
			rm->v[rm->n++] = a->items[k]->number;
		}
		if (rm->n > r->runs)
			r->runs = rm->n;
		if (rep_metric_find(r, rm->name) == NULL &&
		    rep_names_add(&r->index, r->nmetrics - 1, metric_name, r))
			return bad(err, errlen, "out of memory");
	}
	return 0;
}

static int by_index(const void *a, const void *b)
{
	long long x = ((const struct rep_event *)a)->i, y = ((const struct rep_event *)b)->i;
	return (x > y) - (x < y);
}

static int load_events(struct rep_results *r, const struct json *pe, char *err, size_t errlen)
{
	if (!pe || pe->type == JSON_NULL)
		return 0;
	if (pe->type != JSON_ARRAY)
		return bad(err, errlen, "\"per_event\" is %s, not an array", json_type_name(pe->type));
	r->has_events = true;
	r->events = calloc(pe->n ? pe->n : 1, sizeof(*r->events));
	if (!r->events)
		return bad(err, errlen, "out of memory");
	for (size_t k = 0; k < pe->n; k++) {
		const struct json *e = pe->items[k];
		struct rep_event *re = &r->events[k];
		if (e->type != JSON_OBJECT)
			return bad(err, errlen, "per_event[%zu] is %s, not an object", k,
				   json_type_name(e->type));
		long long num;
		if (!whole(json_get(e, "i"), 0, 1LL << 53, &re->i))
			return bad(err, errlen, "per_event[%zu] has no event index \"i\"", k);
		re->op = json_get_str(e, "op");
		re->outcome = json_get_str(e, "outcome");
		re->call = json_get_str(e, "call");
		re->rule = json_get_str(e, "rule");
		if (!re->outcome)
			return bad(err, errlen, "per_event[%zu] (event %lld) has no \"outcome\"", k, re->i);
		re->vma_count = whole(json_get(e, "vma_count"), 0, 1LL << 53, &num) ? num : -1;
		re->err = whole(json_get(e, "errno"), 0, 4095, &num) ? (int)num : 0;
		re->pid = whole(json_get(e, "pid"), 0, 1LL << 32, &num) ? num : 0;
		r->nevents++;
	}
	/* --explain walks two lists in step; --threads may write them out of order */
	qsort(r->events, r->nevents, sizeof(*r->events), by_index);
	return 0;
}

static int check(struct rep_results *r, char *err, size_t errlen)
{
	const struct json *doc = r->doc, *ver = json_get(doc, "vmrec_results");
	if (doc->type != JSON_OBJECT)
		return bad(err, errlen, "not vmrec results (the document is %s, not an object)",
			   json_type_name(doc->type));
	if (!ver)
		return bad(err, errlen, "not vmrec results (no \"vmrec_results\" version field)");
	if (ver->type != JSON_NUMBER)
		return bad(err, errlen, "\"vmrec_results\" is %s, not a version number",
			   json_type_name(ver->type));
	if (ver->number != REP_SCHEMA_VERSION)
		return bad(err, errlen, "results schema version %g; this vmreport reads version %d",
			   ver->number, REP_SCHEMA_VERSION);
	if (opt_str(doc, "trace", &r->trace, err, errlen) ||
	    opt_str(doc, "target", &r->target, err, errlen) ||
	    opt_str(doc, "kernel", &r->kernel, err, errlen) ||
	    opt_str(doc, "vm", &r->vm, err, errlen) ||
	    opt_str(doc, "command", &r->command, err, errlen))
		return -1;
	if (!r->target)
		return bad(err, errlen, "no \"target\" (\"kernel\" or \"sim\")");
	if (strcmp(r->target, "kernel") && strcmp(r->target, "sim"))
		return bad(err, errlen, "target \"%s\" is neither \"kernel\" nor \"sim\"", r->target);
	r->sim = strcmp(r->target, "sim") == 0;
	if (!r->kernel)
		return bad(err, errlen, "no \"kernel\" (release or simulator profile)");
	r->host = json_get(doc, "host");
	if (r->host && r->host->type != JSON_OBJECT)
		r->host = NULL;
	const struct json *v = json_get(doc, "complete");
	r->incomplete = v && v->type == JSON_BOOL && !v->boolean;
	if (load_metrics(r, json_get(doc, "metrics"), err, errlen))
		return -1;
	long long runs;
	if (whole(json_get(doc, "runs"), 1, 1LL << 32, &runs))
		r->runs = (size_t)runs;
	return load_events(r, json_get(doc, "per_event"), err, errlen);
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

int rep_results_load(const char *path, struct rep_results *r, char *err, size_t errlen)
{
	size_t len;
	memset(r, 0, sizeof(*r));
	r->path = path;
	char *text = slurp(path, &len, err, errlen);
	if (!text)
		return -1;
	if (len == 0) {
		free(text);
		return bad(err, errlen, "empty file");
	}
	char jerr[160];
	r->doc = json_parse_owned(text, len, jerr, sizeof(jerr));
	if (!r->doc && is_trace(path))
		return bad(err, errlen, "a vmrec trace, not results: make results from it with "
			   "vmreplay --repeat 5 --json %s %s", results_name(path), path);
	if (!r->doc)
		return bad(err, errlen, "not valid JSON: %s", jerr);
	if (check(r, err, errlen)) {
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
	free(r->events);
	json_free(r->doc);
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
