/* vm_results.c - mark guest results as coming from an emulated CPU. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/vm/vm_results.h"

int vm_results_write(FILE *f, const char *json, size_t len, const char *release)
{
	size_t i = 0;

	while (i < len && isspace((unsigned char)json[i]))
		i++;
	if (i == len || json[i] != '{')
		return -1;
	size_t j = i + 1;
	while (j < len && isspace((unsigned char)json[j]))
		j++;
	int empty = j < len && json[j] == '}';

	fwrite(json, 1, i + 1, f);
	fprintf(f, "\"vm\": \"qemu-tcg\", \"vm_kernel\": \"");
	for (const char *p = release; *p; p++)
		if (*p != '"' && *p != '\\' && (unsigned char)*p >= ' ')
			putc(*p, f);
	fprintf(f, "\"%s", empty ? "" : ", ");
	fwrite(json + i + 1, 1, len - i - 1, f);
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
