/* vmreport_explain.c - walk two per_event lists by event index and keep
 * the first events whose outcome or VMA count differ. */
#include "analysis/vmreport_explain.h"

#include <stdlib.h>
#include <string.h>

static bool same_event(const struct rep_event *a, const struct rep_event *b)
{
	return strcmp(a->outcome, b->outcome) == 0 && a->vma_count == b->vma_count;
}

int rep_explain_pair(const struct rep_table *t, size_t i, struct rep_explain *e)
{
	const struct rep_results *a = &t->in[0], *b = &t->in[i];
	const char *ta = rep_trace_name(a), *tb = rep_trace_name(b);
	memset(e, 0, sizeof(*e));
	if (ta && tb && strcmp(ta, tb)) {
		e->problem = "results of another trace: events cannot be compared";
		return 0;
	}
	if (!a->has_events || !b->has_events) {
		e->problem = "no per-event results (replay with vmreplay --per-event)";
		return 0;
	}
	e->first = calloc(t->opt->explain ? t->opt->explain : 1, sizeof(*e->first));
	if (!e->first)
		return -1;
	size_t x = 0, y = 0;
	while (x < a->nevents || y < b->nevents) {
		const struct rep_event *ea = x < a->nevents ? &a->events[x] : NULL;
		const struct rep_event *eb = y < b->nevents ? &b->events[y] : NULL;
		if (ea && eb && ea->i == eb->i) {
			x++, y++;
		} else if (ea && (!eb || ea->i < eb->i)) {
			x++, eb = NULL;
		} else {
			y++, ea = NULL;
		}
		e->compared++;
		if (ea && eb && same_event(ea, eb))
			continue;
		if (e->nfirst < (size_t)t->opt->explain)
			e->first[e->nfirst++] = (struct rep_divergence){ ea, eb };
		e->differ++;
	}
	return 0;
}

void rep_explain_free(struct rep_explain *e)
{
	free(e->first);
	memset(e, 0, sizeof(*e));
}

/* CALL: the side's own strace line, when it differs from the one above. */
static void side_text(FILE *f, const char *label, const struct rep_event *ev, const char *call,
		      bool markdown)
{
	fprintf(f, markdown ? "    - %s: " : "    %-16s ", label);
	if (!ev) {
		fputs("(no such event)\n", f);
		return;
	}
	fprintf(f, "%-11s vma_count %lld", ev->outcome, ev->vma_count);
	if (ev->err) {
		const char *name = strerrorname_np(ev->err);
		if (name)
			fprintf(f, "  errno %s", name);
		else
			fprintf(f, "  errno %d", ev->err);
	}
	if (ev->rule)
		fprintf(f, "  rule: %s", ev->rule);
	fputc('\n', f);
	if (call)
		fprintf(f, markdown ? "      - `%s`\n" : "                     %s\n", call);
}

void rep_explain_text(FILE *f, const struct rep_table *t, bool markdown)
{
	fputs(markdown ? "\n#### Divergence\n\n" : "\n", f);
	for (size_t i = 1; i < t->nin; i++) {
		struct rep_explain e;
		if (rep_explain_pair(t, i, &e)) {
			fprintf(stderr, "vmreport: out of memory\n");
			return;
		}
		fprintf(f, "explain: %s against %s (#%zu, %s): ", t->labels[i], t->labels[0],
			i + 1, t->in[i].path);
		if (e.problem)
			fprintf(f, "%s\n", e.problem);
		else if (!e.differ)
			fprintf(f, "all %zu events agree\n", e.compared);
		else if (e.nfirst < e.differ)
			fprintf(f, "%zu of %zu events differ; the first %zu:\n", e.differ,
				e.compared, e.nfirst);
		else
			fprintf(f, "%zu of %zu events differ:\n", e.differ, e.compared);
		if (markdown && e.nfirst)
			fputc('\n', f);
		for (size_t k = 0; k < e.nfirst; k++) {
			const struct rep_divergence *d = &e.first[k];
			const struct rep_event *any = d->base ? d->base : d->other;
			const char *call = any->call ? any->call : any->op ? any->op : "?";
			fprintf(f, markdown ? "  - event %lld: `%s`\n" : "  event %lld: %s\n",
				any->i, call);
			const char *own = d->base && d->other && d->other->call &&
				(!d->base->call || strcmp(d->base->call, d->other->call)) ? d->other->call : NULL;
			side_text(f, t->labels[0], d->base, NULL, markdown);
			side_text(f, t->labels[i], d->other, own, markdown);
		}
		rep_explain_free(&e);
	}
}

static void side_json(struct json_w *w, const struct rep_event *ev)
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
	json_w_key(w, "errno");
	json_w_int(w, ev->err);
	json_w_key(w, "rule");
	json_w_str(w, ev->rule);
	json_w_end(w, '}');
}

void rep_explain_json(struct json_w *w, const struct rep_table *t)
{
	json_w_begin(w, '[');
	for (size_t i = 1; i < t->nin; i++) {
		struct rep_explain e;
		if (rep_explain_pair(t, i, &e))
			break;
		json_w_begin(w, '{');
		json_w_key(w, "input");
		json_w_int(w, (long long)i);
		json_w_key(w, "problem");
		json_w_str(w, e.problem);
		json_w_key(w, "events_compared");
		json_w_int(w, (long long)e.compared);
		json_w_key(w, "events_differing");
		json_w_int(w, (long long)e.differ);
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
			side_json(w, d->base);
			json_w_key(w, "other");
			side_json(w, d->other);
			json_w_end(w, '}');
		}
		json_w_end(w, ']');
		json_w_end(w, '}');
		rep_explain_free(&e);
	}
	json_w_end(w, ']');
}
