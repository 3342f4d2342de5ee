/* vmreport_explain.c - walk two per_event lists by event index and keep
 * the first events whose outcome, VMA count or modelled cost differ;
 * print them with the rule behind a cost and their recorded call stacks
 * when the trace has them. */
#include "analysis/vmreport_explain.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/vmreport_md.h"
#include "analysis/vmreport_stacks.h"

/* The last VMA count seen in each process of one results file. */
struct last_counts {
	long long *pid, *count;
	size_t n, cap;
};

/* What EV did to its process's VMA count; REP_NO_DELTA for the first event
 * of a process and when a count is unknown. */
static long long vma_delta(struct last_counts *lc, const struct rep_event *ev)
{
	size_t k;
	for (k = 0; k < lc->n && lc->pid[k] != ev->pid; k++)
		;
	if (k == lc->n) {
		if (lc->n == lc->cap) {
			size_t nc = lc->cap ? lc->cap * 2 : 16;
			long long *p = realloc(lc->pid, nc * sizeof(*p));
			if (p)
				lc->pid = p;
			long long *c = realloc(lc->count, nc * sizeof(*c));
			if (c)
				lc->count = c;
			if (!p || !c)
				return REP_NO_DELTA;
			lc->cap = nc;
		}
		lc->pid[k] = ev->pid;
		lc->count[k] = -1;
		lc->n++;
	}
	long long before = lc->count[k];
	lc->count[k] = ev->vma_count;
	return before < 0 || ev->vma_count < 0 ? REP_NO_DELTA : ev->vma_count - before;
}

/* count NAME of EV's modelled cost: 0 when it has none */
static long long count_of(const struct rep_event *ev, const char *name)
{
	for (unsigned k = 0; ev && k < ev->nmodel; k++)
		if (strcmp(ev->model[k].name, name) == 0)
			return ev->model[k].v;
	return 0;
}

static bool costs_differ(const struct rep_event *a, const struct rep_event *b)
{
	for (unsigned k = 0; k < a->nmodel; k++)
		if (a->model[k].v != count_of(b, a->model[k].name))
			return true;
	for (unsigned k = 0; k < b->nmodel; k++)
		if (b->model[k].v != count_of(a, b->model[k].name))
			return true;
	return false;
}

static bool cites(const struct rep_event *ev, const char *rule)
{
	for (unsigned k = 0; ev && k < ev->ncited; k++)
		if (strcmp(ev->cited[k], rule) == 0)
			return true;
	return false;
}

/* a rule one cites and the other does not */
static bool cited_differ(const struct rep_event *a, const struct rep_event *b)
{
	for (unsigned k = 0; k < a->ncited; k++)
		if (!cites(b, a->cited[k]))
			return true;
	for (unsigned k = 0; k < b->ncited; k++)
		if (!cites(a, b->cited[k]))
			return true;
	return false;
}

/* Why input I's events cannot be compared with the first's, or NULL. */
static const char *problem(const struct rep_table *t, size_t i)
{
	const struct rep_results *a = &t->in[0], *b = &t->in[i];
	const char *ta = rep_trace_name(a), *tb = rep_trace_name(b);
	if (ta && tb && strcmp(ta, tb))
		return "results of another trace: events cannot be compared";
	if (!a->has_events || !b->has_events)
		return "no per-event results (replay with vmreplay --per-event)";
	return NULL;
}

/* The event whose cited rules are the latest to differ between the sides:
 * its index and rules, copied (the cursor's event lasts one step). */
struct why {
	struct rep_event ev;
	const char *cited[REP_MAX_MODEL];
	bool set;
};

static void why_set(struct why *w, const struct rep_event *ev)
{
	w->ev = (struct rep_event){ .i = ev->i, .op = ev->op, .outcome = ev->outcome, .pid = ev->pid,
				    .vma_count = ev->vma_count, .cited = w->cited, .ncited = ev->ncited };
	memcpy(w->cited, ev->cited, ev->ncited * sizeof(*ev->cited));
	w->set = true;
}

