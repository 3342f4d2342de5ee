/* options.h - vmreplay's command line. */
#ifndef VMREPLAY_OPTIONS_H
#define VMREPLAY_OPTIONS_H

enum rp_placement { RP_PLACE_RECORDED, RP_PLACE_KERNEL };

/* --vm: replay inside real kernels booted under QEMU (replay/vm/). */
#define RP_VM_MAX_KERNELS 16
#define RP_VM_DEFAULT_MEM "1G"   /* --vm-mem: below 512 MiB the guest turns THP off */
struct rp_vm_opts {
	int on;                   /* --vm was given */
	char *kernels[RP_VM_MAX_KERNELS];   /* --vm K[,K...], malloc'd */
	int nkernels;
	const char *memory;       /* --vm-mem SIZE: qemu's -m */
	const char *thp;          /* --vm-thp MODE; NULL: the host's */
	unsigned timeout_s;       /* --vm-timeout SEC */
	int keep;                 /* --vm-keep: leave the work directory */
	char **fwd;               /* the options the guest's replayer gets, in order */
	int nfwd;
	char **traces;            /* the trace, or every argument after "--" */
	int ntraces;
};

struct rp_opts {
	const char *trace;
	const char *json;         /* --json OUT */
	const char *target;       /* "kernel" | "sim" */
	const char *kernel;       /* --kernel VERSION (sim) */
	int thp;                  /* --thp MODE (sim): enum sim_thp, SIM_THP_HOST by default */
	const char *mthp;         /* --mthp SIZES (sim); NULL: this machine's */
	const char *calibration;  /* --calibration FILE (sim); NULL: $VMREC_CALIBRATION or shipped */
	const char *calibrate;    /* --calibrate OUT: fit the costs on this kernel */
	int placement;            /* enum rp_placement */
	int real_files;
	int threads;
	int repeat, loop;
	double duration;          /* seconds; 0: use loop */
	int strict, quiet, per_event;
	int outcomes;             /* 0 with --no-outcomes */
	unsigned long long mem_limit;   /* --mem-limit in bytes (membudget.h); 0: none */
	int argc;                 /* the whole command line, for "command" */
	char **argv;
	struct rp_vm_opts vm;
};

/* The one parser of vmreplay's command line, with and without --vm.
 * 0: parsed; 1: --help printed (exit 0); -1: error printed (exit 2).
 * rp_free_options() after any of them. */
int rp_parse_options(int argc, char **argv, struct rp_opts *o);
void rp_free_options(struct rp_opts *o);

#endif
