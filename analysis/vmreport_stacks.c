/* vmreport_stacks.c - one pass over a trace in seq order that stops at the
 * last wanted event: STACK records are kept by (pid, id) as they come (an
 * event refers to a stack recorded before it), MODULE and PROCESS records
 * feed the symboliser, and the wanted events pick their stacks. */
#include "analysis/vmreport_stacks.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/errmsg.h"
#include "lib/stack_map.h"
#include "lib/symbolize.h"
#include "vmt.h"

int rep_stacks_want(struct rep_stacks *s, const struct rep_event *ev)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct rep_stack *ev = realloc(s->ev, cap * sizeof(*ev));
		if (!ev)
			return -1;
		s->ev = ev;
		s->cap = cap;
	}
	s->ev[s->n++] = (struct rep_stack){ .i = ev->i, .op = ev->op, .pid = ev->pid };
	return 0;
}

static int by_index(const void *a, const void *b)
{
	long long x = ((const struct rep_stack *)a)->i, y = ((const struct rep_stack *)b)->i;
	return (x > y) - (x < y);
}

/* Sorts the wanted events and drops repeats (several comparisons may
 * diverge at one event). */
static void sort_wanted(struct rep_stacks *s)
{
	if (!s->n)
		return;
	qsort(s->ev, s->n, sizeof(*s->ev), by_index);
	size_t k = 1;
	for (size_t j = 1; j < s->n; j++)
		if (s->ev[j].i != s->ev[k - 1].i)
			s->ev[k++] = s->ev[j];
	s->n = k;
}

/* A wanted event found in the trace: its pid and a copy of its stack. */
struct found {
	int32_t pid;
	uint32_t depth;
	uint64_t *ips;
};

/* Reads until every wanted event is found.  0, or -1 with ERR set. */
static int scan(struct rep_stacks *s, const char *trace, struct sym_session *sym,
		struct found *fd, char *err, size_t errlen)
{
	struct vmt_reader_prefs prefs = { .order = VMT_ORDER_SEQ };
	int rc = 0;
	struct vmt_reader *r = vmt_reader_open(trace, &prefs, &rc);
	if (!r)
		return errmsg(err, errlen, "%s", vmt_reader_open_error());
	struct stack_map map = { 0 };
	struct vmt_record rec;
	size_t k = 0;
	long long idx = 0;
	bool failed = false;	/* ERR already says why */
	while (!failed && k < s->n && (rc = vmt_reader_next(r, &rec)) > 0) {
		if (rec.type == VMT_REC_MODULE)
			failed = sym_add_module(sym, &rec.u.module) < 0;
		else if (rec.type == VMT_REC_PROCESS)
			sym_add_process(sym, &rec.u.process);
		else if (rec.type == VMT_REC_STACK)
			failed = stack_map_put(&map, &rec.u.stack) < 0;
		if (failed)
			snprintf(err, errlen, "%s: out of memory", trace);
		if (failed || rec.type != VMT_REC_EVENT)
			continue;
		const struct vmt_event *ev = &rec.u.event;
		for (; k < s->n && s->ev[k].i < idx; k++)
			;	/* a negative index from a hand-made results file */
		if (k < s->n && s->ev[k].i == idx) {
			const struct rep_stack *want = &s->ev[k];
			const char *name = vmt_sys_key(ev->sys);   /* as the results name it */
			if (!name)
				name = "?";
			if ((want->op && strcmp(want->op, name)) || (want->pid && want->pid != ev->pid)) {
				snprintf(err, errlen, "%s: event %lld is %s of pid %d, the results say "
					 "%s of pid %lld: not the trace they were replayed from", trace,
					 idx, name, ev->pid, want->op ? want->op : "?", want->pid);
				failed = true;
				continue;
			}
			const struct stack_slot *st = stack_map_get(&map, ev->pid, ev->stack_id);
			fd[k].pid = ev->pid;
			if (st && st->depth && (fd[k].ips = malloc(st->depth * sizeof(*st->ips)))) {
				memcpy(fd[k].ips, st->ips, st->depth * sizeof(*st->ips));
				fd[k].depth = st->depth;
			}
			k++;
		}
		idx++;
	}
	if (!failed && rc < 0) {
		snprintf(err, errlen, "%s", vmt_reader_error(r));
		failed = true;
	} else if (!failed && k < s->n) {
		snprintf(err, errlen, "%s: ends after %lld events, the results name event %lld: "
			 "not the trace they were replayed from", trace, idx, s->ev[s->n - 1].i);
		failed = true;
	}
	vmt_reader_close(r);
	stack_map_free(&map);
	return failed ? -1 : 0;
}

/* sym_print_stack's lines for one found event, or NULL. */
static char *print_frames(struct sym_session *sym, const struct found *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	if (!f->depth || !(m = open_memstream(&text, &len)))
		return NULL;
	sym_print_stack(sym, m, f->pid, f->ips, f->depth);
	if (fclose(m) || !len) {
		free(text);
		return NULL;
	}
	return text;
}

int rep_stacks_load(struct rep_stacks *s, const char *trace, char *err, size_t errlen)
{
	sort_wanted(s);
	if (!s->n)
		return 0;
	/* No cache: ours would know only the modules before the last wanted
	 * event, and overwrite the whole trace's cache that vmtrace keeps. */
	struct sym_session *sym = sym_new(NULL);
	struct found *fd = calloc(s->n, sizeof(*fd));
	int rc = -1;
	if (!sym || !fd)
		snprintf(err, errlen, "%s: out of memory", trace);
	else
		rc = scan(s, trace, sym, fd, err, errlen);
	if (!rc) {
		/* notes on missing debug info speak of file:line, which strace -k
		 * frames do not show; a missing binary shows as module() */
		sym_set_notes(sym, NULL);
		for (size_t k = 0; k < s->n; k++)
			s->any |= (s->ev[k].frames = print_frames(sym, &fd[k])) != NULL;
	}
	for (size_t k = 0; fd && k < s->n; k++)
		free(fd[k].ips);
	free(fd);
	if (sym)
		sym_close(sym);
	return rc;
}

const char *rep_stacks_of(const struct rep_stacks *s, long long i)
{
	struct rep_stack key = { .i = i };
	const struct rep_stack *ev = s->any ? bsearch(&key, s->ev, s->n, sizeof(*s->ev), by_index)
					    : NULL;
	return ev ? ev->frames : NULL;
}

void rep_stacks_free(struct rep_stacks *s)
{
	for (size_t k = 0; k < s->n; k++)
		free(s->ev[k].frames);
	free(s->ev);
	memset(s, 0, sizeof(*s));
}

const char *rep_stacks_trace_path(const struct rep_results *r, char *buf, size_t len)
{
	if (!r->trace || !r->trace[0])
		return NULL;
	if (access(r->trace, F_OK) == 0)
		return r->trace;
	const char *slash = strrchr(r->path, '/');
	const char *base = rep_trace_name(r);
	int n = slash ? snprintf(buf, len, "%.*s/%s", (int)(slash - r->path), r->path, base)
		      : snprintf(buf, len, "%s", base);
	if (strcmp(r->path, "-") && n > 0 && (size_t)n < len && access(buf, F_OK) == 0)
		return buf;
	return r->trace;
}
