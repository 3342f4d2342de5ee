/* synth_main.c - `vmtrace synth NAME [OPTIONS] -o TRACE` */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/vmtrace.h"
#include "analysis/synth/synth.h"

static const struct synth_workload workloads[] = {
	{ "brk_test", "AIM9 brk_test: sbrk(-64K) + 16 x sbrk(4K), 1000 rounds", synth_brk_test },
	{ "page_test", "AIM9 page_test: brk_test touching each new page, 100 rounds", synth_page_test },
	{ "brk1", "will-it-scale brk1: brk(a + page); brk(a)", synth_wis_brk1 },
	{ "brk2", "will-it-scale brk2: the same above one extra heap page", synth_wis_brk2 },
	{ "mmap1", "will-it-scale mmap1: mmap + munmap of 128 MiB anonymous", synth_wis_mmap1 },
	{ "mmap2", "will-it-scale mmap2: mmap + munmap of a 128 MiB file", synth_wis_mmap2 },
	{ "pthread", "stress-ng pthread: rounds of thread create/exit/join", synth_pthread },
	{ "fork", "linux-mm fork micro-benchmark: fork with 1 GiB populated", synth_fork_bench },
	{ "calibrate", "the calls vmreplay --calibrate times: a mix at 3 tree sizes", synth_calibrate },
};
#define NWORKLOADS (sizeof(workloads) / sizeof(workloads[0]))

static int synth_usage(FILE *f)
{
	fprintf(f, "usage: vmtrace synth NAME [--iterations N] [--tasks N] "
	           "[--mode process|thread] [--seed S] -o TRACE\n");
	for (size_t i = 0; i < NWORKLOADS; i++)
		fprintf(f, "  %-10s %s\n", workloads[i].name, workloads[i].summary);
	return 2;
}

static int parse_u64(const char *opt, const char *arg, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 0);
	if (!*arg || *end || arg[0] == '-' || v > max) {
		fprintf(stderr, "vmtrace: synth: bad %s '%s'\n", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

int vmtrace_synth_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "iterations", required_argument, NULL, 'i' },
		{ "tasks", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ NULL, 0, NULL, 0 },
	};
	struct synth_opts o = { 0 };
	uint64_t v;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'i':
			if (parse_u64("--iterations", optarg, 1ull << 32, &o.iterations) < 0)
				return 2;
			break;
		case 'n':
			if (parse_u64("--tasks", optarg, 4096, &v) < 0 || v == 0)
				return 2;
			o.tasks = (int)v;
			break;
		case 'm':
			if (strcmp(optarg, "process") && strcmp(optarg, "thread")) {
				fprintf(stderr, "vmtrace: synth: --mode is process or thread\n");
				return 2;
			}
			o.threads = !strcmp(optarg, "thread");
			break;
		case 's':
			if (parse_u64("--seed", optarg, UINT64_MAX, &o.seed) < 0)
				return 2;
			break;
		case 'l':
			synth_usage(stdout);
			return 0;
		default:
			return synth_usage(stderr);
		}
	}
	if (optind + 1 != argc || !o.out)
		return synth_usage(stderr);
	int r = synth_write(argv[optind], &o);
	return r == -2 ? 2 : r < 0 ? 1 : 0;   /* no such workload: a usage error */
}

int synth_write(const char *name, const struct synth_opts *o)
{
	const struct synth_workload *w = NULL;
	for (size_t i = 0; i < NWORKLOADS; i++)
		if (!strcmp(name, workloads[i].name))
			w = &workloads[i];
	if (!w) {
		fprintf(stderr, "vmtrace: synth: no workload '%s'\n", name);
		synth_usage(stderr);
		return -2;
	}
	char exe[64], cmdline[160];
	snprintf(exe, sizeof(exe), "/usr/local/bin/%s", w->name);
	snprintf(cmdline, sizeof(cmdline), "%s (vmtrace synth %s)", exe, w->name);
	struct synth s = { .exe = exe };
	if (synth_begin(&s, o, cmdline) < 0)
		return -1;
	int ret = w->run(&s, o);
	if (ret < 0)
		s.failed = 1;   /* nothing replaces the output */
	if (synth_end(&s) < 0 || ret < 0) {
		fprintf(stderr, "vmtrace: synth %s: %s not written\n", w->name, o->out);
		return -1;
	}
	return 0;
}
