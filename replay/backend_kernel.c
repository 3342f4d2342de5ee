/* The kernel back end: calls go to this kernel, in this process; outcomes
 * are read back from the VMAs around the affected range, or told from the
 * one VMA known without asking (struct k_known). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "replay/backend.h"
#include "replay/latency.h"
#include "replay/placement.h"
#include "replay/set_break.h"
#include "replay/vmaquery.h"
#include "lib/compat.h"

static void written(uint64_t addr);

/* One VMA of this process known exactly without asking the kernel, as
 * the last call left it, so a call's outcome can be told without a query
 * (PROCMAP_QUERY costs about what a brk does).  What is known comes from a
 * query, or from a brk the kernel does one way only: a brk that grows the
 * break from the end of a VMA it has grown before joins that VMA (the
 * growth changes nothing the merge checks: flags, anon_vma, policy, name;
 * brk leaves the page after the new break free, so no VMA follows it),
 * and a shrink within the VMA cuts its tail; a brk VMA removed whole
 * leaves the break where the next growth makes a VMA of its own again
 * (what made it one before is unchanged).  Anything else this process
 * does to its VMAs, and every call but those above, forgets it; the
 * replayer maps nothing of its own while replaying (image.c).  Where the
 * calls of several threads overlap (--threads) nothing is kept. */
struct k_known {
	uint64_t start, end;   /* one VMA; start == end: nothing known */
	int brk_grows;         /* a brk growing the break from end joins it */
	int brk_own;           /* a brk made it at start, the VMA below not taking it */
	/* A brk growing the break from here makes a VMA of its own: the brk
	 * VMA that began here was just removed whole, and the VMA below, which
	 * did not take that growth, is as it was (will-it-scale's brk1: up a
	 * page from the heap's start and back).  0: not known. */
	uint64_t brk_alone_at;
};

/* The address space is this process's: one space per replayer process,
 * made again (its state reset) for every image it builds. */
struct rp_space {
	struct rp_backend_cfg cfg;
	long nr[VMT_SYS_COUNT];   /* this machine's system call numbers */
	int model;                /* keep `known` (outcomes on, calls one at a time) */
	int check;                /* VMREPLAY_CHECK_VMA_MODEL: query anyway, compare */
	struct k_known known;
};
static struct rp_space the_space;

static inline void forget(struct rp_space *s) { s->known = (struct k_known){ 0 }; }

static struct rp_space *k_new(const struct rp_backend_cfg *cfg, const struct vmt_map *map,
                              const struct vmt_host *host)
{
	(void)map;
	(void)host;
	struct rp_space *s = &the_space;
	*s = (struct rp_space){ .cfg = *cfg };
	/* VMREPLAY_NO_VMA_MODEL: every outcome from queries (tests compare) */
	s->model = cfg->outcomes && !cfg->release && !getenv("VMREPLAY_NO_VMA_MODEL");
	s->check = s->model && getenv("VMREPLAY_CHECK_VMA_MODEL");
	for (int i = 0; i < VMT_SYS_COUNT; i++)
		s->nr[i] = vmt_sys_nr(i);
	vq_open();
	return s;
}

/* The recorded map had this VMA apart from the one before it, but a fresh
 * stand-in merged with it: the original differed in what a mapping does not
 * show (VM_ACCOUNT of a RELRO part, its own anon_vma).  Make it the same way
 * a program does: map it writable elsewhere, write a page (own anon_vma),
 * restore the protection and move it in place; a faulted VMA keeps its
 * pgoff when moved and does not merge. */
static int keep_apart(const struct rp_standin_map *m, size_t len)
{
	munmap((void *)m->start, len);
	int flags = m->flags & ~MAP_GROWSDOWN;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, m->fd, (off_t)m->offset);
	if (p == MAP_FAILED)
		return -errno;
	/* populate, not a plain write: past the end of a file it fails
	 * instead of raising SIGBUS */
	if (madvise(p, 1, MADV_POPULATE_WRITE) < 0 ||   /* the first page */
	    mprotect(p, len, m->prot) < 0 ||
	    mremap(p, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)m->start) == MAP_FAILED) {
		int e = errno;
		munmap(p, len);
		return -e;
	}
	return 0;
}

