/* options.h - vmreplay's command line. */
#ifndef VMREPLAY_OPTIONS_H
#define VMREPLAY_OPTIONS_H

enum rp_placement { RP_PLACE_RECORDED, RP_PLACE_KERNEL };

struct rp_opts {
	const char *trace;
	const char *json;         /* --json OUT */
	const char *target;       /* "kernel" | "sim" */
	const char *kernel;       /* --kernel VERSION (sim) */
	int thp;                  /* --thp MODE (sim): enum sim_thp, SIM_THP_HOST by default */
	int placement;            /* enum rp_placement */
	int real_files;
	int threads;
	int repeat, loop;
	double duration;          /* seconds; 0: use loop */
	int strict, quiet, per_event;
	int outcomes;             /* 0 with --no-outcomes */
	int argc;                 /* the whole command line, for "command" */
	char **argv;
};

/* 0: parsed; 1: --help printed (exit 0); -1: error printed (exit 2). */
int rp_parse_options(int argc, char **argv, struct rp_opts *o);

#endif
