/* vmreplay - replay a vmrec trace against this kernel (or the simulator)
 * and measure latency, VMA counts, merge outcomes and fidelity. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "lib/output.h"
#include "replay/backend.h"
#include "replay/blame.h"
#include "replay/calibrate.h"
#include "replay/engine.h"
#include "replay/latency.h"
#include "replay/options.h"
#include "replay/results.h"
#include "replay/sim/sim.h"
#include "replay/standin.h"
#include "replay/trace.h"
#include "replay/vm/vm.h"

struct progress {
	const struct rp_opts *o;
	uint64_t began, last, nevents;
	int run, shown;
	uint64_t loops;
};

static void progress_show(struct progress *pg, uint64_t done)
{
	uint64_t now = lat_now();
	if (pg->o->quiet || !isatty(2) || now - pg->began < 1000000000ull || now - pg->last < 200000000ull)
		return;
	pg->last = now;
	pg->shown = 1;
	fprintf(stderr, "\rvmreplay: run %d/%d, loop %llu, %llu/%llu events, %.1f s\033[K", pg->run + 1,
	        pg->o->repeat, (unsigned long long)pg->loops + 1, (unsigned long long)done,
	        (unsigned long long)pg->nevents, (double)(now - pg->began) / 1e9);
}

static void progress_tick(struct rp_engine *e, uint64_t done)
{
	progress_show(e->tick_arg, done);
}

static void progress_end(struct progress *pg)
{
	if (pg->shown)
		fputs("\r\033[K", stderr);
	pg->shown = 0;
}

static int replay(const struct rp_opts *o, const struct rp_trace *t)
{
	const struct rp_backend *be = rp_backend_named(o->target);   /* one of them: the options checked */
	struct rp_backend_cfg cfg = { .thp = o->thp };
	struct sim_calib calib;   /* cfg.calib: read by every space until the replay ends */
	char why[512];
	const char *kernel_name;
	struct utsname u;
	uname(&u);
	kernel_name = u.release;
	if (strcmp(o->target, "sim") == 0) {
		const char *v = o->kernel ? o->kernel : "host";
		const struct sim_profile *p = sim_profile_find(v);
		if (!p) {
			fprintf(stderr, "vmreplay: --kernel %s: unknown kernel version (known: %s)\n", v,
			        *sim_profile_names() ? sim_profile_names() : "none yet");
			return 2;
		}
		cfg.profile = p;
		kernel_name = sim_profile_name(p);
		if (cfg.thp == SIM_THP_HOST)   /* once, not for every space */
			cfg.thp = sim_thp_host();
		if (!o->mthp)
			sim_mthp_host(&cfg.mthp_always, &cfg.mthp_madvise);
		else
			sim_mthp_parse(o->mthp, &cfg.mthp_always, why, sizeof why);   /* checked by the options */
		const char *cal = o->calibration ? o->calibration : getenv("VMREC_CALIBRATION");
		if (cal && *cal) {
			if (sim_calib_read(cal, &calib, why, sizeof why) < 0) {
				fprintf(stderr, "vmreplay: calibration %s\n", why);
				return 2;
			}
			cfg.calib = &calib;
		}
		if (o->per_event && !(cfg.events = sim_events_new())) {
			fprintf(stderr, "vmreplay: out of memory\n");
			return 2;
		}
	}
	lat_tick_init();
	cfg.outcomes = o->outcomes;
	cfg.clock_cost = lat_tick_cost();
	cfg.page_size = (uint64_t)sysconf(_SC_PAGESIZE);

	struct standins si = { 0 };
	if (be->real_objects) {
		if (standins_create(&si, t, o->real_files, why, sizeof(why)) < 0) {
			fprintf(stderr, "vmreplay: %s\n", why);
			standins_remove(&si);
			return 2;
		}
		standins_guard(&si);
	}
	/* everything the driver needs is allocated before the layout offset is
	 * chosen: later allocations could land where the replay maps */
	struct rp_run *runs = calloc((size_t)o->repeat, sizeof(*runs));
	if (!runs) {
		fprintf(stderr, "vmreplay: out of memory\n");
		standins_remove(&si);
		sim_events_free(cfg.events);
		return 2;
	}
	for (int r = 0; r < o->repeat; r++)
		rp_run_reset(&runs[r]);
	struct rp_engine e;
	if (rp_engine_init(&e, t, o, be, &cfg, be->real_objects ? &si : NULL) < 0) {
		free(runs);
		standins_remove(&si);
		sim_events_free(cfg.events);
		return 2;
	}
	uint64_t began = lat_now();
	struct progress pg = { .o = o, .began = began, .nevents = t->nevents };
	if (!o->quiet && isatty(2)) {
		e.tick = progress_tick;
		e.tick_arg = &pg;
	}
	int nruns = o->repeat;
	for (int r = 0; r < o->repeat; r++) {
		pg.run = r;
		rp_run_reset(&runs[r]);
		uint64_t run_began = lat_now();
		for (uint64_t l = 0; ; l++) {
			e.quiet_mismatch = r > 0 || l > 0;
			pg.loops = l;
			rp_engine_run_once(&e);
			rp_run_add_loop(&runs[r], &e, r == 0 && l == 0);
			progress_show(&pg, t->nevents);
			if (runs[r].incomplete[0] ||
			    (o->duration > 0 ? lat_now() - run_began >= (uint64_t)(o->duration * 1e9)
			                     : l + 1 >= (uint64_t)o->loop))
				break;
		}
		if (runs[r].incomplete[0]) {   /* what failed once fails again: no more runs */
			nruns = r + 1;
			break;
		}
	}
	progress_end(&pg);
	/* the verdict on each checkpoint that differs, before anything says it */
	int unfaithful = rp_blame(&e, kernel_name, &runs[0]);
	for (int r = 1; r < nruns; r++)   /* a later run differing where the first did not */
		unfaithful |= runs[r].ck_matched != runs[r].ck_total && runs[0].ck_matched == runs[0].ck_total;
	rp_print_fidelity(stdout, t, &runs[0]);
	struct rp_report rep = {
		.t = t, .o = o, .target = be->target, .kernel = kernel_name,
		.clock_cost = cfg.clock_cost, .runs = runs, .nruns = nruns, .e = &e,
	};
	if (!o->quiet)
		rp_print_summary(stdout, &rep);
	int status = 0;
	if (o->json && rp_write_json(o->json, &rep) < 0)
		status = 2;
	const struct rp_run *last = &runs[nruns - 1];
	if (rp_incomplete_reason(&rep) && !status)
		status = 1;
	if (o->strict && !status && (last->ck_total == 0 || unfaithful ||
	                             last->mismatches || last->unplaceable || last->moved)) {
		if (last->ck_total == 0)
			fprintf(stderr, "vmreplay: %s: --strict: the trace has no checkpoints to compare\n", t->path);
		status = 1;
	}
	for (int r = 0; r < o->repeat; r++)
		rp_run_free(&runs[r]);
	free(runs);
	rp_engine_free(&e);
	standins_remove(&si);
	sim_events_free(cfg.events);
	return status;
}