/* A placeholder for a recorder VMA shapes only what its neighbours do: a
 * program mapping beside it merges with it, or not, by what its edge page
 * is.  Its inside is PROT_NONE, so a replayed mlockall (which populates
 * every accessible VMA, the 1 TiB store window's placeholder among them)
 * or a MAP_POPULATE near it never fills it: it costs at most its two edge
 * pages.  A shared one is all PROT_NONE: no program mapping merges with
 * the recorder's files or shmem, whatever their protection. */
static int hold_edges(const struct rp_standin_map *m, uint64_t page)
{
	uint64_t len = m->end - m->start;
	if ((m->flags & MAP_SHARED) || !m->prot)
		return 0;
	if (len <= 2 * page)
		return mprotect((void *)m->start, len, m->prot) < 0 ? -errno : 0;
	if (mprotect((void *)m->start, page, m->prot) < 0 ||
	    mprotect((void *)(m->end - page), page, m->prot) < 0)
		return -errno;
	if (m->prot & PROT_WRITE)
		written(m->end - page);   /* each edge its own anon_vma, as the original had one */
	return 0;
}

static int k_standin(struct rp_space *s, const struct rp_standin_map *m)
{
	forget(s);
	size_t len = m->end - m->start;
	int prot = m->hold ? PROT_NONE : m->prot;
	void *p = mmap((void *)m->start, len, prot, m->flags | MAP_FIXED_NOREPLACE,
	               m->fd, (off_t)m->offset);
	if (p == MAP_FAILED)
		return -errno;
	if ((uint64_t)p != m->start) {   /* a kernel that ignores NOREPLACE */
		munmap(p, len);
		return -EEXIST;
	}
	struct vq_vma v;
	if (m->hold) {
		int err = hold_edges(m, s->cfg.page_size);
		if (err) {
			munmap(p, len);
			return err;
		}
		if (!(m->flags & MAP_SHARED) && m->prot && vq_covering(m->start, &v) == 1 && v.start < m->start) {
			/* its first edge merged with the VMA before it */
			struct rp_standin_map edge = *m;
			edge.end = m->start + (len > s->cfg.page_size ? s->cfg.page_size : len);
			return keep_apart(&edge, edge.end - edge.start);
		}
		if ((m->prot & PROT_WRITE) && !(m->flags & MAP_SHARED))
			written(m->start);
		return 0;
	}
	if (vq_covering(m->start, &v) == 1 && v.start < m->start && !(m->flags & MAP_SHARED))
		return keep_apart(m, len);
	if ((m->prot & PROT_WRITE) && !(m->flags & MAP_SHARED))
		written(m->start);
	return 0;
}

/* A running image has written its private writable memory: its VMAs have
 * an anon_vma (as the simulator assumes, sim_mm_new), which decides later
 * merges, and after a fork whether brk can expand the child's heap.  One
 * byte: madvise rounds the length up to the page. */
static void written(uint64_t addr)
{
	forget(&the_space);   /* a first write gives the VMA its anon_vma */
	madvise((void *)addr, 1, MADV_POPULATE_WRITE);
}

/* The low range, held PROT_NONE from start-up until the layout is chosen,
 * so nothing of the replayer's own lands where a recording's absolute low
 * addresses replay (placement.h).  From 0 where this process may map there
 * (CAP_SYS_RAWIO), else from mmap_min_addr. */
static uint64_t low_lo, low_hi;
static uint64_t low_from = UINT64_MAX;