/* Walks the events of input I and the first by index, reading both from
 * their files in step: counts into E, keeps copies of the first
 * t->opt->explain that differ in E->first when it is allocated, and hands
 * each that differs to FN when it is not NULL (its events last the call).
 * 0, or -1 when out of memory. */
static int walk(const struct rep_table *t, size_t i, struct rep_explain *e, rep_divergence_fn *fn,
		void *arg)
{
	const struct rep_results *a = &t->in[0], *b = &t->in[i];
	e->costs = a->has_model && b->has_model;
	/* The rules behind a cost that differs: the ones the sides cite
	 * differently at that event, else at the nearest earlier event where
	 * they do (a rule that placed a mapping elsewhere shows in the cost of
	 * the calls that follow). */
	struct why *why = calloc(2, sizeof(*why));
	struct last_counts la = { 0 }, lb = { 0 };
	struct rep_cursor ca, cb;
	int rc = why ? 0 : -1;
	rep_cursor_open(&ca, a);
	rep_cursor_open(&cb, b);
	const struct rep_event *na = rep_cursor_next(&ca), *nb = rep_cursor_next(&cb);
	while (!rc && (na || nb)) {
		const struct rep_event *ea = na, *eb = nb;
		if (ea && eb && ea->i == eb->i)
			;
		else if (ea && (!eb || ea->i < eb->i))
			eb = NULL;
		else
			ea = NULL;
		e->compared++;
		long long da = ea ? vma_delta(&la, ea) : REP_NO_DELTA;
		long long db = eb ? vma_delta(&lb, eb) : REP_NO_DELTA;
		bool count_differs = !ea || !eb || ea->vma_count != eb->vma_count;
		e->count_differs += count_differs;
		/* without a delta (a process's first event), the counts decide */
		bool same_change = da == REP_NO_DELTA || db == REP_NO_DELTA ? !count_differs : da == db;
		bool cost = e->costs && ea && eb && costs_differ(ea, eb);
		e->cost_differs += cost;
		if (e->costs && ea && eb && cited_differ(ea, eb)) {
			why_set(&why[0], ea);
			why_set(&why[1], eb);
		}
		bool layout = !ea || !eb || strcmp(ea->outcome, eb->outcome) || !same_change;
		if (layout || cost) {
			bool why_too = cost && why[0].set;
			struct rep_divergence d = { ea, eb, da, db, cost, layout,
						    why_too ? &why[0].ev : NULL, why_too ? &why[1].ev : NULL };
			if (fn)
				fn(&d, arg);
			if (e->first && e->nfirst < (size_t)t->opt->explain) {
				struct rep_divergence *k = &e->first[e->nfirst++];
				*k = d;
				if ((ea && !(k->base = rep_event_keep(&e->arena, ea))) ||
				    (eb && !(k->other = rep_event_keep(&e->arena, eb))) ||
				    (why_too && !(k->why_base = rep_event_keep(&e->arena, &why[0].ev))) ||
				    (why_too && !(k->why_other = rep_event_keep(&e->arena, &why[1].ev))))
					rc = -1;
			}
			e->differ++;
		}
		if (ea)
			na = rep_cursor_next(&ca);
		if (eb)
			nb = rep_cursor_next(&cb);
	}
	rep_cursor_close(&ca);
	rep_cursor_close(&cb);
	free(why);
	free(la.pid);
	free(la.count);
	free(lb.pid);
	free(lb.count);
	return rc;
}

int rep_explain_pair(const struct rep_table *t, size_t i, struct rep_explain *e)
{
	memset(e, 0, sizeof(*e));
	if ((e->problem = problem(t, i)))
		return 0;
	e->first = calloc(t->opt->explain ? t->opt->explain : 1, sizeof(*e->first));
	if (!e->first)
		return -1;
	return walk(t, i, e, NULL, NULL);
}

bool rep_explain_each(const struct rep_table *t, size_t i, rep_divergence_fn *fn, void *arg)
{
	struct rep_explain e = { 0 };
	if (problem(t, i))
		return false;
	if (walk(t, i, &e, fn, arg))
		fputs("vmreport: out of memory: some divergences are not marked\n", stderr);
	return true;
}

