/* vmtrace.h - the subcommands of vmtrace, one file each. */
#ifndef VMREC_VMTRACE_H
#define VMREC_VMTRACE_H

int vmtrace_dump_main(int argc, char **argv);
int vmtrace_stats_main(int argc, char **argv);
int vmtrace_check_main(int argc, char **argv);
int vmtrace_import_strace_main(int argc, char **argv);
int vmtrace_synth_main(int argc, char **argv);   /* analysis/synth/ */
int vmtrace_top_main(int argc, char **argv);     /* analysis/vmtrace_top.c */
int vmtrace_syscalls_main(int argc, char **argv);

#endif