static int hold(uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return 0;
	void *p = mmap((void *)lo, hi - lo, PROT_NONE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return 0;
	if ((uint64_t)p != lo) {   /* a kernel that ignores NOREPLACE */
		munmap(p, hi - lo);
		return 0;
	}
	low_lo = lo;
	low_hi = hi;
	return 1;
}

/* The start of the first mapping at or above lo, or RP_LOW_TOP. */
static uint64_t first_mapped(uint64_t lo)
{
	uint64_t first = RP_LOW_TOP;
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long long s, e;
	char line[512];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx", &s, &e) == 2 && e > lo && s < first)
			first = s > lo ? s : lo;
	if (f)
		fclose(f);
	return first;
}

/* The low range held from start-up until the layout is chosen (backend.h:
 * hold_low, release_low). */
static void k_hold_low(void)
{
	uint64_t min = 65536;
	FILE *f = fopen("/proc/sys/vm/mmap_min_addr", "re");
	if (f) {
		unsigned long long v;
		if (fscanf(f, "%llu", &v) == 1)
			min = v;
		fclose(f);
	}
	min = (min + VMT_PAGE - 1) & ~(uint64_t)(VMT_PAGE - 1);
	/* where something is there already (ASan's shadow from 0x7fff8000)
	 * what lies below it is held; the layout sees the rest as the
	 * replayer's own */
	if (hold(0, RP_LOW_TOP) || hold(0, first_mapped(0)))
		low_from = 0;
	else if (min < RP_LOW_TOP && (hold(min, RP_LOW_TOP) || hold(min, first_mapped(min))))
		low_from = min;
}

static uint64_t k_release_low(void)
{
	if (low_hi)
		munmap((void *)low_lo, low_hi - low_lo);
	low_lo = low_hi = 0;
	return low_from;
}

/* A query's VMAs as the plain ranges vr_classify reads. */
struct k_ranges {
	uint64_t r[VQ_MAX][2];
};

static struct vr_ranges ranges_of(const struct vq_list *l, struct k_ranges *buf)
{
	size_t n = l->n < VQ_MAX ? l->n : VQ_MAX;
	for (size_t i = 0; i < n; i++) {
		buf->r[i][0] = l->v[i].start;
		buf->r[i][1] = l->v[i].end;
	}
	return (struct vr_ranges){ .n = l->n, .stored = n, .r = (const uint64_t (*)[2])buf->r };
}

static const int change_of[] = {
	[RP_FX_CREATE] = VR_CH_CREATE, [RP_FX_REMOVE] = VR_CH_REMOVE, [RP_FX_MODIFY] = VR_CH_MODIFY,
};

/* The outcome of a call from the VMAs around fx before and after it. */
static int derive_outcome(const struct rp_effect *fx, const struct vq_list *before,
                      const struct vq_list *after)
{
	static __thread struct k_ranges b, a;   /* --threads: one per replaying thread */
	if (fx->kind != RP_FX_CREATE && fx->kind != RP_FX_REMOVE && fx->kind != RP_FX_MODIFY)
		return VR_UNCHANGED;
	struct vr_change c = {
		.kind = change_of[fx->kind], .lo = fx->lo, .hi = fx->hi,
		.before = ranges_of(before, &b), .after = ranges_of(after, &a),
	};
	return vr_classify(&c, NULL);
}

/* The system call itself, without libc's wrapper (one less code page and
 * errno round trip between the two clock reads): -errno on failure. */
static inline long raw_syscall(long nr, const uint64_t *a)
{
#if defined(__x86_64__)
	register uint64_t r10 __asm__("r10") = a[3];
	register uint64_t r8 __asm__("r8") = a[4];
	register uint64_t r9 __asm__("r9") = a[5];
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(nr), "D"(a[0]), "S"(a[1]), "d"(a[2]), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
#else
	long ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	return ret == -1 ? -errno : ret;
#endif
}

/* brk with nothing to decide but its result: a brk_test trace's loop. */
__attribute__((hot)) static long k_brk_timed(struct rp_space *s, uint64_t target, uint64_t *latency_ns)
{
	const uint64_t a[6] = { target };
	uint64_t t0 = lat_tick();
	long ret = raw_syscall(SYS_brk, a);
	uint64_t lat = lat_tick_ns(lat_tick() - t0);
	*latency_ns = lat > s->cfg.clock_cost ? lat - s->cfg.clock_cost : 0;
	return ret;
}

/* A raw system call's result into out (ret -1 and err on failure, no
 * outcome yet); the errno, 0 on success. */
static inline int take_result(long ret, struct vr_result *out)
{
	int err = vmt_raw_failed(ret) ? (int)-ret : 0;
	out->ret = err ? -1 : ret;
	out->err = err;
	out->rule = NULL;
	out->vma_count = -1;
	if (err)
		out->outcome = VR_FAILED;
	return err;
}

/* brk answers the old break when it refuses: nothing changed. */
static inline int brk_refused(uint64_t target, long ret, struct rp_effect *fx, struct vr_result *out)
{
	if ((uint64_t)ret == target)
		return 0;
	out->outcome = VR_UNCHANGED;
	fx->vma_delta = 0;
	fx->have_delta = 1;
	return 1;
}

/* VMREPLAY_CHECK_VMA_MODEL: what the model said against what the kernel
 * says; a difference ends this replayer with status 3, its message also
 * appended to the file the variable names when it is a path (so a run of
 * the tests with it set can be searched). */
static void check_known(const char *what, uint64_t lo, uint64_t hi, uint64_t start, uint64_t end,
                        const struct vq_vma *v)
{
	if (v->start == start && v->end == end)
		return;
	char msg[256];
	int n = snprintf(msg, sizeof(msg),
	                 "vmreplay: VMA model wrong (%s %#llx-%#llx): said %#llx-%#llx, the kernel %#llx-%#llx\n",
	                 what, (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)start,
	                 (unsigned long long)end, (unsigned long long)v->start, (unsigned long long)v->end);
	fputs(msg, stderr);
	const char *log = getenv("VMREPLAY_CHECK_VMA_MODEL");
	int fd = log && *log == '/' ? open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644) : -1;
	if (fd >= 0) {
		if (write(fd, msg, (size_t)n) < 0)
			fputs("vmreplay: cannot log to VMREPLAY_CHECK_VMA_MODEL\n", stderr);
		close(fd);
	}
	_exit(3);
}

