/* json_write.c - the one JSON writer and string escaper: the json_w
 * streaming writer (commas, nesting, escaping) and json_write_escaped for
 * code that prints its JSON with fprintf.  No jansson here: the
 * replayer's results are written without it (only vmreplay --vm reads
 * JSON, its guests' results). */
#include "lib/json_write.h"

#include <math.h>
#include <string.h>

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
	for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
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

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void json_w_members(struct json_w *w, const char *text, size_t len)
{
	while (len && is_space(*text))
		text++, len--;
	while (len && is_space(text[len - 1]))
		len--;
	if (!len)
		return;
	before_value(w);
	fwrite(text, 1, len, w->f);
}
