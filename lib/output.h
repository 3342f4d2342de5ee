/* output.h - how the tools write a file they were asked to write
 * (vmreplay --json, vmreport -o, ...): a stdio stream onto a temporary
 * file beside it, renamed over it when the stream is closed whole, never
 * through a symlink, with a mode that does not depend on the umask
 * (vmt.h's vmt_output_* do the work; docs/output.md says the rules).
 * Traces are written the same way by vmt_writer_open. */
#ifndef LIB_OUTPUT_H
#define LIB_OUTPUT_H

#include <stdio.h>
#include "vmt.h"

struct output {
	struct vmt_output o;
	FILE *f;
	const char *tool;       /* for messages: "TOOL: PATH: ..." */
};

/* The stream to write, or NULL after one line on stderr
 * ("TOOL: PATH: cannot write: why").  mode: VMT_OUTPUT_MODE_*. */
FILE *output_open(struct output *out, const char *tool, const char *path, unsigned mode);
/* Flush, close and rename into place: 0, or -1 after one line on stderr
 * ("TOOL: PATH: write error: why"; the old file, if any, is left whole). */
int output_close(struct output *out);
/* Drop what was written: the old file, if any, stays as it was. */
void output_abort(struct output *out);

#endif
