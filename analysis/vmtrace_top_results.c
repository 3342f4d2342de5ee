/* vmtrace_top_results.c - which events of a results file's per_event
 * array had a given outcome, read a row at a time by lib/json.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "analysis/vmtrace_top_results.h"
#include "lib/errmsg.h"

static int set_bit(struct outcome_set *set, uint64_t i)
{
	if (i >= set->nbits) {
		uint64_t n = set->nbits ? set->nbits : 1024;
		uint8_t *b;

		while (n <= i)
			n *= 2;
		if (!(b = realloc(set->bits, n / 8)))
			return 0;
		memset(b + set->nbits / 8, 0, (n - set->nbits) / 8);
		set->bits = b;
		set->nbits = n;
	}
	set->bits[i / 8] |= (uint8_t)(1u << (i % 8));
	return 1;
}

struct want {
	struct outcome_set *set;
	const char *outcome;
};

/* json_row_fn: one per_event object. */
static int entry(const json_t *row, size_t k, void *arg, char *err, size_t errlen)
{
	struct want *w = arg;
	const json_t *i = json_object_get(row, "i");
	const char *outcome = json_get_str(row, "outcome");

	if (!json_is_integer(i) || json_integer_value(i) < 0)
		return errmsg(err, errlen, "per_event entry %zu does not parse (no event index \"i\")", k);
	w->set->entries++;
	if (outcome && strcmp(outcome, w->outcome) == 0 &&
	    !set_bit(w->set, (uint64_t)json_integer_value(i))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int outcome_set_load(struct outcome_set *set, const char *path, const char *outcome,
                     char *err, size_t errlen)
{
	struct want w = { set, outcome };
	struct json_read rd = { .stream_key = "per_event", .row = entry, .arg = &w };
	char jerr[200];
	enum json_read_status st;

	memset(set, 0, sizeof(*set));
	st = json_read_file(path, &rd, jerr, sizeof(jerr));
	if (st == JSON_READ_OK && !rd.streamed)
		snprintf(err, errlen, "%s: no per_event array (run vmreplay with --per-event)", path);
	else if (st == JSON_READ_SYNTAX && rd.in_stream)
		snprintf(err, errlen, "%s: per_event entry %zu does not parse (%s)", path, rd.rows, jerr);
	else if (st != JSON_READ_OK)
		snprintf(err, errlen, "%s: %s", path, jerr);
	json_decref(rd.doc);
	if (st == JSON_READ_OK && rd.streamed)
		return 0;
	outcome_set_free(set);
	return -1;
}

int outcome_set_has(const struct outcome_set *set, uint64_t i)
{
	return i < set->nbits && (set->bits[i / 8] >> (i % 8) & 1);
}

void outcome_set_free(struct outcome_set *set)
{
	free(set->bits);
	memset(set, 0, sizeof(*set));
}
