/* vmtrace_top_results.c - a small reader for the per_event array of a
 * results file: {"i": N, "op": "...", "outcome": "new", ...} objects.  It
 * reads the fields it needs and skips every other value, nested or not. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace_top_results.h"

struct cursor {
	const char *p, *end;
};

static void skip_ws(struct cursor *c)
{
	while (c->p < c->end && strchr(" \t\r\n", *c->p))
		c->p++;
}

static int eat(struct cursor *c, char ch)
{
	skip_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

/* A string's raw bytes (escapes kept); 0 if malformed. */
static int string(struct cursor *c, const char **s, size_t *len)
{
	skip_ws(c);
	if (c->p >= c->end || *c->p != '"')
		return 0;
	*s = ++c->p;
	while (c->p < c->end && *c->p != '"')
		c->p += *c->p == '\\' ? 2 : 1;
	if (c->p >= c->end)
		return 0;
	*len = (size_t)(c->p++ - *s);
	return 1;
}

static int skip_value(struct cursor *c, int depth)
{
	const char *s;
	size_t len;

	skip_ws(c);
	if (c->p >= c->end || depth > 64)
		return 0;
	if (*c->p == '"')
		return string(c, &s, &len);
	if (*c->p == '{' || *c->p == '[') {
		char close = *c->p == '{' ? '}' : ']';

		c->p++;
		if (eat(c, close))
			return 1;
		do {
			if (close == '}' && (!string(c, &s, &len) || !eat(c, ':')))
				return 0;
			if (!skip_value(c, depth + 1))
				return 0;
		} while (eat(c, ','));
		return eat(c, close);
	}
	/* number, true, false, null */
	s = c->p;
	while (c->p < c->end && (strchr("+-.eE", *c->p) ||
	       (*c->p >= '0' && *c->p <= '9') || (*c->p >= 'a' && *c->p <= 'z')))
		c->p++;
	return c->p > s;
}

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

/* One per_event object. */
static int entry(struct cursor *c, struct outcome_set *set, const char *want)
{
	int have_i = 0, match = 0;
	uint64_t i = 0;
	const char *k, *v;
	size_t klen, vlen;

	if (!eat(c, '{'))
		return 0;
	if (!eat(c, '}')) {
		do {
			if (!string(c, &k, &klen) || !eat(c, ':'))
				return 0;
			skip_ws(c);
			if (klen == 1 && *k == 'i') {
				char *end;

				errno = 0;
				i = strtoull(c->p, &end, 10);
				if (end == c->p || errno || end > c->end)
					return 0;
				c->p = end;
				have_i = 1;
			} else if (klen == 7 && !memcmp(k, "outcome", 7) && c->p < c->end && *c->p == '"') {
				if (!string(c, &v, &vlen))
					return 0;
				match = vlen == strlen(want) && !memcmp(v, want, vlen);
			} else if (!skip_value(c, 1))
				return 0;
		} while (eat(c, ','));
		if (!eat(c, '}'))
			return 0;
	}
	if (!have_i)
		return 0;
	set->entries++;
	return !match || set_bit(set, i);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!b)
				break;
			buf = b;
		}
		if (!(n = fread(buf + *len, 1, cap - *len, f)))
			break;
		*len += n;
	}
	if (ferror(f) || !buf) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int outcome_set_load(struct outcome_set *set, const char *path, const char *outcome,
                     char *err, size_t errlen)
{
	static const char key[] = "\"per_event\"";
	struct cursor c;
	size_t len;
	char *text = slurp(path, &len);
	const char *at;

	memset(set, 0, sizeof(*set));
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	at = memmem(text, len, key, sizeof(key) - 1);
	c = (struct cursor){ at ? at + sizeof(key) - 1 : NULL, text + len };
	if (!at || !eat(&c, ':') || !eat(&c, '[')) {
		snprintf(err, errlen, "%s: no per_event array (run vmreplay with --per-event)", path);
		free(text);
		return -1;
	}
	if (!eat(&c, ']')) {
		do {
			if (!entry(&c, set, outcome)) {
				snprintf(err, errlen, "%s: per_event entry %llu does not parse (byte %zu)",
					 path, (unsigned long long)set->entries,
					 (size_t)(c.p - text));
				free(text);
				outcome_set_free(set);
				return -1;
			}
		} while (eat(&c, ','));
		if (!eat(&c, ']')) {
			snprintf(err, errlen, "%s: per_event array not closed", path);
			free(text);
			outcome_set_free(set);
			return -1;
		}
	}
	free(text);
	return 0;
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