void rep_explain_free(struct rep_explain *e)
{
	free(e->first);
	rep_arena_free(&e->arena);
	memset(e, 0, sizeof(*e));
}

/* Every input against the first, and the stacks of the events listed. */
struct explain_all {
	struct rep_explain *ex;      /* [1, nin) */
	size_t nin;
	struct rep_stacks stacks;
};

static void explain_all_free(struct explain_all *a)
{
	for (size_t i = 1; a->ex && i < a->nin; i++)
		rep_explain_free(&a->ex[i]);
	free(a->ex);
	rep_stacks_free(&a->stacks);
}

/* The trace to read stacks from: --stacks=TRACE, else the table's. */
static const char *pick_trace(const struct rep_table *t, char *buf, size_t len)
{
	return t->opt->stacks_trace ? t->opt->stacks_trace : rep_table_trace(t, buf, len);
}

/* A trace that cannot be read costs one note and the stacks, never the report. */
static void load_stacks(const struct rep_table *t, struct explain_all *a)
{
	char buf[PATH_MAX], err[PATH_MAX + 256];
	for (size_t i = 1; i < a->nin; i++)
		for (size_t k = 0; k < a->ex[i].nfirst; k++) {
			const struct rep_divergence *d = &a->ex[i].first[k];
			const struct rep_event *any = d->base ? d->base : d->other;
			if (rep_stacks_want(&a->stacks, any)) {
				fputs("vmreport: note: --explain shows no stacks: out of memory\n", stderr);
				return;
			}
		}
	if (!a->stacks.n)
		return;
	const char *trace = pick_trace(t, buf, sizeof(buf));
	if (!trace)
		fputs("vmreport: note: --explain shows no stacks: the results name no trace "
		      "(--stacks=TRACE names it)\n", stderr);
	else if (rep_stacks_load(&a->stacks, trace, err, sizeof(err)))
		fprintf(stderr, "vmreport: note: --explain shows no stacks: %s\n", err);
	else if (!a->stacks.any && t->opt->stacks == REP_STACKS_ON)
		fprintf(stderr, "vmreport: note: --explain shows no stacks: %s: the events listed "
			"have none (record with vmrec --stacks)\n", trace);
}

/* 0, or -1 when out of memory. */
static int explain_all(const struct rep_table *t, struct explain_all *a)
{
	memset(a, 0, sizeof(*a));
	a->nin = t->nin;
	if (!(a->ex = calloc(t->nin, sizeof(*a->ex))))
		return -1;
	for (size_t i = 1; i < t->nin; i++)
		if (rep_explain_pair(t, i, &a->ex[i])) {
			a->nin = i;
			return -1;
		}
	if (t->opt->stacks != REP_STACKS_OFF)
		load_stacks(t, a);
	return 0;
}

/* FRAMES (lines " > ...") under the event they belong to. */
static void stack_text(FILE *f, const char *frames, bool markdown)
{
	char fence[64];
	rep_md_fence(fence, sizeof(fence), frames);
	if (markdown)
		fprintf(f, "    - stack:\n\n      %s\n", fence);
	for (const char *l = frames, *nl; *l; l = nl + 1) {
		nl = strchrnul(l, '\n');
		fprintf(f, "%s%.*s\n", markdown ? "     " : "   ", (int)(nl - l), l);
		if (!*nl)
			break;
	}
	if (markdown)
		fprintf(f, "      %s\n", fence);
}

