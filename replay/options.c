#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/membudget.h"
#include "replay/options.h"
#include "replay/sim/sim.h"

static const char usage[] =
"usage: vmreplay [options] TRACE\n"
"  --placement recorded|kernel  where mappings go (default: recorded)\n"
"  --real-files          map the recorded paths instead of stand-in files\n"
"  --threads             replay each recorded thread in its own thread\n"
"  --target kernel|sim   replay on this kernel (default) or in the simulator\n"
"  --kernel VERSION      the simulator's kernel profile (6.1, 6.12, host, ...)\n"
"  --thp MODE            the simulator's transparent_hugepage/enabled: always,\n"
"                        madvise, never or host (default: this machine's)\n"
"  --mthp SIZES          the simulator's anonymous folio sizes below 2 MiB,\n"
"                        enabled always: 64K, 16K,64K, none (default: this\n"
"                        machine's hugepages-*kB/enabled)\n"
"  --calibration FILE    the simulator's per-unit costs for vmreplay.model.cost_ns\n"
"                        (default: $VMREC_CALIBRATION, else the shipped one)\n"
"  --calibrate OUT       fit those costs on this kernel and write them to OUT\n"
"  --list-profiles       print the simulator's kernel profiles and exit\n"
"  --list-rules          print the simulator's kernel rules and exit\n"
"  --repeat N            independent runs (one metric value per run)\n"
"  --loop N              replay the trace N times per run\n"
"  --duration SECONDS    loop the trace for this long per run\n"
"  --json OUT            write results (docs/results-schema.md)\n"
"  --per-event           per-event results in the JSON\n"
"  --no-outcomes         skip merge-outcome queries (fastest replay)\n"
"  --strict              exit 1 unless every checkpoint matched\n"
"  --mem-limit SIZE      stop the replay past SIZE of memory (512M, 2G, 25%;\n"
"                        none: no limit; default: half of RAM or of the\n"
"                        memory cgroup's limit)\n"
"  -q, --quiet           no progress line, no summary\n"
"  --vm K[,K...]         replay inside these kernels booted under QEMU: a vmlinuz\n"
"                        path, a release in the kernel store (6.1, 6.12), or host\n"
"                        (docs/vm.md); several traces go after --:\n"
"                        vmreplay --vm K[,K...] [options] -- TRACE...\n"
"  --vm-timeout SEC      with --vm: kill a guest still running after SEC (600)\n"
"  --vm-mem SIZE         with --vm: guest memory, qemu's -m (default 1G)\n"
"  --vm-thp MODE         with --vm: the guests' THP mode: always, madvise or never\n"
"                        (default: this machine's)\n"
"  --vm-keep             with --vm: keep the work directory\n";

