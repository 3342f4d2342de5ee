/* calibrate.c - vmreplay --calibrate OUT: what each unit of the
 * simulator's model costs on this kernel.
 *
 * The calls: `vmtrace synth calibrate` (a mix of mmap, munmap, mprotect,
 * madvise and brk at three tree sizes, nothing touched) replayed here
 * RUNS times, each event's latency the median of its runs, and once in
 * the simulator's `host` profile for each event's counts.  A cost per
 * unit is fitted to them (least squares of the relative error, no cost
 * below 0), the fixed per-call cost held at what a system call that does
 * nothing takes.  What no call of the mix does is measured directly: a
 * first touch of a 4 KiB page and of a 2 MiB page, the anon_vma a first
 * fault of a VMA prepares, and fork: its fixed cost, a PTE copied (the
 * zero page, no refcount) and a refcount and rmap update (a written page
 * less the zero page).  mTHP folios: a fault (a 4 KiB first touch less
 * its zeroing) and 4 KiB of zeroing (a 2 MiB first touch / 512) per page.
 * The file says the machine; its "fit" lines the error per kind of call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "replay/backend.h"
#include "replay/calibrate.h"
#include "replay/engine.h"
#include "replay/latency.h"
#include "replay/options.h"
#include "replay/sim/sim.h"
#include "replay/standin.h"
#include "replay/trace.h"

#define RUNS 7
#define PG ((unsigned long)VMT_PAGE)

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n ? v[n / 2] : 0;
}

/* ---- direct measurements ---------------------------------------------- */

/* a system call that does nothing: entry, exit, the mitigations */
static double null_call_ns(void)
{
	double r[15];
	for (int k = 0; k < 15; k++) {
		double t0 = now_ns();
		for (int i = 0; i < 5000; i++)
			syscall(SYS_getppid);
		r[k] = (now_ns() - t0) / 5000;
	}
	return median(r, 15);
}

static void *map(size_t len, int advice)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (advice >= 0)
		madvise(p, len, advice);
	return p;
}

/* ns per first touch (a write) of each `step` bytes of a fresh `len` */
static double first_touch_ns(size_t len, size_t step, int advice, size_t align)
{
	double r[5];
	for (int k = 0; k < 5; k++) {
		char *raw = map(len + align, -1), *p;
		if (!raw)
			return -1;
		p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
		madvise(p, len, advice);
		double t0 = now_ns();
		for (size_t o = 0; o < len; o += step)
			((volatile char *)p)[o] = 1;
		r[k] = (now_ns() - t0) / (double)(len / step);
		munmap(raw, len + align);
	}
	return median(r, 5);
}

/* AnonHugePages of this process, kB */
static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "re");
	char line[256];
	long kb = 0;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "AnonHugePages: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* whether a MADV_HUGEPAGE first touch gets 2 MiB pages here */
static int thp_works(void)
{
	size_t len = 8ul << 20;
	char *raw = map(len + (2ul << 20), -1), *p;
	long before = anon_huge_kb(), after;
	if (!raw)
		return 0;
	p = (char *)(((uintptr_t)raw + (2ul << 20) - 1) & ~(uintptr_t)((2ul << 20) - 1));
	madvise(p, len, MADV_HUGEPAGE);
	for (size_t o = 0; o < len; o += 2ul << 20)
		p[o] = 1;
	after = anon_huge_kb();
	munmap(raw, len + (2ul << 20));
	return after - before >= 4096;
}

/* the first write fault of a VMA prepares its anon_vma: the first page
 * of 2000 two-page VMAs (apart: PROT_NONE between) less their second */
