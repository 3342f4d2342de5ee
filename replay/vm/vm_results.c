/* vm_results.c - mark guest results as coming from an emulated CPU, and
 * say the host command that recreates them. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "replay/vm/vm_results.h"

/* The guest's document is read through (per_event a row at a time, so
 * memory does not grow with it) only to be sure it is one object that
 * says nothing of the VM itself; its bytes are then kept as they are, so
 * its numbers and layout are the replayer's. */
static int guest_object(const char *json, size_t len)
{
	FILE *in = len ? fmemopen((void *)json, len, "r") : NULL;
	struct json_read rd = { .stream_key = "per_event" };
	char err[256];

	if (!in)
		return -1;
	enum json_read_status st = json_read_stream(in, &rd, err, sizeof err);
	fclose(in);
	int ok = st == JSON_READ_OK && json_is_object(rd.doc) &&
	         !json_object_get(rd.doc, "vm") && !json_object_get(rd.doc, "vm_kernel") &&
	         !json_object_get(rd.doc, "reproduce");
	json_decref(rd.doc);
	return ok ? 0 : -1;
}

int vm_results_write(FILE *f, const char *json, size_t len, const char *release,
                     const char *reproduce)
{
	if (guest_object(json, len))
		return -1;
	/* one object: its first byte that is not space is '{', its last '}' */
	const char *open = memchr(json, '{', len), *close = json + len;
	while (*--close != '}')
		;
	struct json_w w;
	json_w_init(&w, f, true);
	json_w_begin(&w, '{');
	json_w_key(&w, "vm");
	json_w_str(&w, "qemu-tcg");
	json_w_key(&w, "vm_kernel");
	json_w_str(&w, release);
	if (reproduce) {
		json_w_key(&w, "reproduce");
		json_w_str(&w, reproduce);
	}
	json_w_members(&w, open + 1, (size_t)(close - open - 1));
	json_w_end(&w, '}');
	return ferror(f) ? -1 : 0;
}

char *vm_results_name(const char *out, const char *release, int trace,
                      int many_kernels, int many_traces)
{
	size_t n = strlen(out);
	size_t stem = n >= 5 && !strcmp(out + n - 5, ".json") ? n - 5 : n;
	char tag[160] = "";
	char *name;

	if (many_kernels)
		snprintf(tag, sizeof tag, "-%s", release);
	if (many_traces)
		snprintf(tag + strlen(tag), sizeof tag - strlen(tag), "-%d", trace);
	if (asprintf(&name, "%.*s%s%s", (int)stem, out, tag, out + stem) < 0)
		return NULL;
	return name;
}

/* Quoted unless every byte is one the shell takes as part of a plain word. */
static bool plain_word(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		            "0123456789_-+=.,/:@%", *w))
			return false;
	return true;
}

char *vm_shell_line(const char *const *words, int n)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		return NULL;
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(' ', f);
		if (plain_word(words[i])) {
			fputs(words[i], f);
			continue;
		}
		fputc('\'', f);
		for (const char *c = words[i]; *c; c++) {
			if (*c == '\'')
				fputs("'\\''", f);	/* end the quote, a quoted ', go on */
			else
				fputc(*c, f);
		}
		fputc('\'', f);
	}
	if (fclose(f)) {
		free(line);
		return NULL;
	}
	return line;
}
