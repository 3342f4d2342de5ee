/* The JSON reader and writer vmreport uses: values, escapes, and the exact
 * message for each kind of malformed input. */
#include "analysis/json.c"

#include "tests/tap.h"

static struct json *parse(const char *s, char *err, size_t errlen)
{
	return json_parse(s, strlen(s), err, errlen);
}

/* TEXT as a one-line test name: control characters escaped, cut at 24. */
static const char *shown(const char *text)
{
	static char buf[64];
	size_t n = 0;
	for (; *text && n < 24; text++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, (unsigned char)*text < 0x20 ? "\\x%02x" : "%c", *text);
	buf[n] = 0;
	return buf;
}

static void bad(const char *text, const char *want)
{
	char err[160];
	struct json *j = parse(text, err, sizeof(err));
	ok(j == NULL, "rejects %s", shown(text));
	is_str(err, want, "message for %s", shown(text));
	json_free(j);
}

static void values(void)
{
	char err[160];
	struct json *j = parse(" {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\\\"\","
			       " \"o\": {}, \"e\": []} ", err, sizeof(err));
	if (!ok(j != NULL, "parses a document with every type"))
		diag("%s", err);
	const struct json *a = json_get(j, "a");
	is_int(a ? a->n : 0, 5, "array of 5");
	ok(a && a->items[1]->number == -2500, "number with exponent");
	ok(a && a->items[2]->boolean && !a->items[3]->boolean, "true and false");
	ok(a && a->items[4]->type == JSON_NULL, "null");
	is_str(json_get_str(j, "s"), "x\n\xc3\xa9\xf0\x9f\x98\x80\"", "escapes, \\u and a surrogate pair to UTF-8");
	ok(json_get(j, "o") && json_get(j, "o")->n == 0, "empty object");
	ok(json_get(j, "missing") == NULL && json_get_str(j, "a") == NULL, "absent key and wrong type give NULL");
	json_free(j);
}

static void errors(void)
{
	bad("", "line 1, column 1: unexpected end of input");
	bad("{\"a\": 1,}", "line 1, column 9: expected a string key");
	bad("[1 2]", "line 1, column 4: expected ',' or ']'");
	bad("{\"a\" 1}", "line 1, column 6: expected ':' after key \"a\"");
	bad("01", "line 1, column 1: bad number");
	bad("1.", "line 1, column 1: bad number");
	bad("\"abc", "line 1, column 2: unterminated string");
	bad("\"a\\qb\"", "line 1, column 4: bad escape in string");
	bad("\"a\tb\"", "line 1, column 3: control character in string");
	bad("[1]\n x", "line 2, column 2: unexpected data after the document");
	bad("{\n\"a\": tru}", "line 2, column 6: unexpected character 't'");
	char deep[200];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	bad(deep, "line 1, column 66: nested deeper than 64");
}

static void writer(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_w w;
	json_w_init(&w, f, false);
	json_w_begin(&w, '{');
	json_w_key(&w, "n");
	json_w_num(&w, 1.5);
	json_w_key(&w, "i");
	json_w_num(&w, 3);
	json_w_key(&w, "inf");
	json_w_num(&w, 1.0 / 0.0);
	json_w_key(&w, "a");
	json_w_begin(&w, '[');
	json_w_str(&w, "q\"\\\x01");
	json_w_null(&w);
	json_w_bool(&w, true);
	json_w_end(&w, ']');
	json_w_key(&w, "e");
	json_w_begin(&w, '{');
	json_w_end(&w, '}');
	json_w_end(&w, '}');
	fclose(f);
	is_str(buf, "{\"n\":1.5,\"i\":3,\"inf\":null,\"a\":[\"q\\\"\\\\\\u0001\",null,true],\"e\":{}}",
	       "writer: commas, escapes, non-finite as null");
	char err[160];
	struct json *j = parse(buf, err, sizeof(err));
	ok(j != NULL, "writer output parses back");
	json_free(j);
	free(buf);
}

int main(void)
{
	values();
	errors();
	writer();
	return done_testing();
}