/* CALL: the side's own strace line, when it differs from the one above. */
static void side_text(FILE *f, const char *label, const struct rep_event *ev, long long delta,
		      const char *call, bool markdown)
{
	if (markdown) {
		fputs("    - ", f);
		rep_md_text(f, label);
		fputs(": ", f);
	} else {
		fprintf(f, "    %-16s ", label);
	}
	if (!ev) {
		fputs("(no such event)\n", f);
		return;
	}
	char d[32] = "";
	if (delta != REP_NO_DELTA)
		snprintf(d, sizeof(d), " (%+lld)", delta);
	bool more = ev->err || (ev->rule && ev->rule[0]);
	if (markdown) {   /* the text's columns, the outcome escaped */
		rep_md_text(f, ev->outcome);
		fprintf(f, "%*s vma_count %lld", (int)(11 - (strlen(ev->outcome) < 11 ? strlen(ev->outcome) : 11)),
			"", ev->vma_count);
		fprintf(f, more ? "%-6s" : "%s", d);
	} else {
		fprintf(f, more ? "%-11s vma_count %lld%-6s" : "%-11s vma_count %lld%s", ev->outcome,
			ev->vma_count, d);
	}
	if (ev->err) {
		const char *name = strerrorname_np(ev->err);
		if (name)
			fprintf(f, "  errno %s", name);
		else
			fprintf(f, "  errno %d", ev->err);
	}
	if (ev->rule && ev->rule[0] && markdown) {
		fputs("  rule: ", f);
		rep_md_text(f, ev->rule);
	} else if (ev->rule && ev->rule[0]) {
		fprintf(f, "  rule: %s", ev->rule);
	}
	fputc('\n', f);
	if (call && markdown) {
		fputs("      - ", f);
		rep_md_code(f, call, false);
		fputc('\n', f);
	} else if (call) {
		fprintf(f, "                     %s\n", call);
	}
}

/* "mt_prealloc 0 -> 1, mt_nodes 0 -> 7": the counts that differ */
static void cost_text(FILE *f, const struct rep_divergence *d, bool markdown)
{
	const char *sep = "";
	fprintf(f, markdown ? "    - %s: " : "    %-16s ", "modelled cost");
	for (int side = 0; side < 2; side++) {
		const struct rep_event *ev = side ? d->other : d->base, *o = side ? d->base : d->other;
		for (unsigned k = 0; k < ev->nmodel; k++) {
			const char *name = ev->model[k].name;
			if ((side && count_of(o, name)) || count_of(d->base, name) == count_of(d->other, name))
				continue;   /* listed from the base side, or the same */
			fputs(sep, f);
			if (markdown)
				rep_md_text(f, name);
			else
				fputs(name, f);
			fprintf(f, " %lld -> %lld", count_of(d->base, name), count_of(d->other, name));
			sep = ", ";
		}
	}
	fputc('\n', f);
}

/* "C1 28c5609fb2 (sim:6.4)": each rule one side cites and the other not */
static void cost_rule_text(FILE *f, const struct rep_table *t, size_t in, const struct rep_divergence *d,
			   bool markdown)
{
	const char *sep = "";
	fprintf(f, markdown ? "    - %s: " : "    %-16s ", "cost rule");
	if (!d->why_base) {
		fputs("none: the sides cite the same rules here and before\n", f);
		return;
	}
	for (int side = 0; side < 2; side++) {
		const struct rep_event *ev = side ? d->why_other : d->why_base, *o = side ? d->why_base : d->why_other;
		for (unsigned k = 0; k < ev->ncited; k++)
			if (!cites(o, ev->cited[k]) && markdown) {
				fputs(sep, f);
				rep_md_code(f, ev->cited[k], false);
				fputs(" (", f);
				rep_md_text(f, t->labels[side ? in : 0]);
				fputs(" only)", f);
				sep = ", ";
			} else if (!cites(o, ev->cited[k])) {
				fprintf(f, "%s%s (%s only)", sep, ev->cited[k], t->labels[side ? in : 0]);
				sep = ", ";
			}
	}
	const struct rep_event *any = d->base ? d->base : d->other;
	if (d->why_base->i != any->i)
		fprintf(f, ", cited at event %lld", d->why_base->i);
	fputc('\n', f);
}

