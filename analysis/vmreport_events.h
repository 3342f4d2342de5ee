/* vmreport_events.h - the per_event rows of a results file, kept out of
 * memory.  Loading checks each row as lib/json.c streams it and appends it
 * in a compact binary form to an unlinked temporary file (TMPDIR, else
 * /tmp); a cursor reads the rows back in event order, one at a time, as
 * often as --explain and the plots walk them.  So vmreport's memory grows
 * with what it keeps (metrics, names, the events it lists), not with the
 * rows; docs/json.md says what this costs on disk. */
#ifndef VMREC_VMREPORT_EVENTS_H
#define VMREC_VMREPORT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rep_results;

/* Memory that never moves, freed at once. */
struct rep_arena {
	struct rep_chunk *chunks;
};
void *rep_arena_alloc(struct rep_arena *a, size_t n);   /* aligned for any row array */
const char *rep_arena_str(struct rep_arena *a, const char *s);
void rep_arena_free(struct rep_arena *a);

/* One count of an event's modelled cost ("model": {"mt_walk": 1}). */
struct rep_count {
	const char *name;
	long long v;
};

#define REP_MAX_MODEL 64   /* counts in "model", rules in "cited" */

struct rep_event {
	long long i;
	const char *op, *outcome, *call, *rule;   /* may be NULL */
	long long vma_count;                       /* -1 when absent */
	long long pid;                             /* 0 when absent */
	int err;
	/* the simulator's modelled cost of the event: its non-zero counts
	 * and the rules it cites ("C1 28c5609fb2"); model NULL when absent */
	const struct rep_count *model;
	const char *const *cited;
	unsigned nmodel, ncited;
};

/* A row as loading hands it over: each name as its number in the
 * results' word list plus one (0: none). */
struct rep_event_row {
	long long i, vma_count, pid;
	int err;
	uint32_t op, outcome, rule;
	const char *call;
	bool has_model;
	unsigned nmodel, ncited;
	uint32_t model_name[REP_MAX_MODEL], cited[REP_MAX_MODEL];
	long long model_v[REP_MAX_MODEL];
};

/* The temporary file of one results file's rows. */
struct rep_spill {
	bool open;               /* false before the first row: a zeroed spill is empty */
	int fd;
	char *buf;               /* rows not yet written */
	size_t len;
	off_t size;              /* bytes in the file */
	long long last_i;
	bool unsorted;           /* a row came before the one above it */
};

/* 0, or -1 with a one-line message (out of memory, no room in TMPDIR). */
int rep_spill_add(struct rep_spill *s, const struct rep_event_row *row, char *err, size_t errlen);
/* After the last row: writes what is buffered and puts the rows in event
 * order when they were not (only then the rows are held in memory). */
int rep_spill_end(struct rep_spill *s, char *err, size_t errlen);
void rep_spill_free(struct rep_spill *s);

/* Reads R's rows in event order.  An event from rep_cursor_next() is the
 * cursor's until the next call: rep_event_keep() copies one to keep. */
struct rep_cursor {
	const struct rep_results *r;
	off_t off;
	char *buf;
	size_t at, end, cap;
	struct rep_event ev;
	struct rep_count model[REP_MAX_MODEL];
	const char *cited[REP_MAX_MODEL];
};
void rep_cursor_open(struct rep_cursor *c, const struct rep_results *r);
/* The next event, NULL after the last.  A temporary file that cannot be
 * read back ends vmreport with a one-line message. */
const struct rep_event *rep_cursor_next(struct rep_cursor *c);
void rep_cursor_close(struct rep_cursor *c);

/* A copy of EV (its call, model and cited) in A; NULL when out of memory. */
struct rep_event *rep_event_keep(struct rep_arena *a, const struct rep_event *ev);

#endif
