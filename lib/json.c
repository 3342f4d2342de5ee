/* json.c - results files in and out.  Reading is jansson's: this file
 * only walks the top-level object and the one streamed array, handling
 * their separators ('{' ':' ',' ']' '}' and whitespace); every key, value
 * and row is decoded by json_load_callback() from a window onto the file. */
#include "lib/json.h"
#include "lib/input.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW_MIN (1u << 20)	/* widened while one value is larger */
/* One value at a time, whatever its type, stopping where it ends. */
#define LOAD_FLAGS (JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES)

struct reader {
	FILE *f;
	char *buf;
	size_t cap, at, end;     /* unread bytes: buf[at..end) */
	size_t total;            /* bytes read from the file */
	bool eof;
	long line, col;          /* of buf[at], from 1 */
	enum json_read_status st;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 4, 5)))
static void fail(struct reader *r, long line, long col, const char *fmt, ...)
{
	if (r->st != JSON_READ_OK)
		return;		/* the first problem is the one to report */
	r->st = JSON_READ_SYNTAX;
	int k = snprintf(r->err, r->errlen, "line %ld, column %ld: ", line, col);
	if (k < 0 || (size_t)k >= r->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err + k, r->errlen - k, fmt, ap);
	va_end(ap);
}

/* Reads more of the file behind the unread bytes: 1 when it did, 0 at
 * the end, -1 on an error (reported). */
