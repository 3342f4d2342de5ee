/* json.c - recursive-descent JSON reader (RFC 8259) and a streaming writer.
 * Depth is limited so hostile input cannot exhaust the stack. */
#include "analysis/json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64
#define CHUNK_MIN (256u << 10)

/* Bump allocation: a results file is millions of small values read once
 * and freed together, which malloc serves poorly. */
struct json_arena {
	struct json_arena *next;
	size_t size, used;
	uint64_t data[];
};

static void *arena_alloc(struct json_arena **a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (!*a || (*a)->size - (*a)->used < n) {
		size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
		struct json_arena *c = malloc(sizeof(*c) + size);
		if (!c)
			return NULL;
		c->next = *a;
		c->size = size;
		c->used = 0;
		*a = c;
	}
	void *p = (char *)(*a)->data + (*a)->used;
	(*a)->used += n;
	return p;
}

static void arena_free(struct json_arena *a)
{
	while (a) {
		struct json_arena *next = a->next;
		free(a);
		a = next;
	}
}

/* Members of open containers wait here until their container closes and
 * gets arrays of the exact size. */
struct pending {
	struct json **items;
	char **keys;
	size_t n, cap;
};

struct parser {
	char *s, *end, *p;	/* our own copy: strings are decoded in place */
	char *err;
	size_t errlen;
	bool failed;
	struct json_arena *arena;
	struct pending stack;
};

