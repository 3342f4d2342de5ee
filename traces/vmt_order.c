/* vmt_order.c - see vmt_order.h.
 *
 * Every record has a key (its seq; a record without one takes the key
 * before it in its chunk) and an end: an event's seq_end, key + 1 for
 * other records and for events of formats 1-3.  A record that ended
 * before another began comes before it.  Records whose intervals overlap
 * keep entry order, except where entry order is impossible for the calls
 * of one process: a call given a range another call still held, or that
 * succeeded on a range not mapped yet, or whose break contradicts the
 * break, goes after the call that makes it possible (the munmap that freed
 * the range the mmap got; the mmap that made the range the mprotect
 * changed), or where the clock says another call had returned before it
 * entered the kernel.  A fork child's records come after its fork, a
 * RESIDENCY record right before its event.  Each process's address space is kept
 * (vmt_space.c) to judge its calls.
 *
 * A record waits in the window only while one before it may still move:
 * with nothing waiting, a record whose interval is a point goes straight
 * through. */
#include <stdlib.h>
#include <string.h>
#include "vmt_order.h"
#include "vmt_reader_int.h"
#include "vmt_space.h"

enum { IT_EVENT, IT_RES, IT_OTHER };

struct item {
	struct vmt_record rec;
	void *blob;                  /* what rec points into (not for events) */
	uint64_t key, end;
	int32_t pid;
	uint8_t kind, done;
	uint8_t in;                  /* can_go_first: in the cluster */
	uint8_t has_range, brk;      /* its range [lo, hi) when it came; a brk */
	uint64_t lo, hi;
	uint8_t waited;              /* a call that began after it went first: it could not yet */
	uint8_t undecided;           /* a call on the same pages could have gone either side */
	uint8_t shut;                /* it cannot go first while the order's gen is shut_gen */
	uint8_t shuts;               /* a call that one shut could not go first before */
	uint64_t shut_gen;
};

/* Recently delivered calls of a process, to tell which overlapped. */
#define RECENT 8
struct recent {
	uint64_t key, end;
	int counted, near_counted;
	int has_range;
	uint64_t lo, hi;             /* its range, when it has one */
	struct vmt_order_call call;
};

struct file_size { uint32_t id; uint64_t size; };

struct proc {
	int32_t pid;
	int have_space;              /* a map or its fork gave it one */
	int heard;                   /* an event or END of it has been read */
	struct vmt_space sp;
	struct file_size *files;     /* for shmat's segment sizes */
	size_t nfiles, capfiles;
	struct recent recent[RECENT];
	unsigned nrecent;
	uint64_t recent_end;         /* the latest end among them */
	int near;                    /* its first near pair is in the stats (or no room) */
};

struct vmt_order {
	uint64_t page;
	struct item *w;              /* the window, in merge (key) order */
	size_t n, cap, ndone;
	uint64_t last_key;           /* the key of the last record read */
	int eof, status;             /* the merge is done; how it ended */
	void *out_blob;              /* delivered last: freed at the next call */
	long then;                   /* an event to deliver once its residencies went, or -1 */
	size_t forks;                /* fork events waiting in the window */
	struct vmt_space scratch;    /* then_possible's copy */
	size_t head;                 /* w[0..head): delivered */
	size_t *cand, cand_cap;      /* pick's candidates */
	size_t *cl, ncl, cl_cap;     /* can_go_first's cluster */
	size_t *tie, tie_cap;        /* calls_by_clock's */
	uint8_t *cl_left, *cl_need;
	size_t cl_lcap, cl_ncap;
	struct vmt_space *lv;        /* its spaces, one per depth */
	size_t lv_cap;
	struct proc **procs;         /* open addressing by pid */
	size_t nprocs, capprocs;
	struct proc *last;           /* the process of the last lookup */
	uint64_t gen;                /* moves when what shut a call out may have changed */
	struct vmt_order_stats st;
};

struct vmt_order *vmt_order_new(uint64_t page)
{
	struct vmt_order *o = calloc(1, sizeof(*o));
	if (o) {
		o->page = page ? page : VMT_PAGE;
		o->then = -1;
	}
	return o;
}

static void free_proc(struct proc *p)
{
	vmt_space_free(&p->sp);
	free(p->files);
	free(p);
}

void vmt_order_free(struct vmt_order *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++)
		free(o->w[i].blob);
	free(o->w);
	free(o->out_blob);
	vmt_space_free(&o->scratch);
	free(o->cand);
	free(o->cl);
	free(o->tie);
	free(o->cl_left);
	free(o->cl_need);
	for (size_t i = 0; i < o->lv_cap; i++)
		vmt_space_free(&o->lv[i]);
	free(o->lv);
	for (size_t i = 0; i < o->capprocs; i++)
		if (o->procs[i])
			free_proc(o->procs[i]);
	free(o->procs);
	free(o);
}

void vmt_order_stats(const struct vmt_order *o, struct vmt_order_stats *st)
{
	if (o)
		*st = o->st;
	else
		memset(st, 0, sizeof(*st));
}

/* ---- processes ------------------------------------------------------ */

