/* diff_test - the simulator (host profile) against this kernel.
 *
 * For each seed, a generator (replay/sim/gen.c) produces random valid VMA
 * calls that progs/vma_runner executes in a fresh process while the
 * simulator applies the same calls; after every call the layouts (ranges,
 * smaps VmFlags the model knows, VMA count), results and outcomes must
 * agree.  A mismatch is shrunk (delta debugging) to a minimal sequence.
 *
 *   diff.t                         the fixed seeds of `make check`
 *   diff.t --seeds 1000 --ops 80   the long mode
 *   diff.t --seed 7 --ops 40 --write-trace t.vmt
 *                                  the sequence as a trace (simulated only)
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/tap.h"
#include "replay/sim/gen.h"
#include "replay/sim/vm_flags.h"

#define MAXV 1024
#define WINDOW (256ull << 20)

struct lvma {
	uint64_t start, end, flags;
	uint64_t ino, off;
	int anon_kb, shared;
	char name[80];
};

struct layout {
	int n;
	struct lvma v[MAXV];
};

struct run {
	pid_t pid;
	int in, out;             /* to the runner's stdin, from its stdout */
	uint64_t w, brk;
	uint64_t stack_lo;       /* VMAs from here up are not compared */
	struct layout init;
	uint64_t ino[SIM_GEN_FILES];
};

static char runner_path[4096], files[SIM_GEN_FILES][4096];
static char *textbuf;
static int verbose;

static uint64_t known_bits(void)
{
	uint64_t m = 0;
	for (size_t i = 0; i < sim_flag_names_count; i++)
		m |= sim_flag_names[i].bit;
	/* VM_SOFTDIRTY is 0 without CONFIG_MEM_SOFT_DIRTY; merges ignore it */
	return m & ~VM_SOFTDIRTY;
}

static int parse_smaps(const char *s, size_t len, struct layout *L)
{
	const char *end = s + len;

	L->n = 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		unsigned long long a, b, off, ino;
		unsigned maj, mnr;
		char perms[8];
		int used = 0;
		size_t ll = nl ? (size_t)(nl - s) : (size_t)(end - s);
		char line[512];

		if (ll >= sizeof line)
			ll = sizeof line - 1;
		memcpy(line, s, ll);
		line[ll] = 0;
		s = nl ? nl + 1 : end;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &a, &b, perms, &off, &maj, &mnr, &ino, &used) >= 7) {
			struct lvma *v;
			if (L->n >= MAXV)
				return -1;
			v = &L->v[L->n++];
			memset(v, 0, sizeof *v);
			v->start = a;
			v->end = b;
			v->ino = ino;
			v->off = off;
			v->shared = perms[3] == 's';
			snprintf(v->name, sizeof v->name, "%s", line + used);
		} else if (L->n && strncmp(line, "Anonymous:", 10) == 0) {
			L->v[L->n - 1].anon_kb = atoi(line + 10);
		} else if (L->n && strncmp(line, "VmFlags:", 8) == 0) {
			for (char *p = line + 8; *p; p++)
				if (p[0] != ' ' && p[1] && p[1] != ' ') {
					L->v[L->n - 1].flags |= sim_flag_from_smaps(p);
					p++;
				}
		}
	}
	return 0;
}

