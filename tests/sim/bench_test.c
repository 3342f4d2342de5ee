/* bench_test - the simulator's speed and size.
 *
 *   bench.t           a quick functional check of the workloads (TAP)
 *   bench.t --bench   side-by-side numbers for tests/bench/sim-speed.sh:
 *                     AIM9 brk_test in the kernel vs in the simulator,
 *                     memory per live VMA at 10^6 VMAs, and the per-op cost
 *                     for 10^3..10^6 VMAs, and how the modelled kernel
 *                     cost ranks the kinds of call against their latency
 *                     on this kernel (Spearman's rho; no assertion).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"

#define PG 4096ull

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);  /* CPU time: fair on a shared machine */
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct vr_result res;

static int64_t call(struct sim_mm *mm, int sys, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	/* one event, its fields set per call (a replay reads them from the
	 * trace): zeroing 112 bytes per call was 7% of the simulator's time */
	static struct vmt_event ev;
	ev.sys = (uint16_t)sys;
	ev.args[0] = a0; ev.args[1] = a1; ev.args[2] = a2; ev.args[3] = a3; ev.args[4] = (uint64_t)-1;
	sim_apply(mm, &ev, NULL, &res);
	return res.err ? -res.err : res.ret;
}

/* AIM9 brk_test: sbrk(1 MiB); repeat { sbrk(-64 KiB); 16 x sbrk(4 KiB) }; brk(old) */
static long brk_loop_kernel(int reps)
{
	uint64_t old = (uint64_t)syscall(SYS_brk, 0), cur;
	long calls = 1;

	cur = (uint64_t)syscall(SYS_brk, old + (1 << 20));
	for (int r = 0; r < reps; r++) {
		cur = (uint64_t)syscall(SYS_brk, cur - (64 << 10));
		for (int i = 0; i < 16; i++)
			cur = (uint64_t)syscall(SYS_brk, cur + 4096);
		calls += 17;
	}
	syscall(SYS_brk, old);
	return calls + 1;
}

static long brk_loop_sim(struct sim_mm *mm, uint64_t old, int reps)
{
	uint64_t cur = (uint64_t)call(mm, VMT_SYS_BRK, old + (1 << 20), 0, 0, 0);
	long calls = 1;

	for (int r = 0; r < reps; r++) {
		cur = (uint64_t)call(mm, VMT_SYS_BRK, cur - (64 << 10), 0, 0, 0);
		for (int i = 0; i < 16; i++)
			cur = (uint64_t)call(mm, VMT_SYS_BRK, cur + 4096, 0, 0, 0);
		calls += 17;
	}
	call(mm, VMT_SYS_BRK, old, 0, 0, 0);
	return calls + 1;
}

static struct sim_mm *new_mm(void)
{
	struct vmt_host h = { 0 };
	struct sim_mm *mm;

	h.max_map_count = 1u << 30;
	mm = sim_mm_new(sim_profile_find("6.18"), NULL, &h);
	sim_mm_set_brk(mm, 0x555555560000ull, 0x555555560000ull);
	return mm;
}