static size_t slot(int32_t pid, size_t cap)
{
	return (size_t)(((uint64_t)(uint32_t)pid * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

static struct proc **find_slot(struct vmt_order *o, int32_t pid)
{
	size_t i = slot(pid, o->capprocs);
	while (o->procs[i] && o->procs[i]->pid != pid)
		i = (i + 1) & (o->capprocs - 1);
	return &o->procs[i];
}

static struct proc *find(struct vmt_order *o, int32_t pid)
{
	if (o->last && o->last->pid == pid)
		return o->last;
	struct proc *p = o->capprocs ? *find_slot(o, pid) : NULL;
	if (p)
		o->last = p;
	return p;
}

/* The process's state, made on first use; NULL when out of memory. */
static struct proc *get(struct vmt_order *o, int32_t pid)
{
	struct proc *p = find(o, pid);
	if (p)
		return p;
	if ((o->nprocs + 1) * 2 > o->capprocs) {
		size_t cap = o->capprocs ? o->capprocs * 2 : 64;
		struct proc **old = o->procs, **t = calloc(cap, sizeof(*t));
		size_t oldcap = o->capprocs;
		if (!t)
			return NULL;
		o->procs = t;
		o->capprocs = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				*find_slot(o, old[i]->pid) = old[i];
		free(old);
	}
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->pid = pid;
	vmt_space_init(&p->sp, pid, o->page);
	*find_slot(o, pid) = p;
	o->nprocs++;
	return p;
}

/* Removing from open addressing: the entries after it that belong
 * before the hole move back into it. */
static void drop(struct vmt_order *o, int32_t pid)
{
	if (!o->capprocs)
		return;
	struct proc **s = find_slot(o, pid);
	if (!*s)
		return;
	if (o->last == *s)
		o->last = NULL;
	free_proc(*s);
	*s = NULL;
	o->nprocs--;
	size_t hole = (size_t)(s - o->procs);
	for (size_t i = (hole + 1) & (o->capprocs - 1); o->procs[i]; i = (i + 1) & (o->capprocs - 1)) {
		struct proc *q = o->procs[i];
		o->procs[i] = NULL;
		*find_slot(o, q->pid) = q;
	}
}

static uint64_t segment(const struct proc *p, const struct vmt_event *ev)
{
	for (size_t i = 0; p && ev->file_id && i < p->nfiles; i++)
		if (p->files[i].id == ev->file_id)
			return p->files[i].size;
	return 0;
}

static void note_file(struct vmt_order *o, const struct vmt_file *f)
{
	struct proc *p = get(o, f->pid);
	if (!p)
		return;
	for (size_t i = 0; i < p->nfiles; i++)
		if (p->files[i].id == f->id) {
			p->files[i].size = f->size;
			return;
		}
	if (p->nfiles == p->capfiles) {
		size_t cap = p->capfiles ? p->capfiles * 2 : 8;
		struct file_size *n = realloc(p->files, cap * sizeof(*n));
		if (!n)
			return;
		p->files = n;
		p->capfiles = cap;
	}
	p->files[p->nfiles++] = (struct file_size){ f->id, f->size };
}

/* ---- copies of records that wait --------------------------------------- */

static size_t str_bytes(const char *s) { return s ? strlen(s) + 1 : 0; }

static char *put_str(char **at, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *d = memcpy(*at, s, n);
	*at += n;
	return d;
}

static void *put_mem(char **at, const void *src, size_t n)
{
	if (!src)
		return NULL;
	void *d = memcpy(*at, src, n);
	*at += (n + 7) & ~(size_t)7;
	return d;
}

/* What a record points to, copied into one allocation it then points to;
 * -1 when out of memory. */
static int own(struct item *it)
{
	struct vmt_record *r = &it->rec;
	size_t n = 0;
	switch (r->type) {
	case VMT_REC_PROCESS:
		n = str_bytes(r->u.process.exe) + str_bytes(r->u.process.cmdline);
		break;
	case VMT_REC_MAP:
	case VMT_REC_LAYOUT:   /* a struct vmt_map too, at the same place */
		n = r->u.map.nvma * sizeof(struct vmt_vma) + 8;
		for (uint32_t i = 0; i < r->u.map.nvma; i++)
			n += str_bytes(r->u.map.vmas[i].name);
		break;
	case VMT_REC_FILE: n = str_bytes(r->u.file.path); break;
	case VMT_REC_MODULE: n = str_bytes(r->u.module.path); break;
	case VMT_REC_STACK: n = r->u.stack.depth * sizeof(uint64_t) + 8; break;
	case VMT_REC_RESIDENCY:
		n = (r->u.residency.npages + 7) / 8 + 8 + r->u.residency.nruns * sizeof(struct vmt_run) + 8;
		break;
	case VMT_REC_RANGES:
		n = r->u.ranges.n * sizeof(struct vmt_range) + 8 + str_bytes(r->u.ranges.name);
		break;
	case VMT_REC_ARGV:
		n = r->u.argv.argc * sizeof(struct vmt_arg) + 8;
		for (uint32_t i = 0; i < r->u.argv.argc; i++)
			n += str_bytes(r->u.argv.args[i].str);
		break;
	default:
		return 0;
	}
	char *at = it->blob = malloc(n ? n : 1);
	if (!at)
		return -1;
	switch (r->type) {
	case VMT_REC_PROCESS:
		r->u.process.exe = put_str(&at, r->u.process.exe);
		r->u.process.cmdline = put_str(&at, r->u.process.cmdline);
		break;
	case VMT_REC_MAP:
	case VMT_REC_LAYOUT: {
		struct vmt_vma *v = put_mem(&at, r->u.map.vmas, r->u.map.nvma * sizeof(*v));
		for (uint32_t i = 0; v && i < r->u.map.nvma; i++)
			v[i].name = put_str(&at, v[i].name);
		r->u.map.vmas = v;
		break;
	}
	case VMT_REC_FILE: r->u.file.path = put_str(&at, r->u.file.path); break;
	case VMT_REC_MODULE: r->u.module.path = put_str(&at, r->u.module.path); break;
	case VMT_REC_STACK:
		r->u.stack.ips = put_mem(&at, r->u.stack.ips, r->u.stack.depth * sizeof(uint64_t));
		break;
	case VMT_REC_RESIDENCY:
		r->u.residency.bits = put_mem(&at, r->u.residency.bits, (r->u.residency.npages + 7) / 8);
		r->u.residency.runs = put_mem(&at, r->u.residency.runs,
		                              r->u.residency.nruns * sizeof(struct vmt_run));
		break;
	case VMT_REC_RANGES:
		r->u.ranges.ranges = put_mem(&at, r->u.ranges.ranges, r->u.ranges.n * sizeof(struct vmt_range));
		r->u.ranges.name = put_str(&at, r->u.ranges.name);
		break;
	case VMT_REC_ARGV: {
		struct vmt_arg *a = put_mem(&at, r->u.argv.args, r->u.argv.argc * sizeof(*a));
		for (uint32_t i = 0; a && i < r->u.argv.argc; i++)
			a[i].str = put_str(&at, a[i].str);
		r->u.argv.args = a;
		break;
	}
	}
	return 0;
}

/* ---- what a record is ------------------------------------------------- */

static int32_t pid_of(const struct vmt_record *r)
{
	switch (r->type) {
	case VMT_REC_EVENT: return r->u.event.pid;
	case VMT_REC_PROCESS: return r->u.process.pid;
	case VMT_REC_MAP: return r->u.map.pid;
	case VMT_REC_LAYOUT: return r->u.layout.pid;
	case VMT_REC_CHECKPOINT: return r->u.checkpoint.pid;
	case VMT_REC_FILE: return r->u.file.pid;
	case VMT_REC_MODULE: return r->u.module.pid;
	case VMT_REC_STACK: return r->u.stack.pid;
	case VMT_REC_RESIDENCY: return r->u.residency.pid;
	case VMT_REC_END: return r->u.end.pid;
	case VMT_REC_ARGV: return r->u.argv.pid;
	case VMT_REC_RANGES: return r->u.ranges.pid;
	default: return 0;
	}
}

static uint64_t end_of(const struct vmt_record *r, uint64_t key)
{
	if (r->type == VMT_REC_EVENT && r->u.event.seq_end > key)
		return r->u.event.seq_end;
	return key + 1;
}

/* A new process made by this call: its pid, else 0. */
static int32_t makes(const struct vmt_event *ev)
{
	if (vmt_sys_effect(ev->sys) != VMT_FX_TASK || ev->err || (ev->flags & VMT_EV_THREAD) ||
	    ev->result <= 0 || ev->result > INT32_MAX)
		return 0;
	return (int32_t)ev->result;
}

/* ---- choosing --------------------------------------------------------- */

static int possible(struct vmt_order *o, const struct item *x, struct vmt_space_conflict *why)
{
	const struct proc *p = find(o, x->pid);
	if (!p || !p->have_space)
		return 1;
	return vmt_space_judge(&p->sp, &x->rec.u.event, segment(p, &x->rec.u.event), why) == VMT_SPACE_OK;
}

/* A fork in the window that makes x's process: x waits for it. */
static int maker_waits(const struct vmt_order *o, size_t i)
{
	for (size_t j = o->head; j < i; j++) {
		const struct item *f = &o->w[j];
		if (!f->done && f->kind == IT_EVENT && makes(&f->rec.u.event) == o->w[i].pid)
			return 1;
	}
	return 0;
}

/* How long after a fork returned its child may stay silent before the
 * calls that overlapped the fork are placed without its word. */
#define CHILD_WAIT 4096

/* A call of f's process, other than f, that overlapped it in time and
 * names a range. */
static int overlapped_by_call(const struct vmt_order *o, const struct item *f)
{
	for (size_t j = o->head; j < o->n; j++) {
		const struct item *y = &o->w[j];
		if (y != f && y->kind == IT_EVENT && y->pid == f->pid && y->has_range &&
		    y->key < f->end && f->key < y->end)
			return 1;
	}
	return 0;
}

/* A fork waiting in the window whose child's calls are not read yet, and
 * that x is (or overlapped): the child's calls tell which of its parent's
 * calls came before the copy, so x waits for them (or CHILD_WAIT).  A fork
 * that no call of its process overlapped (the fork gate makes it so) has
 * its copy in its place: nothing waits. */
static int child_unheard(const struct vmt_order *o, const struct item *x)
{
	if (!o->forks || x->kind != IT_EVENT)
		return 0;
	for (size_t j = o->head; j < o->n; j++) {
		const struct item *f = &o->w[j];
		int32_t child;
		if (f->done || f->kind != IT_EVENT || f->pid != x->pid || !(child = makes(&f->rec.u.event)))
			continue;
		if (f != x && !(x->has_range && x->key < f->end && f->key < x->end))
			continue;
		if (f == x && !overlapped_by_call(o, f))
			continue;
		const struct proc *c = find((struct vmt_order *)o, child);
		if (!(c && c->heard) && o->last_key < f->end + CHILD_WAIT)
			return 1;
	}
	return 0;
}

/* A record without a seq of its own (file, stack, argv, module) goes
 * after the event its writer wrote before it (the one whose key it took). */
static int after_its_event(const struct vmt_order *o, size_t i)
{
	for (size_t j = o->head; j < i; j++)
		if (!o->w[j].done && o->w[j].kind == IT_EVENT && o->w[j].pid == o->w[i].pid &&
		    o->w[j].key == o->w[i].key)
			return 1;
	return 0;
}

/* Once every record that could have to come before x has been read (any
 * that ends before x does, or began while it ran: a record at x's end or
 * later has been read, records come in key order): x can go. */
static int ready(const struct vmt_order *o, const struct item *x)
{
	if (o->eof)
		return 1;
	return o->last_key >= x->end && !child_unheard(o, x);
}

/* Two calls of one process that meet: on ranges that overlap, or both
 * moving the break. */
static int meet(const struct item *x, const struct item *y)
{
	if (x->pid != y->pid || x->kind != IT_EVENT || y->kind != IT_EVENT)
		return 0;
	return (x->brk && y->brk) || (x->has_range && y->has_range && x->lo < y->hi && y->lo < x->hi);
}

/* Whether y is possible once x has happened (x possible now). */
static int then_possible(struct vmt_order *o, const struct item *x, const struct item *y)
{
	struct proc *p = find(o, x->pid);
	const struct vmt_event *xe = &x->rec.u.event, *ye = &y->rec.u.event;
	struct vmt_space *sp = &o->scratch;
	if (vmt_space_copy_part(sp, &p->sp, 0, UINT64_MAX))
		return 1;
	vmt_space_apply(sp, xe, segment(p, xe));
	return vmt_space_judge(sp, ye, segment(p, ye), NULL) == VMT_SPACE_OK;
}

/* ---- the search: can x go first? ----------------------------------------
 * x goes next only if the calls of its process that meet it (and those
 * that meet them) can then all happen in some order their intervals
 * allow.  A depth-first search over that cluster, on copies of the part of
 * the space it touches, tries the calls in the order their intervals end;
 * the calls not ready yet (what makes them possible may be still to come)
 * need not all fit.  A search past its budget takes the choice as it is. */
#define SEARCH_NODES 2048
#define SEARCH_BRANCHES 4

static int grow(void **p, size_t *cap, size_t want, size_t size)
{
	if (want <= *cap)
		return 0;
	size_t cap2 = *cap ? *cap * 2 : 64;
	while (cap2 < want)
		cap2 *= 2;
	void *n = realloc(*p, cap2 * size);
	if (!n)
		return -1;
	if (size == sizeof(struct vmt_space))
		memset((char *)n + *cap * size, 0, (cap2 - *cap) * size);
	*p = n;
	*cap = cap2;
	return 0;
}

/* Earliest end first; then entry, then the order read (stable). */
static int by_end(const void *a, const void *b, void *arg)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct item *w = arg, *x = &w[i], *y = &w[j];
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* A call that returned, with its clock (format 4): when it had returned
 * by the clock, its time_ns + latency_ns. */
static int returned(const struct item *x)
{
	return x->kind == IT_EVENT && x->rec.u.event.seq_end && !(x->rec.u.event.flags & VMT_EV_NORETURN);
}

/* For calls that returned: earliest end first; of calls that ended at
 * the same seq (no record began between their returns), the one that
 * returned first by the clock, then by_end.  A call that ran long and
 * returned later made its change later more often than not: a munmap
 * that entered the kernel 6 ms before another thread's mmap and returned
 * 77 us after it, with no seq taken between their returns, had not yet
 * unmapped the range the mmap's neighbour question saw mapped
 * (order_threads fork under load, a child one VMA off). */
static int by_end_clock(const void *a, const void *b, void *arg)
{
	const struct item *w = arg, *x = &w[*(const size_t *)a], *y = &w[*(const size_t *)b];
	const struct vmt_event *xe = &x->rec.u.event, *ye = &y->rec.u.event;
	uint64_t cx = xe->time_ns + xe->latency_ns, cy = ye->time_ns + ye->latency_ns;
	if (x->end == y->end && cx != cy)
		return cx < cy ? -1 : 1;
	return by_end(a, b, arg);
}

/* Records sorted by_end: where calls that returned end at the same seq,
 * they take the places such calls hold there in by_end_clock's order;
 * the other records keep theirs (so the order stays a total one). */
static int calls_by_clock(struct vmt_order *o, size_t *idx, size_t n)
{
	if (grow((void **)&o->tie, &o->tie_cap, n, sizeof(*o->tie)))
		return -1;
	for (size_t a = 0, b; a < n; a = b) {
		size_t nt = 0;
		for (b = a; b < n && o->w[idx[b]].end == o->w[idx[a]].end; b++)
			if (returned(&o->w[idx[b]]))
				o->tie[nt++] = idx[b];
		if (nt < 2)
			continue;
		qsort_r(o->tie, nt, sizeof(*o->tie), by_end_clock, o->w);
		for (size_t k = a, m = 0; k < b; k++)
			if (returned(&o->w[idx[k]]))
				idx[k] = o->tie[m++];
	}
	return 0;
}

/* Whether ev could take a range's pages away (verdict MAPPED: they are
 * in the way) or give them (UNMAPPED: they are missing). */
static int could_clear(const struct vmt_event *ev, int verdict)
{
	int fx = vmt_sys_effect(ev->sys);
	if (ev->err)
		return 0;
	if (fx == VMT_FX_REMAP)
		return 1;
	if (verdict == VMT_SPACE_MAPPED)
		return fx == VMT_FX_UNMAP || fx == VMT_FX_DETACH;
	return fx == VMT_FX_MAP || fx == VMT_FX_ATTACH;
}

/* What keeps call y from happening in sp: 0 nothing (or nothing a range
 * says), else its verdict, with the pages in its way in [*lo, *hi) (none
 * for the break). */
static int in_the_way(const struct proc *p, const struct vmt_space *sp, const struct item *y, uint64_t *lo,
                      uint64_t *hi)
{
	struct vmt_space_conflict why;
	int v = vmt_space_judge(sp, &y->rec.u.event, segment(p, &y->rec.u.event), &why);
	if (v == VMT_SPACE_OK || v == VMT_SPACE_BRK)
		return v;
	return vmt_space_in_the_way(sp, &why, lo, hi) ? v : 0;
}

/* Whether z, going before y, could take away what keeps y from happening
 * (in_the_way's verdict and pages): it began before y ended, and it moves
 * the break, or it clears or fills those pages as y needs. */
static int could_help(const struct item *z, const struct item *y, int verdict, uint64_t lo, uint64_t hi)
{
	if (z == y || z->key >= y->end)
		return 0;
	return z->brk || (verdict != VMT_SPACE_BRK && z->has_range && z->lo < hi && lo < z->hi &&
	                  could_clear(&z->rec.u.event, verdict));
}

/* A call that must still fit, impossible in sp, that no call left to go
 * before it could make possible (could_help), in *who: then the search
 * cannot succeed, which trying the others' orders may take past its
 * budget to learn.  A handler's mmap, 0.4 ms long, was given a page that
 * another thread's mmap got and unmapped while it ran; two threads mapping
 * and unmapping the next pages took the search past its budget, the mmap
 * went first and left that thread's mmap no order (signal_storm_threads,
 * 3 recordings of 200). */
static int stuck(struct vmt_order *o, const struct proc *p, const struct vmt_space *sp, struct item **who)
{
	for (size_t k = 0; k < o->ncl; k++) {
		if (!o->cl_left[k] || !o->cl_need[k])
			continue;
		struct item *y = &o->w[o->cl[k]];
		uint64_t lo = 0, hi = 0;
		int v = in_the_way(p, sp, y, &lo, &hi);
		if (!v)
			continue;
		size_t m = 0;
		while (m < o->ncl && !(o->cl_left[m] && could_help(&o->w[o->cl[m]], y, v, lo, hi)))
			m++;
		if (m == o->ncl) {
			*who = y;
			return 1;
		}
	}
	return 0;
}

static int place(struct vmt_order *o, const struct proc *p, size_t depth, unsigned *nodes)
{
	if (++*nodes > SEARCH_NODES)
		return 1;
	size_t need = 0;
	uint64_t min_end = UINT64_MAX;
	for (size_t k = 0; k < o->ncl; k++)
		if (o->cl_left[k]) {
			need += o->cl_need[k];
			if (o->w[o->cl[k]].end < min_end)
				min_end = o->w[o->cl[k]].end;
		}
	if (!need)
		return 1;
	if (grow((void **)&o->lv, &o->lv_cap, depth + 2, sizeof(*o->lv)))
		return 1;
	unsigned tried = 0;
	for (size_t k = 0; k < o->ncl && tried < SEARCH_BRANCHES; k++) {
		const struct item *y = &o->w[o->cl[k]];
		if (!o->cl_left[k] || min_end <= y->key)
			continue;
		uint64_t seg = segment(p, &y->rec.u.event);
		if (vmt_space_judge(&o->lv[depth], &y->rec.u.event, seg, NULL) != VMT_SPACE_OK)
			continue;
		tried++;
		if (vmt_space_copy_part(&o->lv[depth + 1], &o->lv[depth], 0, UINT64_MAX))
			return 1;
		vmt_space_apply(&o->lv[depth + 1], &y->rec.u.event, seg);
		o->cl_left[k] = 0;
		int ok = place(o, p, depth + 1, nodes);
		o->cl_left[k] = 1;
		if (ok)
			return 1;
	}
	return 0;
}

/* Whether the calls of fork child `child` waiting in the window can all
 * happen in the copy of p's space it gets, with x made first (NULL: as
 * the space is): the child's calls say which of its parent's calls that
 * overlapped the fork came before the copy. */
static int child_fits(struct vmt_order *o, const struct proc *p, int32_t child, const struct item *x)
{
	struct vmt_space *sp = &o->scratch;
	if (vmt_space_copy_part(sp, &p->sp, 0, UINT64_MAX))
		return 1;
	if (x)
		vmt_space_apply(sp, &x->rec.u.event, segment(p, &x->rec.u.event));
	for (size_t j = o->head; j < o->n; j++) {
		const struct item *y = &o->w[j];
		if (y->done || y->kind != IT_EVENT || y->pid != child)
			continue;
		/* a fork child starts with one thread: its calls in the order
		 * they began, none able to make an earlier one possible */
		uint64_t seg = segment(find(o, child), &y->rec.u.event);
		if (vmt_space_judge(sp, &y->rec.u.event, seg, NULL) != VMT_SPACE_OK)
			return 0;
		vmt_space_apply(sp, &y->rec.u.event, seg);
	}
	return 1;
}

/* A fork of x's process still to come that x overlapped: x goes first
 * only if the child's calls allow it in its copy; the fork itself only if
 * they fit the space as it is. */
static int forks_allow(struct vmt_order *o, const struct proc *p, size_t i)
{
	const struct item *x = &o->w[i];
	for (size_t j = o->head; j < o->n; j++) {
		const struct item *f = &o->w[j];
		int32_t child;
		if (f->done || f->kind != IT_EVENT || f->pid != x->pid || !(child = makes(&f->rec.u.event)))
			continue;
		if (j == i) {
			if (!child_fits(o, p, child, NULL))
				return 0;
		} else if (x->has_range && x->key < f->end && f->key < x->end && !child_fits(o, p, child, x)) {
			return 0;
		}
	}
	return 1;
}

/* Whether event w[i], possible now, can go next (above). */
static int can_go_first(struct vmt_order *o, size_t i)
{
	struct item *x = &o->w[i];
	const struct proc *p = find(o, x->pid);
	if (!p || !p->have_space)
		return 1;
	if (!forks_allow(o, p, i) || (x->shut && x->shut_gen == o->gen))
		return 0;
	/* the cluster: x, the calls that could have come before it (they
	 * began before it ended) and meet it or another member, and the calls
	 * that could make those possible (they began before those ended) */
	if (grow((void **)&o->cl, &o->cl_cap, o->n, sizeof(*o->cl)) ||
	    grow((void **)&o->cl_left, &o->cl_lcap, o->n, 1) || grow((void **)&o->cl_need, &o->cl_ncap, o->n, 1))
		return 1;
	o->ncl = 0;
	o->cl[o->ncl++] = i;
	uint64_t horizon = x->end;
	for (size_t j = o->head; j < o->n; j++)
		o->w[j].in = j == i;
	for (size_t k = 0; k < o->ncl; k++)
		for (size_t j = o->head; j < o->n && o->w[j].key < horizon; j++) {
			struct item *y = &o->w[j];
			if (y->in || y->done || y->pid != x->pid || !meet(&o->w[o->cl[k]], y))
				continue;
			y->in = 1;
			o->cl[o->ncl++] = j;
			if (y->key < x->end && y->end > horizon)
				horizon = y->end;
		}
	if (o->ncl == 1)
		return 1;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t k = 0; k < o->ncl; k++) {
		const struct item *y = &o->w[o->cl[k]];
		if (y->has_range) {
			lo = y->lo < lo ? y->lo : lo;
			hi = y->hi > hi ? y->hi : hi;
		}
	}
	qsort_r(o->cl + 1, o->ncl - 1, sizeof(*o->cl), by_end, o->w);
	if (calls_by_clock(o, o->cl + 1, o->ncl - 1))
		return 1;
	/* those that could have come before x must all still fit after it;
	 * the others are there to help */
	for (size_t k = 0; k < o->ncl; k++) {
		o->cl_left[k] = k != 0;
		o->cl_need[k] = k != 0 && o->w[o->cl[k]].key < x->end;
	}
	if (grow((void **)&o->lv, &o->lv_cap, 2, sizeof(*o->lv)) ||
	    vmt_space_copy_part(&o->lv[0], &p->sp, lo, hi > lo ? hi : lo + 1))
		return 1;
	vmt_space_apply(&o->lv[0], &x->rec.u.event, segment(p, &x->rec.u.event));
	/* what shuts a call out stays so until a record goes that could
	 * change it (gen moves): when every call that could go before the
	 * call shut out has been read, x is not asked again till then (the
	 * cluster of a call that waits long is built once, not at every
	 * record that goes) */
	struct item *y;
	if (stuck(o, p, &o->lv[0], &y)) {
		if (o->eof || o->last_key >= y->end) {
			x->shut = y->shuts = 1;
			x->shut_gen = o->gen;
		}
		return 0;
	}
	unsigned nodes = 0;
	return place(o, p, 0, &nodes);
}

/* A call of x's process, still to go, that had returned by the clock
 * before x entered the kernel: its change came first.  The clock is the
 * event's time (taken right before the system call) and its latency (to
 * after the recorder's work that follows it), so [time, time + latency]
 * holds the kernel's work; seq intervals say less where a thread was
 * held between taking its seq and the call (a munmap whose seq came 10 ms
 * before it entered the kernel, behind another thread's mmap that ended
 * 24 us before it: order_threads fork, a child one VMA off).  CLOCK_SLACK
 * covers the clocks of two CPUs. */
#define CLOCK_SLACK 1000
static int clock_after_another(const struct vmt_order *o, const struct item *x)
{
	const struct vmt_event *xe = &x->rec.u.event;
	if (!xe->seq_end)
		return 0;   /* formats 1-3: no end, entry order */
	for (size_t j = o->head; j < o->n; j++) {
		const struct item *y = &o->w[j];
		const struct vmt_event *ye = &y->rec.u.event;
		if (y != x && !y->done && y->kind == IT_EVENT && y->pid == x->pid && ye->seq_end &&
		    ye->time_ns + ye->latency_ns + CLOCK_SLACK < xe->time_ns)
			return 1;
	}
	return 0;
}

/* The first of pick's nc candidates (in the order their intervals end)
 * that can go, -1 none; `clocked`: not one the clock puts after another. */
static long first_to_go(struct vmt_order *o, size_t nc, int clocked)
{
	for (size_t k = 0; k < nc; k++) {
		struct item *x = &o->w[o->cand[k]];
		if (x->kind != IT_EVENT)
			return (long)o->cand[k];
		if ((clocked && clock_after_another(o, x)) || !can_go_first(o, o->cand[k]))
			continue;
		/* a call it meets, possible now, that either order leaves possible */
		for (size_t m = 0; m < nc; m++) {
			const struct item *y = &o->w[o->cand[m]];
			if (m != k && y->kind == IT_EVENT && y->key < x->end && x->key < y->end && meet(x, y) &&
			    then_possible(o, x, y) && then_possible(o, y, x))
				x->undecided = 1;
		}
		return (long)o->cand[k];
	}
	return -1;
}

/* When no candidate can go by the search: the one after which the record
 * that ends first, impossible now, becomes possible (it holds every record
 * that began after its end out of the candidates); else the one whose
 * interval ends first.  Thread A's munmap, in the kernel for 56 ms, lets
 * thread B's mmap of the same range go, where taking the earliest end
 * (thread C's 38 ms mmap of the range B maps and unmaps twenty times
 * next) put C's mmap between B's munmap and its next mmap: 8 threads
 * of 64 KiB mmap/munmap under load, once in about 224 recordings. */
static long unblocking(struct vmt_order *o, size_t nc, uint64_t min_end)
{
	for (size_t i = o->head; i < o->n; i++) {
		const struct item *y = &o->w[i];
		if (y->done || y->end != min_end || y->kind != IT_EVENT || possible(o, y, NULL))
			continue;
		for (size_t k = 0; k < nc; k++) {
			const struct item *x = &o->w[o->cand[k]];
			if (x->kind == IT_EVENT && x->pid == y->pid && then_possible(o, x, y))
				return (long)o->cand[k];
		}
	}
	return (long)o->cand[0];
}

/* The next record to deliver, or -1 while a record still to be read may
 * change which.  *forced: it is delivered although it was impossible.
 *
 * Of the records that could go now (all that must come before them are
 * out, every record that could have to come before them has been read,
 * and a call among them possible in its process's space), the one whose
 * interval ends first, so a call that ran long goes after the short ones
 * it overlapped; but a call goes only if the calls it meets can still all
 * happen after it (can_go_first), and not before a call the clock puts
 * before it (clock_after_another) while another can go.  When none can,
 * a call that is possible goes anyway, and when none is, the first
 * impossible one (counted). */
static long pick(struct vmt_order *o, int *forced)
{
	uint64_t min_end = UINT64_MAX;
	int unread = 0;
	long fallback = -1;
	*forced = 0;
	for (size_t i = o->head; i < o->n; i++)
		if (!o->w[i].done && o->w[i].end < min_end)
			min_end = o->w[i].end;
	if (grow((void **)&o->cand, &o->cand_cap, o->n, sizeof(*o->cand)))
		return -1;
	size_t nc = 0;
	for (size_t i = o->head; i < o->n; i++) {
		const struct item *x = &o->w[i];
		if (x->done)
			continue;
		if (min_end <= x->key)
			break;      /* it, and all after it, began after a record ended */
		if (!ready(o, x)) {
			unread = 1;
			continue;
		}
		if (x->kind == IT_RES)
			continue;   /* it goes with its event */
		if (maker_waits(o, i) || (x->kind != IT_EVENT && after_its_event(o, i)))
			continue;
		if (x->kind == IT_EVENT && !possible(o, x, NULL)) {
			if (fallback < 0 || x->end < o->w[fallback].end)
				fallback = (long)i;
			continue;
		}
		o->cand[nc++] = i;
	}
	if (nc > 1) {
		qsort_r(o->cand, nc, sizeof(*o->cand), by_end, o->w);
		if (calls_by_clock(o, o->cand, nc))
			return -1;
	}
	long go = first_to_go(o, nc, 1);
	if (go < 0)
		go = first_to_go(o, nc, 0);
	if (go >= 0)
		return go;
	if (unread)
		return -1;
	if (nc)
		return unblocking(o, nc, min_end);
	if (fallback >= 0)
		*forced = 1;
	return fallback;
}

/* ---- delivering ------------------------------------------------------- */

/* The calls that overlapped in time another call of their process, each
 * counted once; and those of them on the same or neighbouring pages (x's
 * range, has_range, is [lo, hi)), with each process's first pair named. */
static void note_overlaps(struct vmt_order *o, struct proc *p, const struct vmt_event *ev, uint64_t key,
                          uint64_t end, int has_range, uint64_t lo, uint64_t hi)
{
	int counted = 0, near_counted = 0;
	for (unsigned k = 0; key < p->recent_end && k < p->nrecent && k < RECENT; k++) {
		struct recent *y = &p->recent[k];
		if (!(y->key < end && key < y->end))
			continue;
		o->st.overlapped += !y->counted + !counted;
		y->counted = counted = 1;
		if (!has_range || !y->has_range || y->lo > hi || lo > y->hi)
			continue;
		o->st.near += !y->near_counted + !near_counted;
		y->near_counted = near_counted = 1;
		if (!p->near && o->st.nnears < VMT_ORDER_CONFLICTS)
			o->st.nears[o->st.nnears++] = (struct vmt_order_near){
				p->pid, y->call, { ev->seq, ev->pid, ev->tid, ev->sys } };
		p->near = 1;
	}
	p->recent[p->nrecent++ % RECENT] = (struct recent){
		key, end, counted, near_counted, has_range, lo, hi, { ev->seq, ev->pid, ev->tid, ev->sys } };
	if (end > p->recent_end)
		p->recent_end = end;
}

static void note_conflict(struct vmt_order *o, const struct vmt_event *ev, const struct vmt_space_conflict *why)
{
	o->st.impossible++;
	if (o->st.nconflicts >= VMT_ORDER_CONFLICTS)
		return;
	struct vmt_order_conflict *c = &o->st.conflicts[o->st.nconflicts++];
	*c = (struct vmt_order_conflict){
		.verdict = why->verdict, .start = why->start, .end = why->end, .brk = why->brk,
		.call = { ev->seq, ev->pid, ev->tid, ev->sys },
		.with = { why->who.seq, ev->pid, why->who.tid, why->who.sys },
	};
}

/* What a delivered event does to its process's state. */
static void follow_event(struct vmt_order *o, const struct vmt_event *ev, uint64_t key, uint64_t end,
                         int forced)
{
	struct proc *p = get(o, ev->pid);
	if (!p)
		return;
	p->heard = 1;
	if (!ev->seq_end)
		o->st.unknown++;
	/* the calls it passes that began earlier could not have happened yet */
	for (size_t j = o->head; j < o->n; j++)
		if (!o->w[j].done && o->w[j].kind == IT_EVENT && o->w[j].pid == ev->pid && o->w[j].key < key &&
		    !possible(o, &o->w[j], NULL))
			o->w[j].waited = 1;
	uint64_t seg = segment(p, ev), lo = 0, hi = 0;
	int has_range = p->have_space && vmt_space_extent(&p->sp, ev, seg, &lo, &hi);
	note_overlaps(o, p, ev, key, end, has_range, lo, hi);
	if (!p->have_space)
		return;
	struct vmt_space_conflict why;
	(void)forced;
	if (vmt_space_judge(&p->sp, ev, seg, &why) != VMT_SPACE_OK)
		note_conflict(o, ev, &why);
	vmt_space_apply(&p->sp, ev, seg);
	int32_t child = makes(ev);
	struct proc *c = child && child != ev->pid ? get(o, child) : NULL;
	p = find(o, ev->pid);   /* get() may have moved the table, not the process */
	if (c && p) {
		vmt_space_free(&c->sp);
		c->have_space = vmt_space_copy(&c->sp, &p->sp, child) == 0;
	}
}

static void follow(struct vmt_order *o, const struct vmt_record *r, uint64_t key, uint64_t end, int forced)
{
	struct proc *p;
	switch (r->type) {
	case VMT_REC_EVENT:
		follow_event(o, &r->u.event, key, end, forced);
		break;
	case VMT_REC_MAP:
		if ((p = get(o, r->u.map.pid)))
			p->have_space = vmt_space_load(&p->sp, &r->u.map) == 0;
		break;
	case VMT_REC_PROCESS:
		/* a new image, or a process without a map (an imported log):
		 * what its calls map is known, what was there before is not
		 * (vmt_space partial) until a map says */
		if ((p = get(o, r->u.process.pid)) && (!p->have_space || r->u.process.image > 0)) {
			vmt_space_free(&p->sp);
			vmt_space_init(&p->sp, p->pid, o->page);
			p->have_space = 1;
		}
		break;
	case VMT_REC_FILE:
		note_file(o, &r->u.file);
		break;
	case VMT_REC_END:
		drop(o, r->u.end.pid);
		break;
	}
}

/* The delivered records at the window's front are passed over; the
 * window is moved down when they are many (delivered ones inside it stay
 * until then, marked done). */
static void forget_done(struct vmt_order *o)
{
	while (o->head < o->n && o->w[o->head].done)
		o->head++;
	if (o->head == o->n) {
		o->n = o->head = o->ndone = 0;
		o->then = -1;
		return;
	}
	if (o->head < 64 || o->head * 2 < o->n)
		return;
	size_t k = 0;
	for (size_t i = o->head; i < o->n; i++) {
		if (o->w[i].done)
			continue;
		if (o->then == (long)i)
			o->then = (long)k;
		o->w[k++] = o->w[i];
	}
	o->n = k;
	o->head = o->ndone = 0;
}

/* Hand w[i] to the caller; its copies live until the next call. */
static void deliver(struct vmt_order *o, long i, int forced, struct vmt_record *rec)
{
	struct item *x = &o->w[i];
	x->done = 1;
	o->ndone++;
	if (x->kind == IT_EVENT && makes(&x->rec.u.event))
		o->forks--;
	if (x->shuts || !(x->kind == IT_EVENT && (x->has_range || x->brk)))
		o->gen++;   /* a call shut out may go now, or a change no range
		               says may have cleared its way */
	o->st.reordered += x->waited;
	o->st.undecided += x->undecided;
	*rec = x->rec;
	o->out_blob = x->blob;
	x->blob = NULL;
	follow(o, &x->rec, x->key, x->end, forced);
}

/* The residency of event w[i], waiting in the window. */
static long residency_of(const struct vmt_order *o, size_t i)
{
	for (size_t j = o->head; j < i; j++)
		if (!o->w[j].done && o->w[j].kind == IT_RES && o->w[j].pid == o->w[i].pid &&
		    o->w[j].key == o->w[i].key)
			return (long)j;
	return -1;
}

static int push(struct vmt_order *o, const struct vmt_record *rec, uint64_t key)
{
	if (o->n == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 64;
		struct item *w = realloc(o->w, cap * sizeof(*w));
		if (!w)
			return -1;
		o->w = w;
		o->cap = cap;
	}
	struct item *it = &o->w[o->n];
	it->rec.type = rec->type;
	if (rec->type == VMT_REC_EVENT)
		it->rec.u.event = rec->u.event;
	else
		it->rec = *rec;
	it->blob = NULL;
	it->key = key;
	it->end = end_of(rec, key);
	it->pid = pid_of(rec);
	it->kind = rec->type == VMT_REC_EVENT ? IT_EVENT : rec->type == VMT_REC_RESIDENCY ? IT_RES : IT_OTHER;
	it->done = it->waited = it->undecided = it->shut = it->shuts = 0;
	if (own(it) < 0)
		return -1;
	it->has_range = it->brk = 0;
	if (it->kind == IT_EVENT || rec->type == VMT_REC_END) {
		struct proc *q = get(o, it->pid);
		if (q)
			q->heard = 1;
	}
	if (it->kind == IT_EVENT && makes(&it->rec.u.event))
		o->forks++;
	if (it->kind == IT_EVENT) {
		const struct proc *p = find(o, it->pid);
		struct vmt_space none;
		vmt_space_init(&none, it->pid, o->page);
		const struct vmt_event *ev = &it->rec.u.event;
		it->brk = vmt_sys_effect(ev->sys) == VMT_FX_BRK;
		it->has_range = vmt_space_extent(p ? &p->sp : &none, ev, segment(p, ev), &it->lo, &it->hi);
	}
	/* residencies go with the event their writer wrote next (same pid and
	 * seq: a fork's, one per VMA; the two neighbours of an mmap); without
	 * it, each is a record of its own where it was read.  The residencies
	 * waiting at the window's end share a pid and seq. */
	size_t k = o->n;
	while (k > o->head && o->w[k - 1].kind == IT_RES && !o->w[k - 1].done)
		k--;
	if (k < o->n) {
		const struct item *last = &o->w[o->n - 1];
		int same = last->pid == it->pid && last->key == key;
		if (!(same && it->kind == IT_RES))
			for (; k < o->n; k++) {
				if (same && it->kind == IT_EVENT)
					o->w[k].end = it->end;
				else
					o->w[k].kind = IT_OTHER;
			}
	}
	o->n++;
	return 0;
}

/* The residencies waiting at the window's end, whose event never came:
 * records of their own. */
static void orphan_residencies(struct vmt_order *o)
{
	for (size_t k = o->n; k > o->head && o->w[k - 1].kind == IT_RES && !o->w[k - 1].done; k--)
		o->w[k - 1].kind = IT_OTHER;
}

int vmt_order_next(struct vmt_order *o, struct vmt_reader *r, struct vmt_record *rec)
{
	free(o->out_blob);
	o->out_blob = NULL;
	if (o->then >= 0) {
		long i = o->then, res = residency_of(o, (size_t)i);
		if (res < 0)
			o->then = -1;
		deliver(o, res >= 0 ? res : i, 0, rec);
		return 1;
	}
	for (;;) {
		forget_done(o);
		if (o->n > o->ndone) {
			int forced;
			long i = pick(o, &forced);
			if (i < 0 && o->eof) {
				/* nothing more to read and nothing can go: a damaged
				 * trace (keys going back in a chunk); the window in
				 * the order it was read */
				i = (long)o->head;
				while (o->w[i].done)
					i++;
			}
			if (i >= 0) {
				long res = o->w[i].kind == IT_EVENT ? residency_of(o, (size_t)i) : -1;
				if (res >= 0) {
					o->then = i;
					deliver(o, res, 0, rec);
				} else {
					deliver(o, i, forced, rec);
				}
				return 1;
			}
		} else if (o->eof) {
			return o->status;
		}
		if (o->eof)
			continue;   /* unreachable: at the end pick always gives one */
		int ret = vmt_rd_next_seq_order(r, rec);
		if (ret <= 0) {
			o->eof = 1;
			o->status = ret;
			orphan_residencies(o);
			continue;
		}
		uint64_t key = vmt_rd_key(r);
		o->last_key = key;
		if (o->n == o->ndone && rec->type != VMT_REC_RESIDENCY && end_of(rec, key) <= key + 1) {
			/* nothing waits and it is a point: straight through */
			follow(o, rec, key, key + 1, 0);
			return 1;
		}
		if (push(o, rec, key) < 0)
			return FAIL(r, VMT_ENOMEM, "out of memory for the records that overlap in time");
		/* a residency and its event, nothing else waiting and the event a
		 * point: both straight through */
		struct item *res = &o->w[o->head];
		if (o->n - o->head == 2 && o->n - o->ndone == 2 && res->kind == IT_RES &&
		    o->w[o->n - 1].kind == IT_EVENT && o->w[o->n - 1].end <= key + 1) {
			o->then = (long)o->n - 1;
			deliver(o, (long)o->head, 0, rec);
			return 1;
		}
	}
}
