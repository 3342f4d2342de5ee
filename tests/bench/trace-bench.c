/* trace-bench: size and speed of the trace format on two generated traces,
 * measured side by side in one run:
 *   brk   - AIM9 brk_test: old = sbrk(0); sbrk(1 MiB); repeat { sbrk(-64 KiB);
 *           16 x sbrk(4096) }, ~1.4 us +- jitter per call;
 *   mixed - four threads doing mmap/munmap/mprotect/madvise of many sizes,
 *           some file-backed, some failing, most with a call-stack id.
 * Prints bytes per event, writer ns per event next to a native brk call
 * measured now, and reading speed in file and seq order. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vmt.h"

#define NTHREADS 4

static uint64_t rng_state = 0x853c49e6748fea9bull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* Roughly normal: the sum of four uniforms, mean 0, about +-sigma. */
static int64_t jitter(int64_t sigma)
{
	int64_t s = 0;
	for (int i = 0; i < 4; i++)
		s += (int64_t)(rnd() % 1001) - 500;
	return s * sigma / 577;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine is shared */
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the two workloads ---------------------------------------------- */

struct gen {
	uint64_t seq, clock;
	/* mixed: live mappings per thread */
	uint64_t top;
	uint64_t live[NTHREADS][256], live_len[NTHREADS][256];
	int nlive[NTHREADS];
};

static void brk_event(struct gen *g, struct vmt_event *e, uint64_t *cur, int64_t incr)
{
	memset(e, 0, sizeof(*e));
	e->seq = g->seq++;
	g->clock += 40 + rnd() % 80;               /* user time between calls */
	e->time_ns = g->clock;
	e->latency_ns = (uint64_t)(1400 + jitter(60));
	if (rnd() % 200 == 0)
		e->latency_ns += 2000 + rnd() % 20000; /* an interrupt, a page fault */
	g->clock += e->latency_ns;
	e->pid = e->tid = 4242;
	e->sys = VMT_SYS_BRK;
	*cur += (uint64_t)incr;
	e->args[0] = incr ? *cur : 0;
	e->result = (int64_t)*cur;
}

static uint64_t page_round(uint64_t n)
{
	return (n + VMT_PAGE - 1) & ~(uint64_t)(VMT_PAGE - 1);
}

static void mixed_event(struct gen *g, struct vmt_event *e, int t)
{
	uint64_t r = rnd();
	int n = g->nlive[t];

	memset(e, 0, sizeof(*e));
	e->seq = g->seq++;
	g->clock += 200 + rnd() % 8000;
	e->time_ns = g->clock;
	e->pid = 5000;
	e->tid = 5000 + t;
	if (r % 10 < 7)
		e->stack_id = 1 + (uint32_t)((rnd() % 64) * (rnd() % 64) / 8);
	if (n < 8 || (n < 256 && r % 100 < 40)) {
		uint64_t len = page_round((uint64_t)VMT_PAGE << (rnd() % 15)) + VMT_PAGE * (rnd() % 8);
		e->sys = VMT_SYS_MMAP;
		e->args[0] = 0;
		e->args[1] = len;
		e->args[2] = 3;                  /* PROT_READ|PROT_WRITE */
		e->args[3] = 0x22;               /* MAP_PRIVATE|MAP_ANONYMOUS */
		e->args[4] = (uint64_t)-1;
		if (r % 100 < 5) {               /* a file */
			e->args[2] = 1;
			e->args[3] = 0x2;
			e->args[4] = 3 + rnd() % 5;
			e->args[5] = VMT_PAGE * (rnd() % 16);
			e->file_id = 1 + (uint32_t)(rnd() % 20);
		} else if (r % 100 < 10) {
			e->args[3] = 0x20022;        /* MAP_STACK */
		}
		e->latency_ns = (uint64_t)(1800 + jitter(150));
		if (r % 1000 < 3) {
			e->err = 12;
			e->result = -1;
		} else {
			g->top -= page_round(len) + VMT_PAGE * (rnd() % 3 == 0);
			e->result = (int64_t)g->top;
			g->live[t][n] = g->top;
			g->live_len[t][n] = page_round(len);
			g->nlive[t]++;
		}
	} else {
		int i = (int)(rnd() % (uint64_t)n);
		uint64_t at = g->live[t][i], len = g->live_len[t][i];
		switch (r % 10) {
		case 0: case 1: case 2: case 3: case 4:
			e->sys = VMT_SYS_MUNMAP;
			e->args[0] = at;
			e->args[1] = len;
			e->latency_ns = (uint64_t)(2500 + (int64_t)(len >> 12) * 3 + jitter(200));
			g->live[t][i] = g->live[t][n - 1];
			g->live_len[t][i] = g->live_len[t][n - 1];
			g->nlive[t]--;
			break;
		case 5: case 6:
			e->sys = VMT_SYS_MPROTECT;
			e->args[0] = at;
			e->args[1] = VMT_PAGE;
			e->args[2] = 0;
			e->latency_ns = (uint64_t)(1600 + jitter(120));
			break;
		default:
			e->sys = VMT_SYS_MADVISE;
			e->args[0] = at + VMT_PAGE * (rnd() % (len / VMT_PAGE));
			e->args[1] = VMT_PAGE * (1 + rnd() % 16);
			e->args[2] = r % 3 ? 4 : 8;  /* MADV_DONTNEED, MADV_FREE */
			e->latency_ns = (uint64_t)(900 + jitter(100));
			break;
		}
	}
	g->clock += e->latency_ns;
}

/* ---- measurements ----------------------------------------------------- */

struct result {
	uint64_t events, bytes;
	double write_s;
};

static void header(struct vmt_writer *w)
{
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	rec.u.header.version = VMT_FORMAT_VERSION;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = "trace-bench";
	vmt_write(w, &rec);
}

static struct result write_brk(const char *path, uint64_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	struct vmt_writer *w = vmt_writer_fdopen(fd, 4242, 4242, NULL);
	struct vmt_record rec = { .type = VMT_REC_EVENT };
	struct gen g = { .clock = 1000000000000ull };
	uint64_t cur = 0x555555559000ull;
	struct result res = { n, 0, 0 };
	struct stat st;
	double t0;

	header(w);
	t0 = now();
	brk_event(&g, &rec.u.event, &cur, 0);
	vmt_write(w, &rec);
	brk_event(&g, &rec.u.event, &cur, 1 << 20);
	vmt_write(w, &rec);
	for (uint64_t i = 2; i < n; i++) {
		brk_event(&g, &rec.u.event, &cur, (i - 2) % 17 == 0 ? -65536 : 4096);
		vmt_write(w, &rec);
	}
	vmt_writer_close(w);
	res.write_s = now() - t0;
	close(fd);
	stat(path, &st);
	res.bytes = (uint64_t)st.st_size;
	return res;
}

static struct result write_mixed(const char *path, uint64_t n)
{
	struct vmt_writer *w[NTHREADS];
	struct vmt_record rec = { .type = VMT_REC_EVENT };
	static struct gen g = { .clock = 1000000000000ull, .top = 0x7f0000000000ull };
	struct result res = { n, 0, 0 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	struct stat st;
	double t0;

	for (int t = 0; t < NTHREADS; t++)
		w[t] = vmt_writer_fdopen(fd, 5000, 5000 + t, NULL);
	header(w[0]);
	t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		int t = (int)(rnd() % NTHREADS);
		mixed_event(&g, &rec.u.event, t);
		vmt_write(w[t], &rec);
	}
	for (int t = 0; t < NTHREADS; t++)
		vmt_writer_close(w[t]);
	res.write_s = now() - t0;
	close(fd);
	stat(path, &st);
	res.bytes = (uint64_t)st.st_size;
	return res;
}

/* Read in a child so its peak RSS is the reader's alone. */
static void read_speed(const char *path, int order, double *rate, long *rss_kb)
{
	int pipefd[2];
	struct rusage ru;
	int status;
	pid_t pid;

	if (pipe(pipefd))
		exit(1);
	pid = fork();
	if (pid == 0) {
		struct vmt_reader_prefs prefs = { order };
		struct vmt_record rec;
		double best = 0;
		for (int run = 0; run < 3; run++) {
			struct vmt_reader *r = vmt_reader_open(path, &prefs, NULL);
			uint64_t n = 0, sum = 0;
			double t0 = now(), dt;
			while (vmt_reader_next(r, &rec) == 1) {
				n++;
				sum += rec.u.event.args[0];
			}
			dt = now() - t0;
			if (n / dt > best)
				best = n / dt;
			if (sum == 42)
				_exit(3); /* keep the loop honest */
			vmt_reader_close(r);
		}
		if (write(pipefd[1], &best, sizeof(best)) != sizeof(best))
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], rate, sizeof(*rate)) != sizeof(*rate))
		*rate = 0;
	close(pipefd[0]);
	wait4(pid, &status, 0, &ru);
	*rss_kb = ru.ru_maxrss;
}

