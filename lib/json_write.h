/* json_write.h - the one JSON writer (lib/json_write.c); no jansson. */
#ifndef VMREC_JSON_WRITE_H
#define VMREC_JSON_WRITE_H

#include <stdbool.h>
#include <stdio.h>

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
/* The members of an object already in JSON (the bytes between its braces,
 * checked by whoever read it), written as they are as the next members
 * of the open object; only whitespace: nothing. */
void json_w_members(struct json_w *w, const char *text, size_t len);
void json_write_escaped(FILE *f, const char *s);  /* "..." with escapes; NULL: "" */

#endif
