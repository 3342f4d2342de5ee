/* input.h - how the tools open a file they read as a stream (results for
 * vmreport, a log for vmtrace import-strace): a regular file, or a pipe
 * (a FIFO, process substitution's /dev/fd/N) read as it comes; never a
 * device, a directory or a socket, and never a wait in open() for a FIFO
 * that nobody writes (it reads as empty).  Traces, which are read at
 * offsets, are opened by the trace library, regular files only. */
#ifndef LIB_INPUT_H
#define LIB_INPUT_H

#include <stdio.h>

/* The stream, or NULL with errno set (EINVAL: not a regular file or a
 * pipe; *why then says so, else strerror's). */
FILE *input_open(const char *path, const char **why);

#endif
