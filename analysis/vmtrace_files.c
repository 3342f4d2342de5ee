/* vmtrace_files.c - the trace a vmtrace subcommand reads or writes,
 * opened through the trace library with its one-line error on failure. */
#include <stdio.h>
#include "analysis/vmtrace_files.h"

struct vmt_reader *vmtrace_open(const char *path, int order)
{
	struct vmt_reader_prefs prefs = { .order = order };
	int err;
	struct vmt_reader *r = vmt_reader_open(path, &prefs, &err);
	if (!r)
		fprintf(stderr, "vmtrace: %s\n", vmt_reader_open_error());
	return r;
}

struct vmt_writer *vmtrace_create(const char *path)
{
	int err;
	struct vmt_writer *w = vmt_writer_open(path, NULL, &err);
	if (!w)
		fprintf(stderr, "vmtrace: %s\n", vmt_writer_open_error());
	return w;
}