static int positive(const char *opt, const char *arg, int *out)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (*end || v < 1 || v > 1000000000) {
		fprintf(stderr, "vmreplay: %s: not a positive count: %s\n", opt, arg);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Each kernel of a comma-separated --vm list (several --vm add up). */
static int add_kernels(struct rp_vm_opts *vm, const char *list)
{
	for (const char *p = list; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		if (n) {
			if (vm->nkernels == RP_VM_MAX_KERNELS) {
				fprintf(stderr, "vmreplay: --vm: more than %d kernels\n", RP_VM_MAX_KERNELS);
				return -1;
			}
			if (!(vm->kernels[vm->nkernels] = strndup(p, n))) {
				fprintf(stderr, "vmreplay: out of memory\n");
				return -1;
			}
			vm->nkernels++;
		}
		p += n;
	}
	return 0;
}

/* The QEMU back end's options, after the others are read. */
static int check_vm(const struct rp_opts *o, const char *vm_only)
{
	if (!o->vm.on && vm_only) {
		fprintf(stderr, "vmreplay: %s needs --vm\n", vm_only);
		return -1;
	}
	if (o->vm.on && !o->vm.nkernels) {
		fprintf(stderr, "vmreplay: --vm: no kernel named\n");
		return -1;
	}
	return 0;
}

int rp_parse_options(int argc, char **argv, struct rp_opts *o)
{
	enum { O_PLACEMENT = 256, O_REAL, O_THREADS, O_TARGET, O_KERNEL, O_REPEAT, O_LOOP,
	       O_DURATION, O_JSON, O_PER_EVENT, O_NO_OUTCOMES, O_STRICT, O_HELP, O_LIST_PROFILES, O_LIST_RULES,
	       O_THP, O_MTHP, O_CALIBRATION, O_CALIBRATE, O_VM, O_VM_TIMEOUT, O_VM_MEM, O_VM_THP, O_VM_KEEP,
	       O_MEM_LIMIT };
	static const struct option longopts[] = {
		{ "placement", required_argument, 0, O_PLACEMENT },
		{ "real-files", no_argument, 0, O_REAL },
		{ "threads", no_argument, 0, O_THREADS },
		{ "target", required_argument, 0, O_TARGET },
		{ "kernel", required_argument, 0, O_KERNEL },
		{ "thp", required_argument, 0, O_THP },
		{ "mthp", required_argument, 0, O_MTHP },
		{ "calibration", required_argument, 0, O_CALIBRATION },
		{ "calibrate", required_argument, 0, O_CALIBRATE },
		{ "repeat", required_argument, 0, O_REPEAT },
		{ "loop", required_argument, 0, O_LOOP },
		{ "duration", required_argument, 0, O_DURATION },
		{ "json", required_argument, 0, O_JSON },
		{ "per-event", no_argument, 0, O_PER_EVENT },
		{ "no-outcomes", no_argument, 0, O_NO_OUTCOMES },
		{ "strict", no_argument, 0, O_STRICT },
		{ "mem-limit", required_argument, 0, O_MEM_LIMIT },
		{ "quiet", no_argument, 0, 'q' },
		{ "help", no_argument, 0, O_HELP },
		{ "list-profiles", no_argument, 0, O_LIST_PROFILES },
		{ "list-rules", no_argument, 0, O_LIST_RULES },
		{ "vm", required_argument, 0, O_VM },
		{ "vm-timeout", required_argument, 0, O_VM_TIMEOUT },
		{ "vm-mem", required_argument, 0, O_VM_MEM },
		{ "vm-thp", required_argument, 0, O_VM_THP },
		{ "vm-keep", no_argument, 0, O_VM_KEEP },
		{ 0, 0, 0, 0 }
	};
	memset(o, 0, sizeof(*o));
	o->target = "kernel";
	o->repeat = o->loop = 1;
	o->outcomes = 1;
	o->mem_limit = rp_mem_default();
	o->argc = argc;
	o->argv = argv;
	/* below 512 MiB of RAM the kernel turns THP off by itself */
	o->vm.memory = RP_VM_DEFAULT_MEM;
	o->vm.timeout_s = 600;
	if (!(o->vm.fwd = calloc((size_t)argc + 1, sizeof(*o->vm.fwd)))) {
		fprintf(stderr, "vmreplay: out of memory\n");
		return -1;
	}
	const char *vm_only = NULL;   /* a --vm-* option, seen */
	int c, before = optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:q", longopts, NULL)) != -1) {
		int host = 0;   /* the QEMU back end's own: not for the guest's replayer */
		switch (c) {
		case O_PLACEMENT:
			if (strcmp(optarg, "recorded") == 0)
				o->placement = RP_PLACE_RECORDED;
			else if (strcmp(optarg, "kernel") == 0)
				o->placement = RP_PLACE_KERNEL;
			else {
				fprintf(stderr, "vmreplay: --placement: expected recorded or kernel, got %s\n", optarg);
				return -1;
			}
			break;
		case O_REAL: o->real_files = 1; break;
		case O_THREADS: o->threads = 1; break;
		case O_TARGET:
			if (strcmp(optarg, "kernel") && strcmp(optarg, "sim")) {
				fprintf(stderr, "vmreplay: --target: expected kernel or sim, got %s\n", optarg);
				return -1;
			}
			o->target = optarg;
			break;
		case O_KERNEL: o->kernel = optarg; break;
		case O_THP:
			if ((o->thp = sim_thp_parse(optarg)) < 0) {
				fprintf(stderr, "vmreplay: --thp: expected always, madvise, never or host, got %s\n",
				        optarg);
				return -1;
			}
			break;
		case O_MTHP: {
			char why[160];
			uint32_t always;
			if (sim_mthp_parse(optarg, &always, why, sizeof why) < 0) {
				fprintf(stderr, "vmreplay: --mthp: %s\n", why);
				return -1;
			}
			o->mthp = optarg;
			break;
		}
		case O_CALIBRATION: o->calibration = optarg; break;
		case O_CALIBRATE: o->calibrate = optarg; break;
		case O_REPEAT: if (positive("--repeat", optarg, &o->repeat)) return -1; break;
		case O_LOOP: if (positive("--loop", optarg, &o->loop)) return -1; break;
		case O_DURATION: {
			char *end;
			o->duration = strtod(optarg, &end);
			if (*end || !(o->duration > 0)) {
				fprintf(stderr, "vmreplay: --duration: not a positive number of seconds: %s\n", optarg);
				return -1;
			}
			break;
		}
		/* with --vm the host writes the results file: each guest's goes
		 * to a name of its own (vm_results_name) */
		case O_JSON: o->json = optarg; host = 1; break;
		case O_PER_EVENT: o->per_event = 1; break;
		case O_NO_OUTCOMES: o->outcomes = 0; break;
		case O_STRICT: o->strict = 1; break;
		case O_MEM_LIMIT: {
			uint64_t b;
			if (rp_mem_parse(optarg, &b) < 0) {
				fprintf(stderr, "vmreplay: --mem-limit: not a size (512M, 2G, 25%%, none): %s\n", optarg);
				return -1;
			}
			o->mem_limit = b;
			break;
		}
		case 'q': o->quiet = 1; break;
		case O_HELP: fputs(usage, stdout); return 1;
		case O_LIST_PROFILES: sim_list_profiles(stdout); return 1;
		case O_LIST_RULES: sim_list_rules(stdout); return 1;
		case O_VM:
			o->vm.on = host = 1;
			if (add_kernels(&o->vm, optarg))
				return -1;
			break;
		case O_VM_TIMEOUT: {
			char *end;
			unsigned long t = strtoul(optarg, &end, 10);
			if (*end || !t || t > 86400) {
				fprintf(stderr, "vmreplay: --vm-timeout: not seconds (1-86400): %s\n", optarg);
				return -1;
			}
			o->vm.timeout_s = (unsigned)t;
			vm_only = "--vm-timeout";
			host = 1;
			break;
		}
		case O_VM_MEM: o->vm.memory = optarg; vm_only = "--vm-mem"; host = 1; break;
		case O_VM_THP:
			if (strcmp(optarg, "always") && strcmp(optarg, "madvise") && strcmp(optarg, "never")) {
				fprintf(stderr, "vmreplay: --vm-thp: expected always, madvise or never, got %s\n",
				        optarg);
				return -1;
			}
			o->vm.thp = optarg;
			vm_only = "--vm-thp";
			host = 1;
			break;
		case O_VM_KEEP: o->vm.keep = 1; vm_only = "--vm-keep"; host = 1; break;
		case ':':
			fprintf(stderr, "vmreplay: %s wants a value\n", argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "vmreplay: unknown option %s\n%s", argv[optind - 1], usage);
			return -1;
		}
		/* the arguments this option took (none yet inside "-qq") */
		for (; !host && before < optind; before++)
			o->vm.fwd[o->vm.nfwd++] = argv[before];
		before = optind;
	}
	if (o->calibrate) {
		/* its own traces, on this kernel (replay/calibrate.c) */
		if (optind != argc || o->vm.on || o->kernel || o->json) {
			fprintf(stderr, "vmreplay: --calibrate OUT takes no trace and no other replay options\n");
			return -1;
		}
		return 0;
	}
	/* getopt steps over a "--" that ends the options */
	int dashdash = optind > before;
	if ((o->vm.on && dashdash) ? optind == argc : optind != argc - 1) {
		fprintf(stderr, "vmreplay: expected one TRACE argument\n%s", usage);
		return -1;
	}
	o->trace = argv[optind];
	o->vm.traces = argv + optind;
	o->vm.ntraces = argc - optind;
	if (o->kernel && strcmp(o->target, "sim")) {
		fprintf(stderr, "vmreplay: --kernel needs --target sim (or --vm for real kernels)\n");
		return -1;
	}
	if ((o->thp != SIM_THP_HOST || o->mthp) && strcmp(o->target, "sim")) {
		fprintf(stderr, "vmreplay: --%s needs --target sim (this kernel has its own setting)\n",
		        o->mthp ? "mthp" : "thp");
		return -1;
	}
	if (o->calibration && strcmp(o->target, "sim")) {
		fprintf(stderr, "vmreplay: --calibration needs --target sim\n");
		return -1;
	}
	return check_vm(o, vm_only);
}

void rp_free_options(struct rp_opts *o)
{
	for (int k = 0; k < o->vm.nkernels; k++)
		free(o->vm.kernels[k]);
	o->vm.nkernels = 0;
	free(o->vm.fwd);
	o->vm.fwd = NULL;
}