void rep_explain_text(FILE *f, const struct rep_table *t, bool markdown)
{
	fputs(markdown ? "\n#### Divergence\n\n" : "\n", f);
	struct explain_all a;
	if (explain_all(t, &a)) {
		fprintf(stderr, "vmreport: out of memory\n");
		explain_all_free(&a);
		return;
	}
	for (size_t i = 1; i < t->nin; i++) {
		const struct rep_explain e = a.ex[i];
		if (markdown) {
			fputs("explain: ", f);
			rep_md_text(f, t->labels[i]);
			fputs(" against ", f);
			rep_md_text(f, t->labels[0]);
			fprintf(f, " (#%zu, ", i + 1);
			rep_md_text(f, t->in[i].path);
			fputs("): ", f);
		} else {
			fprintf(f, "explain: %s against %s (#%zu, %s): ", t->labels[i], t->labels[0],
				i + 1, t->in[i].path);
		}
		if (e.problem && markdown) {
			rep_md_text(f, e.problem);
			fputc('\n', f);
		} else if (e.problem)
			fprintf(f, "%s\n", e.problem);
		else if (!e.differ)
			fprintf(f, "all %zu events agree\n", e.compared);
		else if (e.costs)
			fprintf(f, "%zu of %zu events differ in outcome, in the VMAs they add or "
				"remove or in modelled cost (%zu end with another VMA count, %zu differ "
				"in cost)%s", e.differ, e.compared, e.count_differs, e.cost_differs,
				e.nfirst < e.differ ? "; the first" : ":\n");
		else
			fprintf(f, "%zu of %zu events differ in outcome or in the VMAs they add or "
				"remove (%zu end with another VMA count)%s", e.differ, e.compared,
				e.count_differs, e.nfirst < e.differ ? "; the first" : ":\n");
		if (e.nfirst && e.nfirst < e.differ)
			fprintf(f, " %zu:\n", e.nfirst);
		if (markdown && e.nfirst)
			fputc('\n', f);
		for (size_t k = 0; k < e.nfirst; k++) {
			const struct rep_divergence *d = &e.first[k];
			const struct rep_event *any = d->base ? d->base : d->other;
			const char *call = any->call ? any->call : any->op ? any->op : "?";
			if (markdown) {
				fprintf(f, "  - event %lld: ", any->i);
				rep_md_code(f, call, false);
				fputc('\n', f);
			} else {
				fprintf(f, "  event %lld: %s\n", any->i, call);
			}
			const char *own = d->base && d->other && d->other->call &&
				(!d->base->call || strcmp(d->base->call, d->other->call)) ? d->other->call : NULL;
			side_text(f, t->labels[0], d->base, d->dbase, NULL, markdown);
			side_text(f, t->labels[i], d->other, d->dother, own, markdown);
			if (d->cost_differs) {
				cost_text(f, d, markdown);
				cost_rule_text(f, t, i, d, markdown);
			}
			const char *frames = rep_stacks_of(&a.stacks, any->i);
			if (frames)
				stack_text(f, frames, markdown);
		}
	}
	explain_all_free(&a);
}

static void side_json(struct json_w *w, const struct rep_event *ev, long long delta)
{
	if (!ev) {
		json_w_null(w);
		return;
	}
	json_w_begin(w, '{');
	json_w_key(w, "outcome");
	json_w_str(w, ev->outcome);
	json_w_key(w, "vma_count");
	json_w_int(w, ev->vma_count);
	json_w_key(w, "vma_delta");
	if (delta == REP_NO_DELTA)
		json_w_null(w);
	else
		json_w_int(w, delta);
	json_w_key(w, "errno");
	json_w_int(w, ev->err);
	json_w_key(w, "rule");
	json_w_str(w, ev->rule);
	json_w_end(w, '}');
}

/* [{"count": "mt_prealloc", "base": 0, "other": 1}, ...], or null */
static void cost_json(struct json_w *w, const struct rep_divergence *d)
{
	if (!d->cost_differs) {
		json_w_null(w);
		return;
	}
	json_w_begin(w, '[');
	for (int side = 0; side < 2; side++) {
		const struct rep_event *ev = side ? d->other : d->base, *o = side ? d->base : d->other;
		for (unsigned k = 0; k < ev->nmodel; k++) {
			const char *name = ev->model[k].name;
			if ((side && count_of(o, name)) || count_of(d->base, name) == count_of(d->other, name))
				continue;
			json_w_begin(w, '{');
			json_w_key(w, "count");
			json_w_str(w, name);
			json_w_key(w, "base");
			json_w_int(w, count_of(d->base, name));
			json_w_key(w, "other");
			json_w_int(w, count_of(d->other, name));
			json_w_end(w, '}');
		}
	}
	json_w_end(w, ']');
}

