/* standin.h - stand-in files for file-backed mappings: one sparse file of
 * the recorded size per recorded file identity (dev, ino), in a private
 * temporary directory that is removed at exit, on SIGINT/SIGTERM/SIGHUP too;
 * a recorded memfd ("/memfd:NAME") gets a memfd, shmem as it was, and a
 * file on hugetlbfs (FILE's fs_type) a memfd of huge pages, made when
 * mapped and made anew once none of this process's VMAs maps it.
 * With real_files the recorded paths are opened instead, read-only and
 * following no symlink; a file that cannot be mapped as recorded (gone,
 * not a regular file, shorter than recorded, or mapped shared and
 * writable) gets a stand-in, and one line on stderr says why.
 *
 * Every record of one identity shares one descriptor.  Identities beyond
 * what the descriptor limit leaves room for are opened when a mapping
 * needs them (standins_fd), one at a time: the previous one is closed then
 * (its mappings keep the file). */
#ifndef VMREPLAY_STANDIN_H
#define VMREPLAY_STANDIN_H

#include "replay/trace.h"

#define STANDIN_LAZY (-2)  /* fd[i]: opened on demand (standins_fd) */

struct standins {
	char dir[256];        /* "" when no directory was needed */
	int *fd;              /* per trace file (rp_trace.files index), -1 none */
	uint32_t *first;      /* per trace file: the first record of its identity */
	size_t n;
	uint8_t *real;        /* --real-files: per trace file, 1 when the real file serves */
	const struct rp_trace *t;
};

/* 0, or -1 with a message in why. */
int standins_create(struct standins *s, const struct rp_trace *t, int real_files,
                    char *why, size_t whylen);
int standins_fd_lazy(const struct standins *s, size_t i);
/* The descriptor for trace file i, or -1.  Not to be closed by the caller;
 * one opened on demand stays good until the next such call. */
static inline int standins_fd(const struct standins *s, size_t i)
{
	if (!s || i >= s->n)
		return -1;
	return s->fd[i] != STANDIN_LAZY ? s->fd[i] : standins_fd_lazy(s, i);
}
/* Remove the directory and its files (idempotent; safe in the parent only). */
void standins_remove(struct standins *s);
/* Install the signal handlers that remove the directory before dying. */
void standins_guard(struct standins *s);
/* Replayer processes must not remove the directory when they exit. */
void standins_forget_in_child(void);
/* The replayer's process has ended: the stand-in opened on demand last
 * (a hugetlbfs file's, which holds its huge pages) is closed. */
void standins_close_lazy(void);

#endif