static int more(struct reader *r)
{
	if (r->eof)
		return 0;
	if (r->at) {
		memmove(r->buf, r->buf + r->at, r->end - r->at);
		r->end -= r->at;
		r->at = 0;
	}
	if (r->end == r->cap) {	/* one value fills the window: widen it */
		char *nb = realloc(r->buf, r->cap * 2);
		if (!nb) {
			r->st = JSON_READ_IO;
			snprintf(r->err, r->errlen, "out of memory");
			return -1;
		}
		r->buf = nb;
		r->cap *= 2;
	}
	size_t n = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
	r->end += n;
	r->total += n;
	if (n)
		return 1;
	if (ferror(r->f)) {
		r->st = JSON_READ_IO;
		snprintf(r->err, r->errlen, "read error: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	r->eof = true;
	return 0;
}

static void advance(struct reader *r, size_t n)
{
	const char *p = r->buf + r->at, *e = p + n, *nl;
	while ((nl = memchr(p, '\n', (size_t)(e - p)))) {
		r->line++;
		r->col = 1;
		p = nl + 1;
	}
	r->col += e - p;
	r->at += n;
}

/* The next byte after whitespace, not consumed; EOF at the end or on an
 * error. */
static int peek(struct reader *r)
{
	for (;;) {
		for (; r->at < r->end; advance(r, 1)) {
			char c = r->buf[r->at];
			if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				return (unsigned char)c;
		}
		if (more(r) <= 0)
			return EOF;
	}
}

/* "unexpected character 'x'" or "unexpected end of input" for C. */
static void unexpected(struct reader *r, int c, const char *wanted)
{
	if (c == EOF)
		fail(r, r->line, r->col, "unexpected end of input (%s)", wanted);
	else if (c >= 0x20 && c < 0x7f)
		fail(r, r->line, r->col, "%s, not '%c'", wanted, c);
	else
		fail(r, r->line, r->col, "%s, not byte 0x%02x", wanted, c);
}

/* jansson's input for one value: the window from its start, read on
 * into (and widened) as jansson asks, so a value the window cut is never
 * decoded twice.  jansson reads ahead; it says where the value ended. */
struct feed {
	struct reader *r;
	size_t served;		/* bytes from buf[at] handed to jansson */
};

static size_t feed(void *out, size_t len, void *arg)
{
	struct feed *fd = arg;
	struct reader *r = fd->r;
	if (r->at + fd->served == r->end) {
		int m = more(r);	/* keeps buf[at..end), so fd->served holds */
		if (m <= 0)
			return m == 0 ? 0 : (size_t)-1;
	}
	size_t n = r->end - r->at - fd->served;
	n = n < len ? n : len;
	memcpy(out, r->buf + r->at + fd->served, n);
	fd->served += n;
	return n;
}

/* One JSON value at the window's start, decoded by jansson. */
static json_t *value(struct reader *r)
{
	if (peek(r) == EOF) {
		unexpected(r, EOF, "expected a value");
		return NULL;
	}
	json_error_t e;
	struct feed fd = { r, 0 };
	json_t *v = json_load_callback(feed, &fd, LOAD_FLAGS, &e);
	if (v) {
		advance(r, (size_t)e.position);
		return v;
	}
	long line = r->line + e.line - 1;
	long col = e.line == 1 ? r->col + e.column - 1 : e.column;
	fail(r, line, col, "%s", e.text);
	return NULL;
}

/* The array RD->stream_key names, at its '['. */
static int stream(struct reader *r, struct json_read *rd)
{
	advance(r, 1);
	rd->streamed = rd->in_stream = true;
	int c = peek(r);
	if (c == ']') {
		advance(r, 1);
		rd->in_stream = false;
		return 0;
	}
	for (;;) {
		json_t *row = value(r);
		if (!row)
			return -1;
		int rc = rd->row ? rd->row(row, rd->rows, rd->arg, r->err, r->errlen) : 0;
		json_decref(row);
		if (rc) {
			if (r->st == JSON_READ_OK)
				r->st = JSON_READ_ROW;
			return -1;
		}
		rd->rows++;
		c = peek(r);
		if (c == ',' || c == ']') {
			advance(r, 1);
			if (c == ']') {
				rd->in_stream = false;
				return 0;
			}
			continue;
		}
		unexpected(r, c, "expected ',' or ']'");
		return -1;
	}
}

/* The top-level object, at its '{'. */
static json_t *object(struct reader *r, struct json_read *rd)
{
	json_t *doc = json_object();
	advance(r, 1);
	int c = peek(r);
	if (c == '}') {
		advance(r, 1);
		return doc;
	}
	for (;;) {
		if ((c = peek(r)) != '"') {
			unexpected(r, c, "expected a string key");
			break;
		}
		long line = r->line, col = r->col;
		json_t *k = value(r);
		if (!k)
			break;
		const char *key = json_string_value(k);
		bool streams = rd->stream_key && strcmp(key, rd->stream_key) == 0;
		if ((c = peek(r)) != ':') {
			unexpected(r, c, "expected ':' after a key");
		} else if (json_object_get(doc, key) || (streams && rd->streamed)) {
			fail(r, line, col, "duplicate object key \"%s\"", key);
		} else {
			advance(r, 1);
			if (streams && peek(r) == '[') {
				stream(r, rd);
			} else {
				json_t *v = value(r);
				if (v)
					json_object_set_new(doc, key, v);
			}
		}
		json_decref(k);
		if (r->st != JSON_READ_OK)
			break;
		c = peek(r);
		if (c == ',' || c == '}') {
			advance(r, 1);
			if (c == '}')
				return doc;
			continue;
		}
		unexpected(r, c, "expected ',' or '}'");
		break;
	}
	json_decref(doc);
	return NULL;
}

enum json_read_status json_read_file(const char *path, struct json_read *rd,
				     char *err, size_t errlen)
{
	rd->doc = NULL;
	if (errlen)
		err[0] = 0;
	const char *why = NULL;
	FILE *f = strcmp(path, "-") ? input_open(path, &why) : stdin;
	if (!f) {
		snprintf(err, errlen, "cannot open: %s", why);
		return JSON_READ_IO;
	}
	enum json_read_status st = json_read_stream(f, rd, err, errlen);
	if (f != stdin)
		fclose(f);
	return st;
}

enum json_read_status json_read_stream(FILE *f, struct json_read *rd, char *err, size_t errlen)
{
	struct reader r = { .f = f, .line = 1, .col = 1, .err = err, .errlen = errlen };
	rd->doc = NULL;
	rd->streamed = rd->in_stream = false;
	rd->rows = 0;
	if (errlen)
		err[0] = 0;
	if (!(r.buf = malloc(r.cap = WINDOW_MIN))) {
		snprintf(err, errlen, "out of memory");
		r.st = JSON_READ_IO;
	}
	int c = r.buf ? peek(&r) : EOF;
	json_t *doc = NULL;
	if (r.st != JSON_READ_OK) {
		/* a read error */
	} else if (c == EOF && r.total == 0) {
		snprintf(err, errlen, "empty file");
		r.st = JSON_READ_EMPTY;
	} else {
		doc = c == '{' ? object(&r, rd) : value(&r);
		if (doc && (c = peek(&r)) != EOF)
			unexpected(&r, c, "expected the end after the document");
	}
	if (r.st != JSON_READ_OK) {
		json_decref(doc);
		doc = NULL;
	}
	free(r.buf);
	rd->doc = doc;
	return r.st;
}

const char *json_get_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

const char *json_kind(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}