/* What struct k_known tells of a call before it is made, and what it
 * knows after: the one place of these rules, for apply_call and the brk
 * path that needs no query at all (k_brk_known). */

/* A growth of the break over [lo, hi) whose VMA is known without asking:
 * it joins the known heap VMA (*grows) or makes one of its own. */
static inline int brk_growth_known(const struct k_known *k, uint64_t lo, uint64_t hi, struct vq_vma *v,
                                   int *grows)
{
	*grows = k->brk_grows && k->end == lo;
	if (!*grows && !(k->brk_alone_at && k->brk_alone_at == lo))
		return 0;
	*v = (struct vq_vma){ .start = *grows ? k->start : lo, .end = hi };
	return 1;
}

/* A removal of [lo, hi) inside the known VMA intersects it alone. */
static inline int removal_known(const struct k_known *k, uint64_t lo, uint64_t hi)
{
	return k->start < k->end && k->start <= lo && hi <= k->end;
}

static void check_growth(uint64_t lo, uint64_t hi, const struct vq_vma *v)
{
	struct vq_vma q = { 0 };
	vq_covering(lo, &q);
	check_known("brk", lo, hi, v->start, v->end, &q);
}

static void check_removal(uint64_t lo, uint64_t hi, const struct k_known *k)
{
	struct vq_list q = { 0 };
	vq_intersecting(lo, hi, &q);
	check_known("remove", lo, hi, k->start, q.n == 1 ? k->end : 0, &q.v[0]);
}

/* [fx->lo, fx->hi) was made and lies in VMA v (kind: VR_CH_CREATE or, an
 * mremap's new tail in place, VR_CH_GROW); k: what was known before. */
static inline void created(struct rp_space *s, const struct k_known *k, int is_brk, int grows,
                           const struct vq_vma *v, int kind, struct rp_effect *fx, struct vr_result *out)
{
	if (s->model && (!is_brk || v->end == fx->hi))
		s->known = (struct k_known){ v->start, v->end, is_brk && (grows || v->start < fx->lo),
		                             .brk_own = is_brk && (grows ? k->brk_own : v->start == fx->lo) };
	const uint64_t cover[1][2] = { { v->start, v->end } };
	struct vr_change c = { .kind = kind, .lo = fx->lo, .hi = fx->hi,
	                       .after = { .n = 1, .stored = 1, .r = cover } };
	out->outcome = vr_classify(&c, NULL);
	fx->vma_delta = 1 - (v->start < fx->lo) - (v->end > fx->hi);
	fx->have_delta = 1;
}