/* [{"rule": "C1 28c5609fb2", "cited_by": "other", "at_event": 5}, ...] */
static void cost_rules_json(struct json_w *w, const struct rep_divergence *d)
{
	if (!d->cost_differs) {
		json_w_null(w);
		return;
	}
	json_w_begin(w, '[');
	for (int side = 0; d->why_base && side < 2; side++) {
		const struct rep_event *ev = side ? d->why_other : d->why_base, *o = side ? d->why_base : d->why_other;
		for (unsigned k = 0; k < ev->ncited; k++)
			if (!cites(o, ev->cited[k])) {
				json_w_begin(w, '{');
				json_w_key(w, "rule");
				json_w_str(w, ev->cited[k]);
				json_w_key(w, "cited_by");
				json_w_str(w, side ? "other" : "base");
				json_w_key(w, "at_event");
				json_w_int(w, ev->i);
				json_w_end(w, '}');
			}
	}
	json_w_end(w, ']');
}

/* The frames without strace's " > ", or null. */
static void stack_json(struct json_w *w, const char *frames)
{
	if (!frames) {
		json_w_null(w);
		return;
	}
	json_w_begin(w, '[');
	for (const char *l = frames, *nl; *l; l = nl + 1) {
		nl = strchrnul(l, '\n');
		size_t skip = strncmp(l, " > ", 3) ? 0 : 3;
		char *line = strndup(l + skip, (size_t)(nl - l) - skip);
		json_w_str(w, line ? line : "");
		free(line);
		if (!*nl)
			break;
	}
	json_w_end(w, ']');
}

void rep_explain_json(struct json_w *w, const struct rep_table *t)
{
	struct explain_all a;
	int failed = explain_all(t, &a);
	json_w_begin(w, '[');
	for (size_t i = 1; !failed && i < t->nin; i++) {
		const struct rep_explain e = a.ex[i];
		json_w_begin(w, '{');
		json_w_key(w, "input");
		json_w_int(w, (long long)i);
		json_w_key(w, "problem");
		json_w_str(w, e.problem);
		json_w_key(w, "events_compared");
		json_w_int(w, (long long)e.compared);
		json_w_key(w, "events_differing");
		json_w_int(w, (long long)e.differ);
		json_w_key(w, "events_ending_with_another_vma_count");
		json_w_int(w, (long long)e.count_differs);
		json_w_key(w, "events_differing_in_cost");
		if (e.costs)
			json_w_int(w, (long long)e.cost_differs);
		else
			json_w_null(w);
		json_w_key(w, "first");
		json_w_begin(w, '[');
		for (size_t k = 0; k < e.nfirst; k++) {
			const struct rep_divergence *d = &e.first[k];
			const struct rep_event *any = d->base ? d->base : d->other;
			json_w_begin(w, '{');
			json_w_key(w, "i");
			json_w_int(w, any->i);
			json_w_key(w, "op");
			json_w_str(w, any->op);
			json_w_key(w, "call");
			json_w_str(w, any->call);
			json_w_key(w, "base");
			side_json(w, d->base, d->dbase);
			json_w_key(w, "other");
			side_json(w, d->other, d->dother);
			json_w_key(w, "cost");
			cost_json(w, d);
			json_w_key(w, "cost_rules");
			cost_rules_json(w, d);
			json_w_key(w, "stack");
			stack_json(w, rep_stacks_of(&a.stacks, any->i));
			json_w_end(w, '}');
		}
		json_w_end(w, ']');
		json_w_end(w, '}');
	}
	json_w_end(w, ']');
	explain_all_free(&a);
}
