/* vmtrace_files.h - how vmtrace's subcommands open the trace they read
 * or write (vmtrace_files.c). */
#ifndef VMREC_VMTRACE_FILES_H
#define VMREC_VMTRACE_FILES_H

#include "vmt.h"

/* Open TRACE for reading or print the library's one-line error
 * ("vmtrace: t.lz4: not a vmrec trace (bad magic)") and return NULL. */
struct vmt_reader *vmtrace_open(const char *path, int order);

/* Create TRACE for writing (vmt_writer_open: it replaces TRACE when closed
 * without error; vmt_writer_discard drops it) or print why not
 * ("vmtrace: /x/t.lz4: cannot write: No such file or directory") and
 * return NULL. */
struct vmt_writer *vmtrace_create(const char *path);

#endif