/* [fx->lo, fx->hi) was removed from the VMAs `before` it intersected. */
static inline void removed(struct rp_space *s, const struct k_known *k, int is_brk,
                           const struct vq_list *before, struct rp_effect *fx, struct vr_result *out)
{
	out->outcome = derive_outcome(fx, before, before);
	int64_t whole = 0;
	for (size_t i = 0; i < before->n && i < VQ_MAX; i++)
		whole += before->v[i].start >= fx->lo && before->v[i].end <= fx->hi;
	fx->vma_delta = out->outcome == VR_SPLIT ? 1 : -whole;
	fx->have_delta = before->n <= VQ_MAX;
	/* the tail of one VMA cut: the rest stays known */
	const struct vq_vma *b = &before->v[0];
	int was_known = b->start == k->start && b->end == k->end;
	if (s->model && before->n == 1 && b->start < fx->lo && b->end == fx->hi)
		s->known = (struct k_known){ b->start, fx->lo, is_brk && k->brk_grows && was_known,
		                             .brk_own = is_brk && k->brk_own && was_known };
	/* a brk VMA removed whole: the next growth from here is alone again */
	else if (s->model && is_brk && before->n == 1 && k->brk_own && was_known &&
	         b->start == fx->lo && b->end == fx->hi)
		s->known = (struct k_known){ .brk_alone_at = fx->lo };
}

/* The outcome and VMA-count change of a call, from as few queries as its
 * kind allows: a fresh CREATE needs only the VMA at lo afterwards, a REMOVE
 * only the VMAs before, a MODIFY both sides; none where the VMA the call
 * works on is known (struct k_known). */
__attribute__((hot)) static void apply_call(struct rp_space *s, const struct vmt_event *ev,
                                            struct rp_effect *fx, struct vr_result *out)
{
	static __thread struct vq_list before, after;   /* --threads: one per replaying thread */
	const uint64_t page = s->cfg.page_size;
	long nr = s->nr[ev->sys];
	int want = s->cfg.outcomes && fx->kind != RP_FX_NONE;
	/* placed by the kernel: lo 0 (an mmap's hi too; shmat's hi is the
	 * length); a MAP_FIXED at address 0 is not */
	int placed = fx->lo == 0 && (fx->hi == 0 || ev->sys == VMT_SYS_SHMAT);
	int fresh = fx->kind == RP_FX_CREATE && (fx->fresh || placed);
	const struct k_known k = s->known;   /* what the call may use; then forgotten */
	int is_brk = ev->sys == VMT_SYS_BRK;
	/* a removal inside the known VMA intersects it alone */
	int known_before = want && fx->kind == RP_FX_REMOVE && removal_known(&k, fx->lo, fx->hi);
	forget(s);
	fx->have_delta = 0;
	before.n = 0;
	if (known_before) {
		before.n = 1;
		before.v[0] = (struct vq_vma){ .start = k.start, .end = k.end };
		if (s->check)
			check_removal(fx->lo, fx->hi, &k);
	} else if (want && fx->kind == RP_FX_REMOVE) {
		vq_intersecting(fx->lo, fx->hi, &before);
	} else if (want && !fresh && fx->kind != RP_FX_MREMAP) {
		vq_around(fx->lo, fx->hi, &before);
	}
	uint64_t t0 = lat_tick();
	long ret = raw_syscall(nr, ev->args);
	uint64_t t1 = lat_tick();
	uint64_t lat = lat_tick_ns(t1 - t0);
	out->latency_ns = lat > s->cfg.clock_cost ? lat - s->cfg.clock_cost : 0;
	if (take_result(ret, out))
		return;
	if (ev->sys == VMT_SYS_MREMAP && (uint64_t)ret != ev->args[0]) {
		/* what the range did at its destination (the count is taken again) */
		struct vq_vma v = { 0 };
		uint64_t len = (ev->args[2] + page - 1) & ~(page - 1);
		out->outcome = VR_MOVE;
		if (s->cfg.outcomes && vq_covering((uint64_t)ret, &v) == 1) {
			const uint64_t cover[1][2] = { { v.start, v.end } };
			struct vr_change c = { .kind = VR_CH_MOVE, .lo = (uint64_t)ret, .hi = (uint64_t)ret + len,
			                       .after = { .n = 1, .stored = 1, .r = cover } };
			out->outcome = vr_classify(&c, NULL);
		}
		return;
	}
	if (is_brk && brk_refused(ev->args[0], ret, fx, out))
		return;
	if (!want) {
		out->outcome = VR_UNCHANGED;
		return;
	}
	if (fresh) {
		if (placed) {   /* known now */
			uint64_t len = ev->sys == VMT_SYS_SHMAT ? fx->hi : ev->args[1];
			fx->lo = (uint64_t)ret;
			fx->hi = (uint64_t)ret + ((len + page - 1) & ~(page - 1));
		}
		struct vq_vma v;
		int grows = 0;
		if (is_brk && brk_growth_known(&k, fx->lo, fx->hi, &v, &grows)) {
			if (s->check)
				check_growth(fx->lo, fx->hi, &v);
		} else if (vq_covering(fx->lo, &v) != 1) {
			out->outcome = VR_UNCHANGED;
			return;
		}
		/* an mremap that grew in place: its new tail */
		created(s, &k, is_brk, grows, &v, ev->sys == VMT_SYS_MREMAP ? VR_CH_GROW : VR_CH_CREATE, fx, out);
		return;
	}
	if (fx->kind == RP_FX_REMOVE) {
		removed(s, &k, is_brk, &before, fx, out);
		return;
	}
	vq_around(fx->lo, fx->hi, &after);
	out->outcome = derive_outcome(fx, &before, &after);
	fx->vma_delta = (int64_t)after.n - (int64_t)before.n;
	fx->have_delta = before.n <= VQ_MAX && after.n <= VQ_MAX;
}

