/* json.h - a small JSON reader (whole document into a tree) and a writer
 * that handles commas and escaping, for vmreport's results files. */
#ifndef VMREC_JSON_H
#define VMREC_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool boolean;
	size_t n;              /* JSON_ARRAY / JSON_OBJECT: members */
	union {
		double number;
		char *string;          /* JSON_STRING, NUL-terminated UTF-8 */
		struct json **items;   /* JSON_ARRAY / JSON_OBJECT */
	};
	char **keys;           /* JSON_OBJECT only */
	struct json_arena *arena; /* the root owns every node, string and array */
	char *owned;              /* and, from json_parse_owned(), the text */
};

/* Parses TEXT (LEN bytes).  NULL on error, with "line L, column C: what"
 * in ERR.  The tree lives in one arena: free it whole with json_free(). */
struct json *json_parse(const char *text, size_t len, char *err, size_t errlen);
/* The same, parsing TEXT (from malloc) in place: the tree owns it from
 * then on, even when parsing fails. */
struct json *json_parse_owned(char *text, size_t len, char *err, size_t errlen);
void json_free(struct json *j);

/* Lookups that tolerate NULL and the wrong type (they return NULL). */
const struct json *json_get(const struct json *obj, const char *key);
const char *json_get_str(const struct json *obj, const char *key);
const char *json_type_name(enum json_type t);

/* Writer: json_w_key() before each member of an object; values in arrays
 * need nothing.  Non-finite numbers are written as null. */
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
