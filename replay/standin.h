/* standin.h - stand-in files for file-backed mappings: one sparse file of
 * the recorded size per recorded file identity (dev, ino), in a private
 * temporary directory that is removed at exit, on SIGINT/SIGTERM/SIGHUP too.
 * With real_files the recorded paths are opened instead (read-only). */
#ifndef VMREPLAY_STANDIN_H
#define VMREPLAY_STANDIN_H

#include "replay/trace.h"

struct standins {
	char dir[256];        /* "" when no directory was needed */
	int *fd;              /* per trace file (rp_trace.files index), -1 none */
	size_t n;
	int real_files;
};

/* 0, or -1 with a message in why. */
int standins_create(struct standins *s, const struct rp_trace *t, int real_files,
                    char *why, size_t whylen);
/* Remove the directory and its files (idempotent; safe in the parent only). */
void standins_remove(struct standins *s);
/* Install the signal handlers that remove the directory before dying. */
void standins_guard(struct standins *s);
/* Replayer processes must not remove the directory when they exit. */
void standins_forget_in_child(void);

#endif
