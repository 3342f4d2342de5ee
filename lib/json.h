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

/* Lookups that tolerate NULL and the wrong type (they return NULL). */
const char *json_get_str(const json_t *obj, const char *key);
/* "an object", "a string", ... for messages; "nothing" for NULL. */
const char *json_kind(const json_t *v);

/* ---- writer ---------------------------------------------------------- */

/* json_w_key() before each member of an object; values in arrays need
 * nothing.  Non-finite numbers are written as null. */
#define JSON_W_DEPTH 32
struct json_w {
	FILE *f;
	int depth;
	bool pretty;
	bool first[JSON_W_DEPTH];
	bool after_key;
};
void json_w_init(struct json_w *w, FILE *f, bool pretty);
void json_w_begin(struct json_w *w, char open);   /* '{' or '[' */
void json_w_end(struct json_w *w, char close);     /* '}' or ']' */
void json_w_key(struct json_w *w, const char *key);
void json_w_str(struct json_w *w, const char *s); /* NULL -> null */
void json_w_num(struct json_w *w, double v);
void json_w_int(struct json_w *w, long long v);
void json_w_bool(struct json_w *w, bool v);
void json_w_null(struct json_w *w);
void json_write_escaped(FILE *f, const char *s);  /* "..." with escapes */

#endif