/* A brk whose outcome what is known tells without any query (a brk_test
 * loop's growths from the heap's end and shrinks within it): made and
 * told as apply_call would, with none of its general work between two
 * calls, which was a tenth of a replayed brk where a brk takes 0.3 us.
 * 0: not known (nothing was issued; the caller goes through apply). */
__attribute__((hot)) static int k_brk_known(struct rp_space *s, uint64_t target, struct rp_effect *fx,
                                            struct vr_result *out)
{
	static struct vq_list one;   /* the known VMA, as a removal's `before` (no --threads here) */
	const struct k_known k = s->known;
	struct vq_vma v = { 0 };
	int grows = 0;
	if (fx->kind == RP_FX_CREATE ? !brk_growth_known(&k, fx->lo, fx->hi, &v, &grows)
	                             : fx->kind != RP_FX_REMOVE || !removal_known(&k, fx->lo, fx->hi))
		return 0;
	if (s->check && fx->kind == RP_FX_REMOVE)
		check_removal(fx->lo, fx->hi, &k);
	forget(s);
	fx->have_delta = 0;
	long ret = k_brk_timed(s, target, &out->latency_ns);
	if (take_result(ret, out) || brk_refused(target, ret, fx, out))
		return 1;
	if (fx->kind == RP_FX_CREATE) {
		if (s->check)
			check_growth(fx->lo, fx->hi, &v);
		created(s, &k, 1, grows, &v, VR_CH_CREATE, fx, out);
	} else {
		one.n = 1;
		one.v[0] = (struct vq_vma){ .start = k.start, .end = k.end };
		removed(s, &k, 1, &one, fx, out);
	}
	return 1;
}

__attribute__((hot)) static void k_apply(struct rp_space *s, const struct vmt_event *ev, const struct vmt_file *file,
                    struct rp_effect *fx, struct vr_result *out)
{
	(void)file;
	/* the /proc/self/maps fallback reads into one buffer: one call at a time */
	if (!s->cfg.release || !vq_has_procmap_query()) {
		apply_call(s, ev, fx, out);
		return;
	}
	s->cfg.release(s->cfg.lock_arg);
	apply_call(s, ev, fx, out);
	s->cfg.take(s->cfg.lock_arg);
}

