/* vmtrace - inspect, validate, convert and synthesize vmrec traces. */
#include <stdio.h>
#include <string.h>
#include "analysis/vmtrace.h"

static const struct {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "dump", vmtrace_dump_main, "dump [-T] [-t|-tt|-ttt] [-k] TRACE   events as strace -f prints them" },
	{ "stats", vmtrace_stats_main, "stats [--json] TRACE               counts per call, process, thread" },
	{ "check", vmtrace_check_main, "check TRACE                        validate the whole trace" },
	{ "import-strace", vmtrace_import_strace_main, "import-strace LOG -o TRACE         convert strace -f -ttt -T output" },
	{ "synth", vmtrace_synth_main, "synth NAME [OPTIONS] -o TRACE      write a benchmark's calls as a trace" },
	{ "top", vmtrace_top_main, "top [OPTIONS] TRACE                 where the VMA calls come from" },
	{ "syscalls", vmtrace_syscalls_main, "syscalls                           the system calls vmrec records" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: vmtrace COMMAND [ARGS]\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  vmtrace %s\n", commands[i].usage);
	fprintf(f, "See vmtrace(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].main(argc - 1, argv + 1);
	fprintf(stderr, "vmtrace: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
