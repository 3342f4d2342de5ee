/* vmtrace.h - the subcommands of vmtrace, one file each. */
#ifndef VMREC_VMTRACE_H
#define VMREC_VMTRACE_H

#include <stdint.h>
#include "vmt.h"

int vmtrace_dump_main(int argc, char **argv);
int vmtrace_stats_main(int argc, char **argv);
int vmtrace_check_main(int argc, char **argv);
int vmtrace_import_strace_main(int argc, char **argv);
int vmtrace_synth_main(int argc, char **argv);   /* analysis/synth/ */
int vmtrace_top_main(int argc, char **argv);     /* analysis/vmtrace_top.c */
int vmtrace_syscalls_main(int argc, char **argv);

/* Open TRACE for reading or print the library's one-line error
 * ("vmtrace: t.lz4: not a vmrec trace (bad magic)") and return NULL. */
struct vmt_reader *vmtrace_open(const char *path, int order);

/* Create TRACE for writing (vmt_writer_open: it replaces TRACE when closed
 * without error; vmt_writer_discard drops it) or print why not
 * ("vmtrace: /x/t.lz4: cannot write: No such file or directory") and
 * return NULL. */
struct vmt_writer *vmtrace_create(const char *path);

#endif
