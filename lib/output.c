/* output.c - a stdio stream onto vmt_output's temporary file (output.h). */
#include <errno.h>
#include <string.h>
#include "lib/output.h"

FILE *output_open(struct output *out, const char *tool, const char *path, unsigned mode)
{
	out->tool = tool;
	out->f = NULL;
	int fd = vmt_output_open(&out->o, path, mode);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", tool, path ? path : "",
		        vmt_output_error(fd));
		return NULL;
	}
	if (!(out->f = fdopen(fd, "w"))) {
		fprintf(stderr, "%s: %s: cannot write: %s\n", tool, path, strerror(errno));
		vmt_output_abort(&out->o);
		return NULL;
	}
	return out->f;
}

int output_close(struct output *out)
{
	int bad = ferror(out->f), err = errno;
	if (fflush(out->f) != 0) {
		bad = 1;
		err = errno;
	}
	if (fclose(out->f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	out->f = NULL;
	out->o.fd = -1;   /* fclose closed it */
	int r = bad ? -(err ? err : EIO) : vmt_output_commit(&out->o);
	if (r < 0) {
		vmt_output_abort(&out->o);
		fprintf(stderr, "%s: %s: write error: %s\n", out->tool, out->o.path,
		        vmt_output_error(r));
		return -1;
	}
	return 0;
}

void output_abort(struct output *out)
{
	if (out->f)
		fclose(out->f);
	out->f = NULL;
	out->o.fd = -1;
	vmt_output_abort(&out->o);
}
