/* The JSON reader and writer of results files: the tree of small members,
 * the streamed array (anywhere in the document), values cut by the read
 * window, the message for each kind of malformed input, and the writer. */
#include "lib/json.c"
#include "lib/json_write.c"

#include <unistd.h>

#include "tests/tap.h"

static char path[] = "/tmp/vmrec-json-XXXXXX";

static enum json_read_status read_text(const char *text, struct json_read *rd,
				       char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return json_read_file(path, rd, err, errlen);
}

/* Rows of the streamed array: their "i" values summed, the rest counted. */
struct rows {
	long long sum;
	size_t n, refuse_at;
};

static int row(const json_t *r, size_t k, void *arg, char *err, size_t errlen)
{
	struct rows *rs = arg;
	if (rs->refuse_at && k + 1 == rs->refuse_at) {
		snprintf(err, errlen, "row %zu refused", k);
		return -1;
	}
	rs->sum += json_integer_value(json_object_get(r, "i"));
	rs->n++;
	return 0;
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

static void bad(const char *text, enum json_read_status want_st, const char *want)
{
	char err[200];
	struct rows rs = { 0 };
	struct json_read rd = { .stream_key = "per_event", .row = row, .arg = &rs };
	is_int(read_text(text, &rd, err, sizeof(err)), want_st, "rejects %s", shown(text));
	ok(rd.doc == NULL, "with no document");
	is_str(err, want, "message for %s", shown(text));
}

static void values(void)
{
	char err[200];
	struct json_read rd = { 0 };
	enum json_read_status st = read_text(" {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\\\"\","
					     " \"o\": {}, \"e\": []} ", &rd, err, sizeof(err));
	if (!ok(st == JSON_READ_OK, "reads a document with every type"))
		diag("%s", err);
	const json_t *a = json_object_get(rd.doc, "a");
	is_int(json_array_size(a), 5, "array of 5");
	ok(json_number_value(json_array_get(a, 1)) == -2500, "number with exponent");
	ok(json_is_true(json_array_get(a, 2)) && json_is_false(json_array_get(a, 3)), "true and false");
	ok(json_is_null(json_array_get(a, 4)), "null");
	is_str(json_get_str(rd.doc, "s"), "x\n\xc3\xa9\xf0\x9f\x98\x80\"", "escapes, \\u and a surrogate pair to UTF-8");
	ok(json_object_size(json_object_get(rd.doc, "o")) == 0, "empty object");
	ok(json_object_get(rd.doc, "missing") == NULL && json_get_str(rd.doc, "a") == NULL,
	   "absent key and wrong type give NULL");
	is_str(json_kind(a), "an array", "kind of an array");
	is_str(json_kind(NULL), "null", "kind of nothing");
	json_decref(rd.doc);

	st = read_text("[1, 2]", &rd, err, sizeof(err));
	ok(st == JSON_READ_OK && json_is_array(rd.doc), "a document that is not an object reads as it is");
	json_decref(rd.doc);
}

static void streaming(void)
{
	char err[200];
	struct rows rs = { 0 };
	struct json_read rd = { .stream_key = "per_event", .row = row, .arg = &rs };
	enum json_read_status st = read_text("{\"per_event\": [{\"i\": 1}, {\"i\": 2, \"x\": [\"]}\"]},\n{\"i\": 3}],"
					     " \"after\": 7}", &rd, err, sizeof(err));
	if (!ok(st == JSON_READ_OK, "per_event first, a member after it"))
		diag("%s", err);
	ok(rd.streamed && rs.n == 3 && rs.sum == 6 && rd.rows == 3, "three rows streamed");
	ok(json_object_get(rd.doc, "per_event") == NULL, "... and not kept in the tree");
	is_int(json_integer_value(json_object_get(rd.doc, "after")), 7, "the member after them read");
	json_decref(rd.doc);

	rs = (struct rows){ 0 };
	st = read_text("{\"per_event\": []}", &rd, err, sizeof(err));
	ok(st == JSON_READ_OK && rd.streamed && rs.n == 0, "an empty array streams no rows");
	json_decref(rd.doc);

	st = read_text("{\"per_event\": \"none\"}", &rd, err, sizeof(err));
	ok(st == JSON_READ_OK && !rd.streamed && json_is_string(json_object_get(rd.doc, "per_event")),
	   "a per_event that is not an array stays in the tree for the caller to judge");
	json_decref(rd.doc);

	rs = (struct rows){ .refuse_at = 2 };
	st = read_text("{\"per_event\": [{\"i\": 1}, {\"i\": 2}, {\"i\": 3}]}", &rd, err, sizeof(err));
	ok(st == JSON_READ_ROW && rd.doc == NULL && rd.in_stream && rd.rows == 1,
	   "a row the callback refuses stops the read");
	is_str(err, "row 1 refused", "... with the callback's message");
}

/* Values that end at, or straddle, the 1 MiB read window's edge: a number
 * must not be taken for its first digits. */
static void window(void)
{
	char err[200];
	size_t pad_max = WINDOW_MIN + 16;
	char *text = malloc(pad_max + 64);
	int good = 0, tries = 0;
	for (size_t pad = WINDOW_MIN - 24; pad < WINDOW_MIN; pad++, tries++) {
		int n = sprintf(text, "{\"pad\": \"");
		memset(text + n, 'x', pad);
		sprintf(text + n + pad, "\", \"n\": 1234567, \"t\": true}");
		struct json_read rd = { 0 };
		if (read_text(text, &rd, err, sizeof(err)) == JSON_READ_OK &&
		    json_integer_value(json_object_get(rd.doc, "n")) == 1234567 &&
		    json_is_true(json_object_get(rd.doc, "t")))
			good++;
		else
			diag("pad %zu: %s", pad, err);
		json_decref(rd.doc);
	}
	is_int(good, tries, "values across the window's edge read whole");
	free(text);
}

static void errors(void)
{
	bad("", JSON_READ_EMPTY, "empty file");
	bad("  \n", JSON_READ_SYNTAX, "line 2, column 1: unexpected end of input (expected a value)");
	bad("{\"a\": 1,}", JSON_READ_SYNTAX, "line 1, column 9: expected a string key, not '}'");
	bad("[1 2]", JSON_READ_SYNTAX, "line 1, column 4: ']' expected near '2'");
	bad("{\"a\" 1}", JSON_READ_SYNTAX, "line 1, column 6: expected ':' after a key, not '1'");
	bad("{\"a\": 1, \"a\": 2}", JSON_READ_SYNTAX, "line 1, column 10: duplicate object key \"a\"");
	bad("{\"o\": {\"a\": 1, \"a\": 2}}", JSON_READ_SYNTAX, "line 1, column 18: duplicate object key near '\"a\"'");
	bad("01", JSON_READ_SYNTAX, "line 1, column 1: invalid token near '0'");
	bad("\"abc", JSON_READ_SYNTAX, "line 1, column 4: premature end of input near '\"abc'");
	bad("\"a\\qb\"", JSON_READ_SYNTAX, "line 1, column 4: invalid escape near '\"a\\q'");
	bad("[1]\n x", JSON_READ_SYNTAX, "line 2, column 2: expected the end after the document, not 'x'");
	bad("{\n\"a\": tru}", JSON_READ_SYNTAX, "line 2, column 8: invalid token near 'tru'");
	bad("{\"per_event\": [{\"i\": 1} {\"i\": 2}]}", JSON_READ_SYNTAX,
	    "line 1, column 25: expected ',' or ']', not '{'");
	bad("{\"per_event\": [{\"i\": 1},\n  {\"i\": }]}", JSON_READ_SYNTAX,
	    "line 2, column 9: unexpected token near '}'");
	bad("{\"per_event\": [{\"i\": 1}", JSON_READ_SYNTAX,
	    "line 1, column 24: unexpected end of input (expected ',' or ']')");
	char deep[3000];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	bad(deep, JSON_READ_SYNTAX, "line 1, column 2049: maximum parsing depth reached near '['");
	unlink(path);
	char err[200];
	struct json_read rd = { 0 };
	is_int(json_read_file(path, &rd, err, sizeof(err)), JSON_READ_IO, "a missing file");
	is_str(err, "cannot open: No such file or directory", "... says so");
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
	char err[200];
	struct json_read rd = { 0 };
	ok(read_text(buf, &rd, err, sizeof(err)) == JSON_READ_OK, "writer output reads back");
	json_decref(rd.doc);
	free(buf);
}

int main(void)
{
	int fd = mkstemp(path);
	close(fd);
	values();
	streaming();
	window();
	errors();
	writer();
	unlink(path);
	return done_testing();
}