/* n one-page mappings that cannot merge (alternating protections) */
static void fill(struct sim_mm *mm, long n)
{
	for (long i = 0; i < n; i++)
		call(mm, VMT_SYS_MMAP, 0, PG, i & 1 ? PROT_READ : PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS);
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* ns per operation at n VMAs: mprotect a random VMA to its neighbours'
 * protection (merge both), then back (split twice), and a mmap/munmap */
static double per_op_ns(long n)
{
	struct sim_mm *mm = new_mm();
	struct sim_vma_view v;
	long ops = 0;
	double t0, t;
	unsigned seed = 7;

	fill(mm, n);
	t0 = now();
	for (int i = 0; i < 20000; i++) {
		size_t k;
		uint64_t a;

		seed = seed * 1103515245 + 12345;
		k = 1 + (seed >> 8) % (size_t)(n - 2);
		sim_vma_at(mm, k, &v);
		a = v.start;
		call(mm, VMT_SYS_MPROTECT, a, PG, v.vm_flags & PROT_WRITE ? PROT_READ : PROT_READ | PROT_WRITE, 0);
		call(mm, VMT_SYS_MPROTECT, a, PG, v.vm_flags & PROT_WRITE ? PROT_READ | PROT_WRITE : PROT_READ, 0);
		a = (uint64_t)call(mm, VMT_SYS_MMAP, 0, 3 * PG, PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS);
		call(mm, VMT_SYS_MUNMAP, a, 3 * PG, 0, 0);
		ops += 4;
	}
	t = now() - t0;
	if (sim_vma_count(mm) != (size_t)n)
		fprintf(stderr, "bench.t: %zu VMAs after the churn, want %ld\n", sim_vma_count(mm), n);
	sim_mm_free(mm);
	return t * 1e9 / (double)ops;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* ---- the modelled cost against this kernel --------------------------- */
enum { K_MMAP, K_MUNMAP, K_SPLIT, K_MERGE, K_BRK_UP, K_BRK_DOWN, K_DONTNEED, NKIND };
static const char *const kind_name[NKIND] = {
	"mmap (new VMA)", "munmap (remove)", "mprotect (split)", "mprotect (merge)",
	"brk (expand)", "brk (shrink)", "madvise DONTNEED",
};

static double mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* the sum of every count: the model's one number for a call */
static uint64_t work(const struct sim_mm *mm)
{
	struct sim_cost c;
	uint64_t w = 0;

	sim_mm_cost(mm, &c);
#define SIM_COST_SUM(name, what) w += c.name;
	SIM_COSTS(SIM_COST_SUM)
#undef SIM_COST_SUM
	return w;
}

/* one round of every kind, in the kernel (mm NULL) or the simulator;
 * lat[k] = the call's latency, units[k] += its modelled work */
static void kinds_round(struct sim_mm *mm, uint64_t m, uint64_t *brk, double *lat, double *units)
{
	static const int sys[NKIND] = { VMT_SYS_MMAP, VMT_SYS_MUNMAP, VMT_SYS_MPROTECT, VMT_SYS_MPROTECT,
	                                VMT_SYS_BRK, VMT_SYS_BRK, VMT_SYS_MADVISE };
	uint64_t a[NKIND][4] = {
		{ 0, PG, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS }, { 0, PG, 0, 0 },
		{ m + PG, PG, PROT_READ, 0 }, { m + PG, PG, PROT_READ | PROT_WRITE, 0 },
		{ *brk + PG, 0, 0, 0 }, { *brk, 0, 0, 0 }, { m, 3 * PG, MADV_DONTNEED, 0 },
	};
	for (int k = 0; k < NKIND; k++) {
		double t0 = mono_ns();
		uint64_t w0 = mm ? work(mm) : 0;
		int64_t r;

		r = mm ? call(mm, sys[k], a[k][0], a[k][1], a[k][2], a[k][3])
		       : syscall(sys[k] == VMT_SYS_MMAP ? SYS_mmap : sys[k] == VMT_SYS_MUNMAP ? SYS_munmap
		                 : sys[k] == VMT_SYS_MPROTECT ? SYS_mprotect : sys[k] == VMT_SYS_BRK ? SYS_brk
		                 : SYS_madvise, a[k][0], a[k][1], a[k][2], a[k][3], -1L, 0L);
		if (lat)
			lat[k] = mono_ns() - t0;
		if (mm)
			units[k] += (double)(work(mm) - w0);
		if (k == K_MMAP)
			a[K_MUNMAP][0] = (uint64_t)r;
	}
}

/* ranks 1..n, ties averaged */
static void ranks(const double *v, double *r, int n)
{
	for (int i = 0; i < n; i++) {
		int below = 0, same = 0;
		for (int j = 0; j < n; j++)
			below += v[j] < v[i], same += v[j] == v[i];
		r[i] = below + (same + 1) / 2.0;
	}
}

static double spearman(const double *x, const double *y, int n)
{
	double rx[NKIND], ry[NKIND], mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	ranks(x, rx, n);
	ranks(y, ry, n);
	for (int i = 0; i < n; i++)
		mx += rx[i] / n, my += ry[i] / n;
	for (int i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / __builtin_sqrt(sxx * syy) : 0;
}

static void bench_model(void)
{
	enum { ROUNDS = 20000 };
	static double lat[NKIND][ROUNDS];
	double round_lat[NKIND], med[NKIND], units[NKIND] = { 0 };
	uint64_t m = (uint64_t)(uintptr_t)mmap(NULL, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t kbrk = (uint64_t)syscall(SYS_brk, 0), sbrk0 = 0x555555560000ull, sbrk = sbrk0;
	struct sim_mm *mm = new_mm();
	uint64_t sm = (uint64_t)call(mm, VMT_SYS_MMAP, 0, 3 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);

	if (m == (uint64_t)(uintptr_t)MAP_FAILED)
		return;
	call(mm, VMT_SYS_BRK, sbrk0 + PG, 0, 0, 0);
	sbrk += PG;
	syscall(SYS_brk, kbrk + PG);
	kbrk += PG;
	for (int i = 0; i < ROUNDS; i++) {
		kinds_round(NULL, m, &kbrk, round_lat, NULL);
		kinds_round(mm, sm, &sbrk, NULL, units);
		for (int k = 0; k < NKIND; k++)
			lat[k][i] = round_lat[k];
	}
	for (int k = 0; k < NKIND; k++)
		med[k] = median(lat[k], ROUNDS);
	syscall(SYS_brk, kbrk - PG);
	munmap((void *)(uintptr_t)m, 3 * PG);
	sim_mm_free(mm);
	printf("sim-model: per kind of call, the modelled work (sum of SIM_COSTS, profile 6.18) and this kernel's median latency:\n");
	for (int k = 0; k < NKIND; k++)
		printf("sim-model:   %-18s %5.1f units  %7.0f ns\n", kind_name[k], units[k] / ROUNDS, med[k]);
	printf("sim-model: Spearman rank correlation of model and kernel over %d kinds: %.2f\n", NKIND,
	       spearman(units, med, NKIND));
}

static int bench(void)
{
	struct sim_mm *mm = new_mm();
	double t0, tk, ts;
	long ck, cs, rss0, rss1;
	int reps = 20000;

	/* warm up, then kernel and simulator side by side in alternating
	 * rounds: one pair of runs moved the ratio between 14x and 21x */
	enum { ROUNDS = 7 };
	double kr[ROUNDS], sr[ROUNDS], ratio[ROUNDS];
	brk_loop_kernel(1000);
	for (int r = 0; r < ROUNDS; r++) {
		t0 = now();
		ck = brk_loop_kernel(reps / 4);
		tk = now() - t0;
		t0 = now();
		cs = brk_loop_sim(mm, 0x555555560000ull, reps);
		ts = now() - t0;
		kr[r] = ck / tk;
		sr[r] = cs / ts;
		ratio[r] = sr[r] / kr[r];
	}
	printf("sim-speed: aim9 brk_test: kernel %.0f brk/s, simulator %.0f brk/s, ratio %.1fx (target >= 20x; medians of %d alternating rounds)\n",
	       median(kr, ROUNDS), median(sr, ROUNDS), median(ratio, ROUNDS), ROUNDS);
	sim_mm_free(mm);

	rss0 = rss_kb();
	mm = new_mm();
	t0 = now();
	fill(mm, 1000000);
	ts = now() - t0;
	rss1 = rss_kb();
	printf("sim-speed: 1e6 mappings: %zu VMAs in %.2f s, %.0f bytes of RSS per live VMA\n",
	       sim_vma_count(mm), ts, (double)(rss1 - rss0) * 1024 / (double)sim_vma_count(mm));
	sim_mm_free(mm);

	printf("sim-speed: per-op cost (mprotect merge/split, mmap, munmap) by VMA count:\n");
	double base = 0;
	for (long n = 1000; n <= 1000000; n *= 10) {
		double ns = per_op_ns(n);
		if (!base)
			base = ns;
		printf("sim-speed:   %8ld VMAs  %7.0f ns/op  (x%.2f of 10^3; log2 ratio %.2f)\n", n, ns, ns / base,
		       __builtin_log2((double)n) / __builtin_log2(1000.0));
	}
	bench_model();
	return 0;
}

int main(int argc, char **argv)
{
	struct sim_mm *mm;

	if (argc > 1 && strcmp(argv[1], "--bench") == 0)
		return bench();
	mm = new_mm();
	brk_loop_sim(mm, 0x555555560000ull, 10);
	is_int(sim_vma_count(mm), 0, "brk_test loop in the simulator ends with no heap VMA");
	brk_loop_sim(mm, 0x555555560000ull, 0);
	call(mm, VMT_SYS_BRK, 0x555555560000ull + PG, 0, 0, 0);
	is_int(sim_vma_count(mm), 1, "one brk page: 1 VMA");
	sim_mm_free(mm);
	mm = new_mm();
	fill(mm, 10000);
	is_int(sim_vma_count(mm), 10000, "10^4 one-page mappings of alternating protection stay apart");
	sim_mm_free(mm);
	return done_testing();
}
