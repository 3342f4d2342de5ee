/* json.h - JSON for vmrec's results files: reading through jansson (the
 * small members as a tree, one large array streamed a row at a time) and
 * a streaming writer that handles commas and escaping.  docs/json.md says
 * why it is split so. */
#ifndef VMREC_JSON_H
#define VMREC_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* ---- reader ---------------------------------------------------------- */

enum json_read_status {
	JSON_READ_OK,
	JSON_READ_IO,       /* cannot open or read: err has strerror's words */
	JSON_READ_EMPTY,    /* no bytes at all */
	JSON_READ_SYNTAX,   /* err: "line L, column C: what" */
	JSON_READ_ROW,      /* the row callback refused a row: err is its message */
};

/* Called for each element of the streamed array, in order; K counts from 0.
 * ROW is borrowed (freed after the call).  0 goes on; -1 stops the read,
 * with the callback's one-line message in ERR. */
typedef int json_row_fn(const json_t *row, size_t k, void *arg, char *err, size_t errlen);

struct json_read {
	const char *stream_key;  /* top-level member read row by row ("per_event") */
	json_row_fn *row;
	void *arg;
	/* out */
	json_t *doc;             /* the document, without a streamed member */
	bool streamed;           /* stream_key was an array and went to row() */
	bool in_stream;          /* an error happened inside that array ... */
	size_t rows;             /* ... after this many rows */
};

/* Reads PATH ("-": standard input) into RD->doc.  When the document is an
 * object whose member RD->stream_key is an array, that array's rows go to
 * RD->row and never into the tree, so memory does not grow with them; any
 * other value of that member stays in the tree.  On failure RD->doc is
 * NULL and ERR has a one-line message without the file name. */
enum json_read_status json_read_file(const char *path, struct json_read *rd,
				     char *err, size_t errlen);
/* The same from an open stream (an fmemopen'd buffer, a pipe), read to
 * its end and left open. */
enum json_read_status json_read_stream(FILE *f, struct json_read *rd, char *err, size_t errlen);

/* Lookups that tolerate NULL and the wrong type (they return NULL). */
const char *json_get_str(const json_t *obj, const char *key);
/* "an object", "a string", ... for messages; "nothing" for NULL. */
const char *json_kind(const json_t *v);

/* ---- writer (lib/json_write.h, which needs no jansson) ---- */

#include "lib/json_write.h"

#endif