__attribute__((format(printf, 2, 3)))
static void fail(struct parser *ps, const char *fmt, ...)
{
	if (ps->failed)
		return;
	ps->failed = true;
	int line = 1, col = 1;
	for (const char *c = ps->s; c < ps->p && c < ps->end; c++) {
		if (*c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	int k = snprintf(ps->err, ps->errlen, "line %d, column %d: ", line, col);
	if (k < 0 || (size_t)k >= ps->errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->err + k, ps->errlen - k, fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
				   *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct json *node(struct parser *ps, enum json_type t)
{
	struct json *j = arena_alloc(&ps->arena, sizeof(*j));
	if (!j) {
		fail(ps, "out of memory");
		return NULL;
	}
	memset(j, 0, sizeof(*j));
	j->type = t;
	return j;
}

static struct json *parse_value(struct parser *ps, int depth);

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, word, n) == 0) {
		ps->p += n;
		return true;
	}
	return false;
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t put_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* At the opening quote.  Decodes the string in place (the text is the
 * parser's own copy; decoded escapes never grow, so writing never overtakes
 * reading) and returns it, NUL-terminated where the closing quote was. */
static char *parse_string(struct parser *ps)
{
	char *q = ++ps->p;
	while (q < ps->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= ps->end) {
		fail(ps, "unterminated string");
		return NULL;
	}
	char *out = ps->p, *o = out;
	while (ps->p < q) {
		unsigned char c = (unsigned char)*ps->p;
		if (c < 0x20) {
			fail(ps, "control character in string");
			goto bad;
		}
		if (c != '\\') {
			*o++ = (char)c;
			ps->p++;
			continue;
		}
		ps->p++;
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *e = strchr(from, *ps->p);
		if (*ps->p && e) {
			*o++ = to[e - from];
			ps->p++;
			continue;
		}
		if (*ps->p != 'u' || q - ps->p < 5) {
			fail(ps, "bad escape in string");
			goto bad;
		}
		int cp = hex4(ps->p + 1);
		if (cp < 0) {
			fail(ps, "bad \\u escape in string");
			goto bad;
		}
		ps->p += 5;
		if (cp >= 0xd800 && cp < 0xdc00 && q - ps->p >= 6 &&
		    ps->p[0] == '\\' && ps->p[1] == 'u') {
			int lo = hex4(ps->p + 2);
			if (lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				ps->p += 6;
			}
		}
		if (cp >= 0xd800 && cp < 0xe000)
			cp = 0xfffd;	/* a lone surrogate */
		o += put_utf8(o, (uint32_t)cp);
	}
	*o = 0;
	ps->p = q + 1;
	return out;
bad:
	return NULL;
}

static struct json *parse_number(struct parser *ps)
{
	char *p = ps->p;
	if (p < ps->end && *p == '-')
		p++;
	const char *digits = p;
	while (p < ps->end && *p >= '0' && *p <= '9')
		p++;
	if (p == digits || (*digits == '0' && p - digits > 1)) {
		fail(ps, "bad number");
		return NULL;
	}
	if (p < ps->end && *p == '.') {
		const char *f = ++p;
		while (p < ps->end && *p >= '0' && *p <= '9')
			p++;
		if (p == f) {
			fail(ps, "bad number");
			return NULL;
		}
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		const char *x = p;
		while (p < ps->end && *p >= '0' && *p <= '9')
			p++;
		if (p == x) {
			fail(ps, "bad number");
			return NULL;
		}
	}
	char buf[64];
	size_t n = (size_t)(p - ps->p);
	if (n >= sizeof(buf)) {
		fail(ps, "number too long");
		return NULL;
	}
	memcpy(buf, ps->p, n);
	buf[n] = 0;
	struct json *j = node(ps, JSON_NUMBER);
	if (j)
		j->number = strtod(buf, NULL);
	ps->p = p;
	return j;
}

static bool push(struct parser *ps, char *key, struct json *v)
{
	struct pending *st = &ps->stack;
	if (st->n == st->cap) {
		size_t nc = st->cap ? st->cap * 2 : 256;
		struct json **it = realloc(st->items, nc * sizeof(*it));
		if (it)
			st->items = it;
		char **k = realloc(st->keys, nc * sizeof(*k));
		if (k)
			st->keys = k;
		if (!it || !k) {
			fail(ps, "out of memory");
			return false;
		}
		st->cap = nc;
	}
	st->keys[st->n] = key;
	st->items[st->n++] = v;
	return true;
}

/* Moves the members pushed since BASE into J. */
static bool settle(struct parser *ps, struct json *j, size_t base, bool object)
{
	struct pending *st = &ps->stack;
	j->n = st->n - base;
	st->n = base;
	if (!j->n)
		return true;
	j->items = arena_alloc(&ps->arena, j->n * sizeof(*j->items));
	j->keys = object ? arena_alloc(&ps->arena, j->n * sizeof(*j->keys)) : NULL;
	if (!j->items || (object && !j->keys)) {
		fail(ps, "out of memory");
		return false;
	}
	memcpy(j->items, st->items + base, j->n * sizeof(*j->items));
	if (object)
		memcpy(j->keys, st->keys + base, j->n * sizeof(*j->keys));
	return true;
}

/* Arrays and objects: CLOSE ends them; objects read "key": before values. */
static struct json *parse_container(struct parser *ps, int depth, bool object)
{
	char close = object ? '}' : ']';
	struct json *j = node(ps, object ? JSON_OBJECT : JSON_ARRAY);
	size_t base = ps->stack.n;
	if (!j)
		return NULL;
	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return j;
	}
	for (;;) {
		char *key = NULL;
		skip_ws(ps);
		if (object) {
			if (ps->p >= ps->end || *ps->p != '"') {
				fail(ps, "expected a string key");
				return NULL;
			}
			if (!(key = parse_string(ps)))
				return NULL;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail(ps, "expected ':' after key \"%s\"", key);
				return NULL;
			}
			ps->p++;
		}
		struct json *v = parse_value(ps, depth + 1);
		if (!v || !push(ps, key, v))
			return NULL;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return settle(ps, j, base, object) ? j : NULL;
		}
		fail(ps, ps->p >= ps->end ? "unexpected end of input" :
		     object ? "expected ',' or '}'" : "expected ',' or ']'");
		return NULL;
	}
}