static void populate(uint64_t a, uint64_t b)
{
	struct vq_list l;
	if (vq_around(a + 1, b - 1, &l) < 0)
		return;
	for (size_t i = 0; i < l.n && i < VQ_MAX; i++) {
		const struct vq_vma *v = &l.v[i];
		uint64_t s = v->start > a ? v->start : a, e = v->end < b ? v->end : b;
		if (s >= e || !(v->prot & VMT_PROT_READ))
			continue;
		int write = (v->prot & VMT_PROT_WRITE) && !v->shared && !v->inode;
		madvise((void *)s, e - s, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
	}
}

static void k_touch(struct rp_space *s, const struct vmt_residency *res)
{
	forget(s);   /* faults give VMAs their anon_vma */
	uint64_t ps = s->cfg.page_size;
	for (uint64_t i = 0; i < res->npages; ) {
		if (!(res->bits[i / 8] & (1u << (i % 8)))) {
			i++;
			continue;
		}
		uint64_t j = i;
		while (j < res->npages && (res->bits[j / 8] & (1u << (j % 8))))
			j++;
		populate(res->start + i * ps, res->start + j * ps);
		i = j;
	}
}

/* The heap where the recording had it: the break moved to start_brk, then
 * grown to brk and written, as a running program's heap is. */
static int k_set_brk(struct rp_space *s, uint64_t start_brk, uint64_t brk)
{
	forget(s);
	int err = set_break_at(start_brk);
	if (err)
		return err;
	if (brk > start_brk) {
		if ((uint64_t)syscall(SYS_brk, brk) != brk)
			return -ENOMEM;   /* something of ours is in the way */
		written(start_brk);
	}
	return 0;
}

/* Where the recording had it, moved by the image's offset, when this
 * kernel lets the replayer move its break, so its neighbours are the
 * recorded ones; otherwise grown from the replayer's own break, and brk
 * addresses translate by brk_delta instead.  A heap the program split
 * gets its pieces' own protections. */
static int k_place_heap(struct rp_space *s, const struct vmt_map *m, struct rp_heap *h)
{
	uint64_t at = h->start_brk + (uint64_t)h->delta;
	int err = h->in_place ? k_set_brk(s, at, h->brk + (uint64_t)h->delta) : 0;
	if (h->in_place && err == 0) {
		h->brk_delta = h->delta;
		h->heap_start = at;
	} else {
		if (err < 0)
			set_break_at(h->own_brk);
		h->brk_delta = (int64_t)(h->own_brk - h->start_brk);
		h->heap_start = h->own_brk;
		if (h->brk > h->start_brk &&
		    (uint64_t)syscall(SYS_brk, h->own_brk + (h->brk - h->start_brk)) > h->own_brk)
			written(h->own_brk);
	}
	h->cur_brk = (uint64_t)syscall(SYS_brk, 0);
	for (uint32_t i = 0; m && i < m->nvma; i++) {
		const struct vmt_vma *v = &m->vmas[i];
		if (strcmp(v->name, "[heap]") == 0 && (v->prot & 7) != (VMT_PROT_READ | VMT_PROT_WRITE))
			mprotect((void *)(v->start + (uint64_t)h->brk_delta), v->end - v->start, (int)(v->prot & 7));
	}
	return err;
}

static int64_t k_count(struct rp_space *s, const uint64_t (*ranges)[2], size_t n)
{
	(void)s;
	int64_t count = vq_count_in(ranges, n);
	return count < 0 ? -EIO : count;
}

/* The image's replay ranges, sorted, for vq_count_in: sized by reserve
 * before the image replays (the replayer allocates nothing then). */
static uint64_t (*ranges_buf)[2];
static size_t ranges_cap;

static int reserve_ranges(size_t n)
{
	if (n <= ranges_cap)
		return 0;
	void *nb = realloc(ranges_buf, n * sizeof(*ranges_buf));
	if (!nb)
		return -ENOMEM;
	ranges_buf = nb;
	ranges_cap = n;
	return 0;
}

static void k_reserve(struct rp_space *s, size_t n)
{
	(void)s;
	reserve_ranges(n);
}

static int cmp_range(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The VMAs meeting the program's ranges: this process holds the
 * replayer's own memory too, which is no VMA of the program's. */
static int64_t k_count_image(struct rp_space *s, const struct rp_image *img)
{
	const struct addrmap *am = img->am;
	if (am->n > ranges_cap && reserve_ranges(am->n * 2) < 0)
		return -ENOMEM;
	int sorted = 1;
	for (size_t i = 0; i < am->n; i++) {
		ranges_buf[i][0] = am->r[i].start + (uint64_t)am->r[i].delta;
		ranges_buf[i][1] = am->r[i].end + (uint64_t)am->r[i].delta;
		if (i && ranges_buf[i][0] < ranges_buf[i - 1][0])
			sorted = 0;
	}
	if (!sorted)
		qsort(ranges_buf, am->n, sizeof(*ranges_buf), cmp_range);
	int64_t n = k_count(s, (const uint64_t (*)[2])ranges_buf, am->n);
	return n < 0 ? n : n + img->special;
}

static void unmap_all(const struct addrmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		munmap((void *)(m->r[i].start + (uint64_t)m->r[i].delta), m->r[i].end - m->r[i].start);
}

static void k_end_image(struct rp_space *s, const struct rp_image *img)
{
	forget(s);
	/* the break first: brk refuses to shrink a heap that munmap removed */
	if (img->heap_start)
		syscall(SYS_brk, img->heap_start);
	unmap_all(img->am);
	unmap_all(img->holds);
	if (img->locked_future)
		munlockall();
}

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		int c = **p, d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v << 4 | (uint64_t)d;
	}
}