/* --json OUT writable before any work: 0, or -1 with the message printed.
 * Tried as it will be written (lib/output.h), its temporary file removed. */
static int json_writable(const char *path)
{
	struct output out;
	if (!output_open(&out, "vmreplay", path, VMT_OUTPUT_MODE_PRIVATE))
		return -1;
	output_abort(&out);
	return 0;
}

int main(int argc, char **argv)
{
	struct rp_opts o;
	int r = rp_parse_options(argc, argv, &o);
	if (!r && o.calibrate) {
		int status = rp_calibrate(o.calibrate);
		rp_free_options(&o);
		return status;
	}
	if (r || o.vm.on) {
		int status = r ? (r > 0 ? 0 : 2) : vm_replay_main(&o);
		rp_free_options(&o);
		return status;
	}
	if (o.json && json_writable(o.json) < 0) {
		rp_free_options(&o);
		return 2;
	}
	const struct rp_backend *be = rp_backend_named(o.target);
	if (be->hold_low)
		be->hold_low();
	struct rp_trace t;
	char why[512];
	if (rp_trace_load(&t, o.trace, why, sizeof(why)) < 0) {
		fprintf(stderr, "vmreplay: %s\n", why);
		rp_free_options(&o);
		return 2;
	}
	if (t.incomplete)
		fprintf(stderr, "vmreplay: %s; replaying the %zu complete events before it\n",
		        t.note, t.nevents);
	int status = replay(&o, &t);
	rp_trace_free(&t);
	rp_free_options(&o);
	return status;
}