static struct json *parse_value(struct parser *ps, int depth)
{
	struct json *j;
	if (depth > JSON_MAX_DEPTH) {
		fail(ps, "nested deeper than %d", JSON_MAX_DEPTH);
		return NULL;
	}
	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail(ps, "unexpected end of input");
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, true);
	case '[':
		return parse_container(ps, depth, false);
	case '"': {
		char *s = parse_string(ps);
		if (!s || !(j = node(ps, JSON_STRING)))
			return NULL;
		j->string = s;
		return j;
	}
	case 't':
	case 'f':
	{
		bool is_true = literal(ps, "true");
		if (is_true || literal(ps, "false")) {
			if ((j = node(ps, JSON_BOOL)))
				j->boolean = is_true;
			return j;
		}
	}
		break;
	case 'n':
		if (literal(ps, "null"))
			return node(ps, JSON_NULL);
		break;
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return parse_number(ps);
	}
	fail(ps, "unexpected character '%c'", *ps->p);
	return NULL;
}

/* Parses the copy TEXT..TEXT+LEN that ps->arena or OWNED holds. */
static struct json *parse_document(struct parser *ps, char *text, size_t len, char *owned)
{
	ps->s = ps->p = text;
	ps->end = text + len;
	struct json *j = parse_value(ps, 0);
	if (j) {
		skip_ws(ps);
		if (ps->p != ps->end) {
			fail(ps, "unexpected data after the document");
			j = NULL;
		}
	}
	free(ps->stack.items);
	free(ps->stack.keys);
	if (!j) {
		arena_free(ps->arena);
		free(owned);
		return NULL;
	}
	j->arena = ps->arena;
	j->owned = owned;
	return j;
}

struct json *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = { .err = err, .errlen = errlen };
	if (errlen)
		err[0] = 0;
	char *copy = arena_alloc(&ps.arena, len + 1);	/* strings are decoded in it */
	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memcpy(copy, text, len);
	return parse_document(&ps, copy, len, NULL);
}

struct json *json_parse_owned(char *text, size_t len, char *err, size_t errlen)
{
	struct parser ps = { .err = err, .errlen = errlen };
	if (errlen)
		err[0] = 0;
	return parse_document(&ps, text, len, text);
}

void json_free(struct json *j)
{
	if (j) {
		free(j->owned);
		arena_free(j->arena);
	}
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}

const char *json_get_str(const struct json *obj, const char *key)
{
	const struct json *v = json_get(obj, key);
	return v && v->type == JSON_STRING ? v->string : NULL;
}

const char *json_type_name(enum json_type t)
{
	static const char *const names[] = {
		"null", "a boolean", "a number", "a string", "an array", "an object",
	};
	return names[t];
}

/* ---- writer ---------------------------------------------------------- */

void json_w_init(struct json_w *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->first[0] = true;
}

static void indent(struct json_w *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Comma and newline before a value, unless it follows its key. */
static void before_value(struct json_w *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		indent(w);
	}
	w->first[w->depth] = false;
}

void json_w_begin(struct json_w *w, char open)
{
	before_value(w);
	fputc(open, w->f);
	if (w->depth + 1 < JSON_W_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

void json_w_end(struct json_w *w, char close)
{
	bool empty = w->first[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (!empty)
		indent(w);
	fputc(close, w->f);
	if (w->depth == 0 && w->pretty)
		fputc('\n', w->f);
}

void json_w_key(struct json_w *w, const char *key)
{
	before_value(w);
	json_write_escaped(w->f, key);
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void json_write_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*c < 0x20)
				fprintf(f, "\\u%04x", *c);
			else
				fputc(*c, f);
		}
	}
	fputc('"', f);
}

void json_w_str(struct json_w *w, const char *s)
{
	before_value(w);
	if (s)
		json_write_escaped(w->f, s);
	else
		fputs("null", w->f);
}

void json_w_num(struct json_w *w, double v)
{
	before_value(w);
	if (!isfinite(v))
		fputs("null", w->f);
	else if (v == (double)(long long)v && fabs(v) < 1e15)
		fprintf(w->f, "%lld", (long long)v);
	else
		fprintf(w->f, "%.10g", v);
}

void json_w_int(struct json_w *w, long long v)
{
	before_value(w);
	fprintf(w->f, "%lld", v);
}

void json_w_bool(struct json_w *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void json_w_null(struct json_w *w)
{
	before_value(w);
	fputs("null", w->f);
}