/* /proc/self/maps through a static buffer: the replayer allocates nothing
 * while it replays. */
static int k_vmas(struct rp_space *s, void (*fn)(void *arg, const struct rp_vma *v, uint32_t i), void *arg)
{
	static char buf[1 << 16];
	size_t have = 0;
	uint32_t id = 0;
	(void)s;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t got = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (got <= 0)
			break;
		have += (size_t)got;
		buf[have] = 0;
		char *line = buf, *nl;
		while ((nl = strchr(line, '\n'))) {
			const char *p = line;
			struct rp_vma v = { .start = hex(&p) };
			p++;
			v.end = hex(&p);
			if (p[0] == ' ' && p[1] && p[2] && p[3] && p[4]) {
				v.prot = (p[1] == 'r' ? VMT_PROT_READ : 0) | (p[2] == 'w' ? VMT_PROT_WRITE : 0) |
				         (p[3] == 'x' ? VMT_PROT_EXEC : 0);
				v.shared = p[4] == 's';
				p += 5;
			}
			/* offset, device, inode */
			for (int f = 0; f < 3 && *p; f++) {
				while (*p == ' ')
					p++;
				if (f == 2)
					break;
				while (*p && *p != ' ')
					p++;
			}
			v.file = strtoull(p, NULL, 10);
			fn(arg, &v, id++);
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
	}
	close(fd);
	return 0;
}

static int k_fork(struct rp_space *s, uint64_t seq, struct rp_forked *f)
{
	(void)seq;
	forget(s);   /* the parent's VMAs and the child's have other anon_vmas now */
	vq_close();
	pid_t pid = fork();
	int e = errno;
	vq_open();
	if (pid < 0)
		return -e;
	*f = (struct rp_forked){ .child = s, .pid = pid ? pid : getpid(), .in_child = pid == 0 };
	return 0;
}

static void k_free(struct rp_space *s) { (void)s; }

/* The replayer's whole map, its own memory among the replay's. */
static void k_show_map(struct rp_space *s)
{
	char cmd[64];
	(void)s;
	snprintf(cmd, sizeof(cmd), "cat /proc/%d/maps >&2", getpid());
	if (system(cmd) != 0)
		fprintf(stderr, "vmreplay: cannot show the map\n");
}

const struct rp_backend rp_kernel_backend = {
	.target = "kernel",
	.space_new = k_new,
	.standin = k_standin,
	.apply = k_apply,
	.touch = k_touch,
	.count = k_count,
	.count_image = k_count_image,
	.reserve = k_reserve,
	.end_image = k_end_image,
	.vmas = k_vmas,
	.fork = k_fork,
	.space_free = k_free,
	.place_heap = k_place_heap,
	.brk_timed = k_brk_timed,
	.brk_known = k_brk_known,
	.hold_low = k_hold_low,
	.release_low = k_release_low,
	.replayer_processes = 1,
	.recorded_addresses = 0,
	.real_objects = 1,
	.show_map = k_show_map,
};