/* A real brk call on this machine, now: sbrk(+4096) / sbrk(-4096) pairs. */
static double native_brk_ns(void)
{
	int n = 100000;
	double t0 = now();
	for (int i = 0; i < n; i++) {
		sbrk(4096);
		sbrk(-4096);
	}
	return (now() - t0) * 1e9 / (2.0 * n);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 2000000;
	char brk_path[4096], mixed_path[4096], big_path[4096];
	struct result brk, mixed, big;
	double brk_ns = native_brk_ns(), rate[2][2], big_rate;
	long rss[2][2], big_rss;

	snprintf(brk_path, sizeof(brk_path), "%s/trace-bench-brk.lz4", dir);
	snprintf(mixed_path, sizeof(mixed_path), "%s/trace-bench-mixed.lz4", dir);
	snprintf(big_path, sizeof(big_path), "%s/trace-bench-brk4x.lz4", dir);
	brk = write_brk(brk_path, n);
	mixed = write_mixed(mixed_path, n);
	big = write_brk(big_path, 4 * n);
	(void)big;
	for (int o = 0; o < 2; o++) {
		read_speed(brk_path, o, &rate[0][o], &rss[0][o]);
		read_speed(mixed_path, o, &rate[1][o], &rss[1][o]);
	}
	read_speed(big_path, VMT_ORDER_SEQ, &big_rate, &big_rss);

	printf("trace format (%llu events per trace)\n", (unsigned long long)n);
	printf("  brk   bytes/event   %6.2f   (target <= 4)\n", (double)brk.bytes / brk.events);
	printf("  mixed bytes/event   %6.2f   (target <= 16)\n", (double)mixed.bytes / mixed.events);
	printf("  writer ns/event     brk %5.1f  mixed %5.1f   native brk call now: %.0f ns\n",
	       brk.write_s * 1e9 / brk.events, mixed.write_s * 1e9 / mixed.events, brk_ns);
	printf("  writer cost / native brk   %5.3f   (the shim's budget is 0.10)\n",
	       brk.write_s * 1e9 / brk.events / brk_ns);
	printf("  read M events/s     brk file %5.1f  seq %5.1f   mixed file %5.1f  seq %5.1f   (target >= 20)\n",
	       rate[0][1] / 1e6, rate[0][0] / 1e6, rate[1][1] / 1e6, rate[1][0] / 1e6);
	printf("  reader peak RSS KiB brk file %ld  seq %ld   mixed file %ld  seq %ld\n",
	       rss[0][1], rss[0][0], rss[1][1], rss[1][0]);
	printf("  4x longer brk trace: seq order %5.1f M events/s, peak RSS %ld KiB (x%.2f of 1x)\n",
	       big_rate / 1e6, big_rss, (double)big_rss / rss[0][0]);
	if (!getenv("TRACE_BENCH_KEEP")) {
		unlink(brk_path);
		unlink(mixed_path);
		unlink(big_path);
	}
	return 0;
}