static double anon_vma_ns(void)
{
	enum { N = 2000 };
	double r[5];
	for (int k = 0; k < 5; k++) {
		char *p = mmap(NULL, 3 * PG * N, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -1;
		for (int i = 0; i < N; i++)
			mprotect(p + 3 * PG * i, 2 * PG, PROT_READ | PROT_WRITE);
		double t0 = now_ns();
		for (int i = 0; i < N; i++)
			((volatile char *)p)[3 * PG * i] = 1;
		double t1 = now_ns();
		for (int i = 0; i < N; i++)
			((volatile char *)p)[3 * PG * i + PG] = 1;
		double t2 = now_ns();
		r[k] = ((t1 - t0) - (t2 - t1)) / N;
		munmap(p, 3 * PG * N);
	}
	double m = median(r, 5);
	return m > 0 ? m : 0;
}

/* fork() of this process, ns, median of 9 */
static double fork_ns(void)
{
	double r[9];
	for (int k = 0; k < 9; k++) {
		double t0 = now_ns();
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		r[k] = now_ns() - t0;
		if (pid < 0)
			return -1;
		waitpid(pid, NULL, 0);
	}
	return median(r, 9);
}

struct fork_costs { double base, pte, rmap; };

/* fork with nothing more, with 128 MiB mapped to the zero page (PTEs, no
 * refcount) and with 128 MiB written (PTEs and a refcount and rmap update
 * each), in alternating rounds (the machine is shared), medians */
static int fork_costs(struct fork_costs *fc)
{
	enum { ROUNDS = 5 };
	size_t len = 128ul << 20, pages = len / PG;
	double t0[ROUNDS], tz[ROUNDS], tw[ROUNDS];
	char sink = 0;

	for (int r = 0; r < ROUNDS; r++) {
		volatile char *p;
		t0[r] = fork_ns();
		if (!(p = map(len, MADV_NOHUGEPAGE)))
			return -1;
		p[0] = 1;   /* an anon_vma, so fork copies the page tables */
		for (size_t o = PG; o < len; o += PG)
			sink ^= p[o];
		tz[r] = fork_ns();
		munmap((void *)p, len);
		if (!(p = map(len, MADV_NOHUGEPAGE)))
			return -1;
		for (size_t o = 0; o < len; o += PG)
			p[o] = (char)(1 + sink);
		tw[r] = fork_ns();
		munmap((void *)p, len);
		if (t0[r] < 0 || tz[r] < 0 || tw[r] < 0)
			return -1;
	}
	fc->base = median(t0, ROUNDS);
	double z = median(tz, ROUNDS), w = median(tw, ROUNDS);
	fc->pte = z > fc->base ? (z - fc->base) / (double)pages : 0;
	fc->rmap = w > z ? (w - z) / (double)pages : 0;
	return 0;
}

/* ---- the calls of the mix, on this kernel and in the simulator -------- */

/* `vmtrace synth calibrate -o path`, the vmtrace beside this vmreplay */
static int make_trace(const char *path)
{
	char self[4096], cmd[8300];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return -1;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(cmd, sizeof cmd, "'%s/vmtrace' synth calibrate -o '%s' >/dev/null", self, path);
	return system(cmd) == 0 ? 0 : -1;
}

/* Replay t on this kernel (sim 0: RUNS times, each event's latency into
 * lat[run * nevents + i], NAN where it was not replayed as recorded) or
 * in the simulator's host profile (its per-event counts into *evs). */
static int replay(const struct rp_trace *t, int sim, double *lat, struct sim_events **evs,
                  unsigned char *outcome)
{
	char *argv_k[] = { "vmreplay", "-q", (char *)t->path, NULL };
	char *argv_s[] = { "vmreplay", "-q", "--target", "sim", "--kernel", "host", (char *)t->path, NULL };
	struct rp_opts o;
	const struct rp_backend *be = sim ? &rp_sim_backend : &rp_kernel_backend;
	struct rp_backend_cfg cfg = { 0 };
	struct standins si = { 0 };
	struct rp_engine e;
	char why[512];
	int ret = -1;

	if (rp_parse_options(sim ? 7 : 3, sim ? argv_s : argv_k, &o) != 0)
		return -1;
	if (sim) {
		cfg.profile = sim_profile_find("host");
		cfg.thp = sim_thp_host();
		sim_mthp_host(&cfg.mthp_always, &cfg.mthp_madvise);
		if (!cfg.profile || !(cfg.events = *evs = sim_events_new()))
			goto out;
	}
	lat_tick_init();
	cfg.outcomes = 1;
	cfg.clock_cost = lat_tick_cost();
	cfg.page_size = PG;
	if (be->real_objects) {
		if (standins_create(&si, t, 0, why, sizeof why) < 0) {
			fprintf(stderr, "vmreplay: --calibrate: %s\n", why);
			goto out;
		}
		standins_guard(&si);
	}
	if (rp_engine_init(&e, t, &o, be, &cfg, be->real_objects ? &si : NULL) < 0)
		goto out;
	for (int r = 0; r < (sim ? 1 : RUNS); r++) {
		e.quiet_mismatch = 1;
		rp_engine_run_once(&e);
		for (size_t i = 0; i < t->nevents && !sim; i++) {
			const struct rp_evres *v = &e.sh->ev[i];
			lat[r * t->nevents + i] = v->done && !v->skipped && !v->mismatch && !v->err
			                          ? (double)v->latency_ns : -1;
			if (r == 0)
				outcome[i] = v->outcome;
		}
	}
	ret = 0;
	rp_engine_free(&e);
out:
	standins_remove(&si);
	rp_free_options(&o);
	return ret;
}

/* ---- the fit ------------------------------------------------------------ */

struct row {
	double y;                      /* the latency, less the fixed per-call cost */
	double w;                      /* 1 / latency^2: the relative error counts */
	double x[SIM_COST_COUNT];
	int sys, outcome;
};

/* non-negative least squares by coordinate descent on the normal
 * equations of the columns in `use` */
static void nnls(const struct row *rows, size_t n, uint64_t use, double *b)
{
	double A[SIM_COST_COUNT][SIM_COST_COUNT] = { { 0 } }, c[SIM_COST_COUNT] = { 0 };
	for (size_t r = 0; r < n; r++)
		for (int j = 0; j < SIM_COST_COUNT; j++) {
			if (!(use & (1ull << j)) || !rows[r].x[j])
				continue;
			c[j] += rows[r].w * rows[r].x[j] * rows[r].y;
			for (int k = 0; k < SIM_COST_COUNT; k++)
				if (use & (1ull << k))
					A[j][k] += rows[r].w * rows[r].x[j] * rows[r].x[k];
		}
	for (int j = 0; j < SIM_COST_COUNT; j++)
		b[j] = 0;
	for (int it = 0; it < 20000; it++)
		for (int j = 0; j < SIM_COST_COUNT; j++) {
			if (!(use & (1ull << j)) || A[j][j] <= 0)
				continue;
			double g = c[j];
			for (int k = 0; k < SIM_COST_COUNT; k++)
				g -= A[j][k] * b[k];
			b[j] += g / A[j][j];
			if (b[j] < 0)
				b[j] = 0;
		}
}

static void machine_name(char *buf, size_t n)
{
	struct vmt_host h;
	vmt_host_probe(&h);
	snprintf(buf, n, "%s, %u cores", *h.cpu ? h.cpu : "unknown CPU", h.cores);
}

int rp_calibrate(const char *out)
{
	char dir[] = "/tmp/vmrec-calibrate.XXXXXX", path[64], why[512];
	struct rp_trace t;
	struct sim_events *evs = NULL;
	struct sim_calib k = { 0 };
	double *lat = NULL, *one = NULL;
	unsigned char *outcome = NULL;
	struct row *rows = NULL;
	size_t nrows = 0;
	int status = 2;
	FILE *f = NULL;

	/* the direct measurements first, while this process is small (a
	 * fork's fixed cost) and nothing of a replay is mapped */
	double call_ns = null_call_ns();
	double t4k = first_touch_ns(64ul << 20, PG, MADV_NOHUGEPAGE, PG);
	int thp = thp_works();
	double t2m = thp ? first_touch_ns(128ul << 20, 2ul << 20, MADV_HUGEPAGE, 2ul << 20) : 512 * t4k;
	double anon = anon_vma_ns();
	struct fork_costs fc;
	if (t4k < 0 || t2m < 0 || anon < 0 || fork_costs(&fc) < 0) {
		fprintf(stderr, "vmreplay: --calibrate: a direct measurement failed: %s\n", strerror(errno));
		return 2;
	}
	if (!mkdtemp(dir)) {
		fprintf(stderr, "vmreplay: --calibrate: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	snprintf(path, sizeof path, "%s/calibrate.lz4", dir);
	if (make_trace(path) < 0) {
		fprintf(stderr, "vmreplay: --calibrate: vmtrace synth calibrate failed (is vmtrace beside vmreplay?)\n");
		rmdir(dir);
		return 2;
	}
	rp_kernel_backend.hold_low();
	if (rp_trace_load(&t, path, why, sizeof why) < 0) {
		fprintf(stderr, "vmreplay: --calibrate: %s\n", why);
		unlink(path);
		rmdir(dir);
		return 2;
	}
	lat = calloc(RUNS * t.nevents, sizeof *lat);
	one = calloc(RUNS, sizeof *one);
	outcome = calloc(t.nevents, 1);
	rows = calloc(t.nevents, sizeof *rows);
	if (!lat || !one || !outcome || !rows) {
		fprintf(stderr, "vmreplay: --calibrate: out of memory\n");
		goto out;
	}
	if (replay(&t, 0, lat, NULL, outcome) < 0 || replay(&t, 1, NULL, &evs, NULL) < 0) {
		fprintf(stderr, "vmreplay: --calibrate: the replay of %s failed\n", path);
		goto out;
	}
	for (size_t i = 0; i < t.nevents; i++) {
		struct sim_cost c;
		uint32_t rules;
		int n = 0;
		for (int r = 0; r < RUNS; r++)
			if (lat[r * t.nevents + i] >= 0)
				one[n++] = lat[r * t.nevents + i];
		if (n < RUNS / 2 + 1 || !sim_event_cost(evs, t.events[i].seq, &c, &rules))
			continue;
		struct row *w = &rows[nrows];
		double y = median(one, (size_t)n);
		if (y <= call_ns)
			continue;
		w->y = y - call_ns;
		w->w = 1 / (y * y);
		w->sys = t.events[i].sys;
		w->outcome = outcome[i];
		for (int j = 0; j < SIM_COST_COUNT; j++)
			w->x[j] = (double)sim_cost_value(&c, j);
		nrows++;
	}
	if (nrows < 100) {
		fprintf(stderr, "vmreplay: --calibrate: only %zu calls replayed as recorded\n", nrows);
		goto out;
	}
	/* fitted: the units the mix moves, but calls (held) and those measured */
	uint64_t use = 0, direct = (1ull << SIM_COST_calls) | (1ull << SIM_COST_zero_4k) | (1ull << SIM_COST_zero_2m) |
	                           (1ull << SIM_COST_zero_mthp) | (1ull << SIM_COST_fault_mthp) |
	                           (1ull << SIM_COST_anon_vma) | (1ull << SIM_COST_pte_copy) |
	                           (1ull << SIM_COST_fork_rmap) | (1ull << SIM_COST_mm_copy);
	for (size_t r = 0; r < nrows; r++)
		for (int j = 0; j < SIM_COST_COUNT; j++)
			if (rows[r].x[j] && !(direct & (1ull << j)))
				use |= 1ull << j;
	nnls(rows, nrows, use, k.unit_ns);
	k.unit_ns[SIM_COST_calls] = call_ns;
	k.unit_ns[SIM_COST_zero_4k] = t4k;
	k.unit_ns[SIM_COST_zero_2m] = t2m;
	k.unit_ns[SIM_COST_zero_mthp] = t2m / 512;
	k.unit_ns[SIM_COST_fault_mthp] = t4k > t2m / 512 ? t4k - t2m / 512 : 0;
	k.unit_ns[SIM_COST_anon_vma] = anon;
	k.unit_ns[SIM_COST_pte_copy] = fc.pte;
	k.unit_ns[SIM_COST_fork_rmap] = fc.rmap;
	k.unit_ns[SIM_COST_mm_copy] = fc.base > call_ns ? fc.base - call_ns : 0;
	k.have = use | direct;
	machine_name(k.machine, sizeof k.machine);
	struct utsname u;
	uname(&u);
	snprintf(k.kernel, sizeof k.kernel, "%s", u.release);
	time_t now = time(NULL);
	strftime(k.date, sizeof k.date, "%Y-%m-%d", gmtime(&now));

	if (!(f = fopen(out, "w"))) {
		fprintf(stderr, "vmreplay: --calibrate: %s: %s\n", out, strerror(errno));
		goto out;
	}
	sim_calib_write(f, &k);
	fprintf(f, "# units measured directly: calls, zero_4k, zero_2m%s, anon_vma, pte_copy, fork_rmap, mm_copy;\n"
	           "# zero_mthp and fault_mthp derived from zero_4k and zero_2m; the rest fitted on %zu calls.\n"
	           "# fit KIND CALLS MEDIAN-ERROR-%% (model against this kernel, per kind of call)\n",
	        thp ? "" : " (no 2 MiB pages here: 512 x zero_4k)", nrows);
	/* the error per kind of call: system call and outcome */
	for (int s = 1; s < VMT_SYS_COUNT; s++)
		for (int oc = 0; oc < VR_OUTCOME_COUNT; oc++) {
			size_t n = 0;
			double *err = malloc(nrows * sizeof *err), meas = 0, pred = 0;
			if (!err)
				break;
			for (size_t r = 0; r < nrows; r++) {
				if (rows[r].sys != s || rows[r].outcome != oc)
					continue;
				double p = 0;   /* x[calls] = 1 brings call_ns */
				for (int j = 0; j < SIM_COST_COUNT; j++)
					p += rows[r].x[j] * k.unit_ns[j];
				meas += rows[r].y + call_ns;
				pred += p;
				err[n++] = 100 * (p - (rows[r].y + call_ns)) / (rows[r].y + call_ns);
			}
			if (n)
				fprintf(f, "fit %s/%s %zu %+.1f (mean measured %.0f ns, modelled %.0f ns)\n", vmt_sys_key(s),
				        vr_outcome_name(oc), n, median(err, n), meas / (double)n, pred / (double)n);
			free(err);
		}
	if (fclose(f) != 0) {
		fprintf(stderr, "vmreplay: --calibrate: %s: %s\n", out, strerror(errno));
		f = NULL;
		goto out;
	}
	f = NULL;
	status = 0;
out:
	sim_events_free(evs);
	free(rows);
	free(outcome);
	free(one);
	free(lat);
	rp_trace_free(&t);
	unlink(path);
	rmdir(dir);
	return status;
}
