/* vmreport_stacks.h - the recorded call stacks of the events --explain
 * lists, read from the trace the results were replayed from and printed
 * as `strace -k` does (lib/symbolize.h). */
#ifndef VMREC_VMREPORT_STACKS_H
#define VMREC_VMREPORT_STACKS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/vmreport_results.h"

struct rep_stack {
	long long i;       /* event index in the trace: global seq order, from 0 */
	const char *op;    /* the results' name of its call, checked against the trace; may be NULL */
	long long pid;     /* the results' pid of it, checked too unless 0 */
	char *frames;      /* " > module(func+0xoff) [0xrel]\n" lines; NULL: none recorded */
};

struct rep_stacks {
	struct rep_stack *ev;  /* sorted by i once loaded */
	size_t n, cap;
	bool any;              /* some wanted event has a stack */
};

/* Asks for the stack of event EV.  0, or -1 when out of memory. */
int rep_stacks_want(struct rep_stacks *s, const struct rep_event *ev);

/* Streams TRACE in seq order up to the last wanted event and keeps the
 * wanted events' stacks, symbolised.  0, or -1 with a one-line reason
 * naming the file in ERR, and then no stacks at all. */
int rep_stacks_load(struct rep_stacks *s, const char *trace, char *err, size_t errlen);

/* The frames of event I, or NULL. */
const char *rep_stacks_of(const struct rep_stacks *s, long long i);

void rep_stacks_free(struct rep_stacks *s);

/* The trace R names, as given when that file exists, else its base name
 * beside the results file when that exists, else as given (so the error
 * names it); NULL when R names none.  BUF holds the second form. */
const char *rep_stacks_trace_path(const struct rep_results *r, char *buf, size_t len);

#endif
