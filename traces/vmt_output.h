/* vmt_output.h - the one way vmrec writes an output file (a trace, a
 * results file, a report): into a new temporary file beside it, created
 * O_EXCL|O_NOFOLLOW with exactly the mode asked (not the umask's), then
 * renamed over the output.  So no symlink is followed (one at the output's
 * name is replaced, never written through), a reader never sees half a
 * file, a failed write leaves the old file as it was, and a hard link to
 * the old file keeps the old contents.  An existing output that is not a
 * regular file or a symlink (a directory, a device, a FIFO) is refused.
 * The directories leading to it are the caller's to choose, and are
 * resolved as usual.
 *
 * Here, in the trace library, because both the trace store's finisher
 * (which runs inside recorded programs: raw system calls only, no errno,
 * no allocation) and every tool need it, and lib/ builds on traces/; the
 * tools use it through lib/output.h.  docs/output.md says what it does. */
#ifndef VMT_OUTPUT_H
#define VMT_OUTPUT_H

#include <limits.h>

/* The modes outputs are created with (docs/output.md). */
#define VMT_OUTPUT_MODE_PRIVATE 0600u  /* traces, results: command lines, paths */
#define VMT_OUTPUT_MODE_SHARED  0644u  /* reports, made to be passed around */

/* Refusals of vmt_output_open beyond errno's. */
#define VMT_OUTPUT_EEMPTY  (-5000)      /* an empty file name */
#define VMT_OUTPUT_ENOTREG (-5001)      /* exists, and is not a regular file or a symlink */

struct vmt_output {
	const char *path;                  /* the output (the caller's string) */
	char tmp[PATH_MAX + 32];           /* PATH.vmrec-tmp.PID */
	int fd;                            /* the temporary file's, -1 when none */
	int pid;                           /* whose it is: a fork child's abort leaves it */
};

/* Create the temporary file for `path` with `mode`: its descriptor (also
 * in o->fd), or a negative errno or VMT_OUTPUT_E*. */
int vmt_output_open(struct vmt_output *o, const char *path, unsigned mode);
/* Close the descriptor (unless the caller did: o->fd = -1) and rename the
 * temporary file over the output: 0, or a negative errno (the temporary
 * file is then removed and the output left as it was). */
int vmt_output_commit(struct vmt_output *o);
/* Close and remove the temporary file: the output stays as it was.  In
 * a fork child of the process that opened it, only close. */
void vmt_output_abort(struct vmt_output *o);
/* A phrase for a vmt_output_* failure ("empty file name", strerror's). */
const char *vmt_output_error(int err);

#endif