static int rd(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t k = read(fd, c, n);
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int read_report(struct run *r, int64_t *ret, int32_t *err, struct layout *L)
{
	uint32_t len;

	if (rd(r->out, ret, sizeof *ret) || rd(r->out, err, sizeof *err) || rd(r->out, &len, sizeof len) ||
	    len > (4u << 20) || rd(r->out, textbuf, len))
		return -1;
	return parse_smaps(textbuf, len, L);
}

static int start_runner(struct run *r)
{
	int pin[2], pout[2];
	uint64_t hdr[2];
	int64_t ret;
	int32_t err;

	if (pipe(pin) || pipe(pout))
		return -1;
	r->pid = fork();
	if (r->pid == 0) {
		dup2(pin[0], 0);
		dup2(pout[1], 1);
		for (int fd = 3; fd < 64; fd++)
			close(fd);
		execl(runner_path, "vma_runner", files[0], files[1], files[2], (char *)NULL);
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	r->in = pin[1];
	r->out = pout[0];
	if (rd(r->out, hdr, sizeof hdr) || read_report(r, &ret, &err, &r->init))
		return -1;
	r->w = hdr[0];
	r->brk = hdr[1];
	r->stack_lo = ~0ull;
	for (int i = 0; i < r->init.n; i++)
		if (strcmp(r->init.v[i].name, "[stack]") == 0)
			r->stack_lo = r->init.v[i].start - (64ull << 20);
	return 0;
}

static void stop_runner(struct run *r)
{
	int st;
	close(r->in);
	close(r->out);
	waitpid(r->pid, &st, 0);
}

/* the simulated address space of the runner as it started */
static struct sim_mm *sim_of(struct run *r)
{
	static struct vmt_vma vv[MAXV];
	struct vmt_map map = { 0 };
	struct sim_mm *mm;

	for (int i = 0; i < r->init.n; i++) {
		const struct lvma *l = &r->init.v[i];
		struct vmt_vma *v = &vv[i];

		memset(v, 0, sizeof *v);
		v->start = l->start;
		v->end = l->end;
		v->offset = l->off;
		v->prot = (l->flags & VM_READ ? VMT_PROT_READ : 0) | (l->flags & VM_WRITE ? VMT_PROT_WRITE : 0) |
		          (l->flags & VM_EXEC ? VMT_PROT_EXEC : 0);
		v->flags = l->shared ? VMT_VMA_SHARED : 0;
		v->file_id = l->ino ? 100 + (uint32_t)i : 0;
		v->name = l->name;
	}
	map.nvma = (uint32_t)r->init.n;
	map.vmas = vv;
	mm = sim_mm_new(sim_profile_find("host"), &map, NULL);
	if (!mm)
		return NULL;
	sim_mm_set_brk(mm, r->brk, r->brk);
	for (int i = 0; i < r->init.n; i++)
		sim_mm_set_faulted(mm, r->init.v[i].start, r->init.v[i].anon_kb > 0);
	return mm;
}

static int in_initial(const struct run *r, const struct lvma *v)
{
	for (int i = 0; i < r->init.n; i++)
		if (r->init.v[i].start == v->start && r->init.v[i].end == v->end)
			return 1;
	return 0;
}

static void sim_layout(const struct run *r, const struct sim_mm *mm, struct layout *L)
{
	struct sim_vma_view v;

	L->n = 0;
	for (size_t i = 0; !sim_vma_at(mm, i, &v) && L->n < MAXV; i++) {
		if (v.start >= r->stack_lo)
			continue;
		memset(&L->v[L->n], 0, sizeof L->v[0]);
		L->v[L->n].start = v.start;
		L->v[L->n].end = v.end;
		L->v[L->n].flags = v.vm_flags;
		L->n++;
	}
}

static void real_filter(const struct run *r, struct layout *L)
{
	int k = 0;
	for (int i = 0; i < L->n; i++)
		if (L->v[i].start < r->stack_lo)
			L->v[k++] = L->v[i];
	L->n = k;
}

/* flags are compared where the map could not have told the simulator */
static int compare(const struct run *r, const struct layout *a, const struct layout *b, char *why, size_t n)
{
	uint64_t mask = known_bits();

	for (int i = 0; i < a->n || i < b->n; i++) {
		const struct lvma *x = i < a->n ? &a->v[i] : NULL, *y = i < b->n ? &b->v[i] : NULL;
		char fx[128], fy[128];

		if (!x || !y || x->start != y->start || x->end != y->end) {
			snprintf(why, n, "VMA %d: kernel %llx-%llx, sim %llx-%llx", i,
			         x ? (unsigned long long)x->start : 0, x ? (unsigned long long)x->end : 0,
			         y ? (unsigned long long)y->start : 0, y ? (unsigned long long)y->end : 0);
			return 1;
		}
		if (((x->flags ^ y->flags) & mask) &&
		    (!in_initial(r, x) || (x->end > r->w && x->start < r->w + WINDOW))) {
			snprintf(why, n, "VMA %llx-%llx flags: kernel [%s], sim [%s]",
			         (unsigned long long)x->start, (unsigned long long)x->end,
			         sim_flags_smaps(x->flags & mask, fx, sizeof fx),
			         sim_flags_smaps(y->flags & mask, fy, sizeof fy));
			return 1;
		}
	}
	return 0;
}

static const struct lvma *containing(const struct layout *L, uint64_t a)
{
	for (int i = 0; i < L->n; i++)
		if (L->v[i].start <= a && a < L->v[i].end)
			return &L->v[i];
	return NULL;
}

/* The outcome from the kernel's before/after layouts, defined as the
 * kernel back end defines it (lib/outcome.c's vr_classify over the
 * range replay/engine.c gives each call), written independently of the
 * simulator's own code. */
static int has_edge(const struct layout *L, uint64_t lo, uint64_t hi, uint64_t x)
{
	for (int i = 0; i < L->n; i++)
		if (L->v[i].end >= lo && L->v[i].start <= hi && (L->v[i].start == x || L->v[i].end == x))
			return 1;
	return 0;
}

/* the VMAs with end >= lo and start <= hi (vq_around), as ranges */
static int around(const struct layout *L, uint64_t lo, uint64_t hi, uint64_t (*r)[2])
{
	int n = 0;
	for (int i = 0; i < L->n; i++)
		if (L->v[i].end >= lo && L->v[i].start <= hi) {
			r[n][0] = L->v[i].start;
			r[n++][1] = L->v[i].end;
		}
	return n;
}

static int derive_create(const struct layout *a, uint64_t lo, uint64_t hi)
{
	const struct lvma *v = containing(a, lo);
	if (!v)
		return VR_UNCHANGED;
	int left = v->start < lo, right = v->end > hi;
	return left && right ? VR_MERGE_BOTH : left ? VR_EXPAND_PREV : right ? VR_EXPAND_NEXT : VR_NEW;
}

static int derive_remove(const struct layout *b, uint64_t lo, uint64_t hi)
{
	int whole = 0, partial = 0;
	for (int i = 0; i < b->n; i++) {
		const struct lvma *v = &b->v[i];
		if (v->start >= hi || v->end <= lo)
			continue;
		if (v->start < lo && v->end > hi)
			return VR_SPLIT;
		if (v->start >= lo && v->end <= hi)
			whole++;
		else
			partial++;
	}
	return whole ? VR_REMOVE : partial ? VR_SHRINK : VR_UNCHANGED;
}

static int derive_modify(const struct layout *b, const struct layout *a, uint64_t lo, uint64_t hi)
{
	static uint64_t rb[MAXV][2], ra[MAXV][2];
	int nb = around(b, lo, hi, rb), na = around(a, lo, hi, ra);
	if (nb == na && !memcmp(rb, ra, sizeof rb[0] * (size_t)nb))
		return VR_UNCHANGED;
	int ml = has_edge(b, lo, hi, lo) && !has_edge(a, lo, hi, lo);
	int mr = has_edge(b, lo, hi, hi) && !has_edge(a, lo, hi, hi);
	if (ml || mr)
		return ml && mr ? VR_MERGE_BOTH : ml ? VR_EXPAND_PREV : VR_EXPAND_NEXT;
	if (na > nb || (!has_edge(b, lo, hi, lo) && has_edge(a, lo, hi, lo)) ||
	    (!has_edge(b, lo, hi, hi) && has_edge(a, lo, hi, hi)))
		return VR_SPLIT;
	return na < nb ? VR_MERGE_BOTH : VR_UNCHANGED;
}

static int classify(const struct vmt_event *ev, int64_t ret, int err, uint64_t oldbrk,
                    const struct layout *b, const struct layout *a)
{
	uint64_t s = ev->args[0] & ~4095ull, e = (ev->args[0] + ev->args[1] + 4095) & ~4095ull;
	uint64_t ol = (ev->args[1] + 4095) & ~4095ull, nl = (ev->args[2] + 4095) & ~4095ull;

	if (err)
		return VR_FAILED;
	switch (ev->sys) {
	case VMT_SYS_MMAP:
		return derive_create(a, (uint64_t)ret, (uint64_t)ret + ol);
	case VMT_SYS_BRK: {
		uint64_t was = (oldbrk + 4095) & ~4095ull, now = (ev->args[0] + 4095) & ~4095ull;
		if ((uint64_t)ret != ev->args[0])   /* refused: the old break */
			return VR_UNCHANGED;
		return now > was ? derive_create(a, was, now) : now < was ? derive_remove(b, now, was) :
		       VR_UNCHANGED;
	}
	case VMT_SYS_MREMAP: {
		/* named as lib/outcome.h names moves and growths in place */
		static const int moved[] = { [VR_NEW] = VR_MOVE, [VR_EXPAND_PREV] = VR_MOVE_PREV,
			[VR_EXPAND_NEXT] = VR_MOVE_NEXT, [VR_MERGE_BOTH] = VR_MOVE_BOTH, [VR_UNCHANGED] = VR_MOVE };
		static const int grown[] = { [VR_NEW] = VR_GROW, [VR_EXPAND_PREV] = VR_GROW,
			[VR_EXPAND_NEXT] = VR_GROW_NEXT, [VR_MERGE_BOTH] = VR_GROW_NEXT, [VR_UNCHANGED] = VR_GROW };
		if ((uint64_t)ret != ev->args[0])
			return moved[derive_create(a, (uint64_t)ret, (uint64_t)ret + nl)];
		return nl > ol ? grown[derive_create(a, s + ol, s + nl)] : nl < ol ? derive_remove(b, s + nl, s + ol) :
		       VR_UNCHANGED;
	}
	case VMT_SYS_MUNMAP:
		return derive_remove(b, s, e);
	case VMT_SYS_MPROTECT: case VMT_SYS_PKEY_MPROTECT: case VMT_SYS_MADVISE:
	case VMT_SYS_MLOCK: case VMT_SYS_MLOCK2: case VMT_SYS_MUNLOCK: case VMT_SYS_MSEAL:
		return derive_modify(b, a, s, e);
	}
	return VR_UNCHANGED;   /* no range (mlockall, fork, ...) */
}

static void dump(const char *who, const struct run *r, const struct layout *L)
{
	char f[160];
	for (int i = 0; i < L->n; i++)
		if (L->v[i].end > r->w - (64ull << 20) && L->v[i].start < r->w + WINDOW)
			diag("  %s %llx-%llx W%+lld [%s]", who, (unsigned long long)L->v[i].start,
			     (unsigned long long)L->v[i].end, (long long)(L->v[i].start - r->w),
			     sim_flags_smaps(L->v[i].flags & known_bits(), f, sizeof f));
}

/* Run ops[0..n) (generating them when g is set).  Returns the index of the
 * first mismatching op, n if all agree, -1 if the runner failed. */
static int run_ops(struct sim_gen_op *ops, int n, struct sim_gen *g, int report)
{
	static struct layout before, after, simL;
	struct run r;
	struct sim_mm *mm;
	uint64_t sim_brk;
	int bad = n;

	if (start_runner(&r))
		return -1;
	if (!(mm = sim_of(&r))) {
		stop_runner(&r);
		return -1;
	}
	if (g)
		g->base = r.w, g->size = WINDOW;
	sim_brk = r.brk;
	before = r.init;
	real_filter(&r, &before);
	for (int i = 0; i < n; i++) {
		struct sim_gen_op *op = &ops[i];
		struct vmt_event ev;
		struct vmt_file file = { 0 };
		struct vr_result res = { 0 };
		int64_t ret;
		int32_t err;
		char why[256] = "", txt[200];
		int want;
		uint64_t brk_before = sim_brk;

		if (g)
			sim_gen_next(g, mm, op);
		if (write(r.in, op, sizeof *op) != (ssize_t)sizeof *op || read_report(&r, &ret, &err, &after)) {
			bad = i;
			snprintf(why, sizeof why, "the runner died");
			if (report)
				diag("op %d %s: %s", i, sim_gen_format(op, txt, sizeof txt), why);
			break;
		}
		real_filter(&r, &after);
		sim_gen_event(op, r.w, &ev);
		if (op->sys == VMT_SYS_BRK)
			ev.args[0] = op->args[1] ? sim_brk - op->args[0] : sim_brk + op->args[0];
		if (op->sys == SIM_GEN_TOUCH) {
			uint8_t bits[4096];
			struct vmt_residency rs = { 0, 0, ev.args[0], ev.args[1] / 4096, bits, 0, NULL };
			memset(bits, 0xff, sizeof bits);
			if (rs.npages > sizeof bits * 8)
				rs.npages = sizeof bits * 8;
			if (!err)
				sim_touch(mm, &rs);
			res.ret = err ? -1 : 0;
			res.err = err;
			res.outcome = err ? VR_FAILED : VR_UNCHANGED;
		} else if (op->sys == SIM_GEN_FORK) {
			struct sim_mm *child = sim_mm_fork(mm);
			sim_mm_free(mm);
			mm = child;
			res.outcome = VR_UNCHANGED;
		} else {
			file.id = op->file;
			sim_apply(mm, &ev, op->file ? &file : NULL, &res);
			if (op->sys == VMT_SYS_BRK)
				sim_brk = (uint64_t)res.ret;
		}
		sim_layout(&r, mm, &simL);
		want = classify(&ev, ret, err, brk_before, &before, &after);
		if (err != res.err)
			snprintf(why, sizeof why, "errno: kernel %d, sim %d", err, res.err);
		else if (!err && ret != res.ret)
			snprintf(why, sizeof why, "result: kernel %#llx, sim %#llx", (unsigned long long)ret,
			         (unsigned long long)res.ret);
		else if (compare(&r, &after, &simL, why, sizeof why))
			;
		else if (want != res.outcome)
			snprintf(why, sizeof why, "outcome: kernel %s, sim %s", vr_outcome_name(want),
			         vr_outcome_name(res.outcome));
		if (verbose)
			diag("op %d %s -> %lld/%d %s%s%s", i, sim_gen_format(op, txt, sizeof txt), (long long)ret, err,
			     vr_outcome_name(res.outcome), res.rule ? " : " : "", res.rule ? res.rule : "");
		if (why[0]) {
			bad = i;
			if (report) {
				diag("op %d %s: %s", i, sim_gen_format(op, txt, sizeof txt), why);
				diag("  sim rule: %s", res.rule ? res.rule : "(none)");
				dump("before", &r, &before);
				dump("kernel", &r, &after);
				dump("sim   ", &r, &simL);
			}
			break;
		}
		before = after;
	}
	sim_mm_free(mm);
	stop_runner(&r);
	return bad;
}

static int fails(struct sim_gen_op *ops, int n)
{
	int k = run_ops(ops, n, NULL, 0);
	return k >= 0 && k < n;
}

/* ddmin over the operation list */
static int shrink(struct sim_gen_op *ops, int n)
{
	static struct sim_gen_op tmp[4096];
	int parts = 2;

	while (n >= 2) {
		int size = n / parts, done = 0;
		for (int p = 0; p < parts && !done; p++) {
			int lo = p * size, hi = p == parts - 1 ? n : lo + size, k = 0;
			for (int i = 0; i < n; i++)
				if (i < lo || i >= hi)
					tmp[k++] = ops[i];
			if (fails(tmp, k)) {
				memcpy(ops, tmp, (size_t)k * sizeof *ops);
				n = k;
				parts = parts > 2 ? parts - 1 : 2;
				done = 1;
			}
		}
		if (!done) {
			if (parts >= n)
				break;
			parts = parts * 2 > n ? n : parts * 2;
		}
	}
	return n;
}

static int setup_files(char *dir)
{
	static char zero[4096];
	if (!mkdtemp(dir))
		return -1;
	for (int i = 0; i < SIM_GEN_FILES; i++) {
		int fd;
		snprintf(files[i], sizeof files[i], "%s/f%d", dir, i + 1);
		if ((fd = open(files[i], O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0)
			return -1;
		for (unsigned k = 0; k < SIM_GEN_FILE_SIZE / sizeof zero; k++)
			if (write(fd, zero, sizeof zero) != (ssize_t)sizeof zero)
				return -1;
		close(fd);
	}
	return 0;
}

static void cleanup_files(const char *dir)
{
	for (int i = 0; i < SIM_GEN_FILES; i++)
		unlink(files[i]);
	rmdir(dir);
}

static int write_trace(const char *path, uint64_t seed, int nops)
{
	const struct sim_profile *p = sim_profile_find("host");
	struct sim_mm *mm = sim_mm_new(p, NULL, NULL);
	struct vmt_writer *w;
	struct vmt_record rec;
	struct sim_gen g;
	int err = 0;
	uint64_t base, brk = 0x555555560000ull;

	if (!mm || !(w = vmt_writer_open(path, NULL, &err))) {
		fprintf(stderr, "diff.t: %s: cannot write the trace (%s)\n", path, vmt_strerror(err));
		return 1;
	}
	base = sim_mm_mmap_base(mm) - WINDOW;
	sim_mm_set_brk(mm, brk, brk);
	sim_gen_init(&g, seed, base, WINDOW);
	memset(&rec, 0, sizeof rec);
	rec.type = VMT_REC_HEADER;
	rec.u.header.version = VMT_FORMAT_VERSION;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = "vmrec sim generator";
	vmt_write(w, &rec);
	for (int i = 0; i < SIM_GEN_FILES; i++) {
		char name[16];
		memset(&rec, 0, sizeof rec);
		rec.type = VMT_REC_FILE;
		rec.u.file.id = (uint32_t)i + 1;
		rec.u.file.pid = 1;
		rec.u.file.size = SIM_GEN_FILE_SIZE;
		snprintf(name, sizeof name, "f%d", i + 1);
		rec.u.file.path = name;
		vmt_write(w, &rec);
	}
	for (int i = 0; i < nops; i++) {
		struct sim_gen_op op;
		struct vr_result res;
		struct vmt_file file = { 0 };

		sim_gen_next(&g, mm, &op);
		memset(&rec, 0, sizeof rec);
		rec.type = VMT_REC_EVENT;
		sim_gen_event(&op, base, &rec.u.event);
		if (op.sys == SIM_GEN_TOUCH || op.sys == SIM_GEN_FORK)
			continue;   /* touches and forks are not single events here */
		if (op.sys == VMT_SYS_BRK)
			rec.u.event.args[0] = op.args[1] ? brk - op.args[0] : brk + op.args[0];
		file.id = op.file;
		sim_apply(mm, &rec.u.event, op.file ? &file : NULL, &res);
		if (op.sys == VMT_SYS_BRK)
			brk = (uint64_t)res.ret;
		rec.u.event.seq = (uint64_t)i;
		rec.u.event.pid = rec.u.event.tid = 1;
		rec.u.event.err = res.err;
		rec.u.event.result = res.ret;
		vmt_write(w, &rec);
	}
	sim_mm_free(mm);
	err = vmt_writer_close(w);
	if (err < 0) {
		fprintf(stderr, "diff.t: %s: %s\n", path, vmt_strerror(err));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct sim_gen_op ops[4096];
	uint64_t first = 1, seeds = 40;
	int nops = 50;
	const char *trace = NULL;
	char dir[] = "/tmp/vmrec-sim.XXXXXX", *slash;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
			seeds = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			first = strtoull(argv[++i], NULL, 0), seeds = 1;
		else if (!strcmp(argv[i], "--first") && i + 1 < argc)
			first = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
			nops = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--write-trace") && i + 1 < argc)
			trace = argv[++i];
		else if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else {
			fprintf(stderr, "usage: %s [--seeds N] [--first S | --seed S] [--ops N] [-v] [--write-trace FILE]\n",
			        argv[0]);
			return 2;
		}
	}
	if (nops < 1 || nops > 4096) {
		fprintf(stderr, "%s: --ops must be 1..4096\n", argv[0]);
		return 2;
	}
	if (trace)
		return write_trace(trace, first, nops);
	snprintf(runner_path, sizeof runner_path, "%s", argv[0]);
	slash = strrchr(runner_path, '/');
	snprintf(slash ? slash + 1 : runner_path, sizeof runner_path - (size_t)(slash ? slash + 1 - runner_path : 0),
	         "progs/vma_runner");
	if (access(runner_path, X_OK)) {   /* a missing build product fails */
		ok(0, "%s is built", runner_path);
		return done_testing();
	}
	if (!sim_profile_find("host")) {
		printf("1..0 # SKIP no simulator profile for this kernel\n");
		return 0;
	}
	diag("host profile %s, rules seen by probing this kernel: %s", sim_profile_name(sim_profile_find("host")),
	     *sim_profile_probed(sim_profile_find("host")) ? sim_profile_probed(sim_profile_find("host")) : "none");
	textbuf = malloc(4u << 20);
	if (!textbuf || setup_files(dir)) {
		printf("1..0 # SKIP cannot create the test files\n");
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	for (uint64_t s = first; s < first + seeds; s++) {
		struct sim_gen g;
		int k;
		char txt[200];

		sim_gen_init(&g, s, 0, WINDOW);
		k = run_ops(ops, nops, &g, 1);
		if (k == nops) {
			ok(1, "seed %llu: %d operations agree", (unsigned long long)s, nops);
			continue;
		}
		if (k < 0) {
			ok(0, "seed %llu: the runner did not start", (unsigned long long)s);
			continue;
		}
		ok(0, "seed %llu: mismatch at operation %d", (unsigned long long)s, k);
		k = shrink(ops, k + 1);
		diag("minimal reproducer (%d operations; W = window base):", k);
		for (int i = 0; i < k; i++)
			diag("  %s", sim_gen_format(&ops[i], txt, sizeof txt));
		run_ops(ops, k, NULL, 1);
	}
	cleanup_files(dir);
	return done_testing();
}
