/* vmt_store.c - the recording store (vmt_store.h).  Runs inside recorded
 * programs: only system calls of its own (never libc's wrappers, which the
 * shim patches, nor errno, which is the program's), no malloc, no locks.
 *
 * Crash consistency: a region is reserved by one atomic add on head->end
 * and its header written at once (a death in between leaves zeros, which
 * the finisher steps over); its kind is stored last, with release order,
 * so a region is either finished or still RESERVED.  A slab entry counts
 * once its length is added to slab->len; a chunk made from a slab's
 * oldest records names them (pending, pending_n, pending_from) before it
 * is copied, so the finisher writes each record exactly once. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "vmt_format.h"
#include "vmt_meta.h"
#include "vmt_store.h"
#include "vmt_raw.h"

#define REGION_MAGIC 0x47524d56u   /* "VMRG" */
#define EXTENT (4u << 20)

struct region {
	uint32_t magic, kind;
	uint64_t len;              /* payload bytes after this header */
};

struct entry {
	uint32_t size;             /* of the whole entry, a multiple of 8 */
	uint32_t type;             /* enum vmt_rec_type */
};

#define sc vmt_raw6

static int failed(long r) { return vmt_raw_failed(r); }
static uint64_t align8(uint64_t v) { return (v + 7) & ~7ull; }

static long open_path(const char *path, int flags, unsigned mode)
{
	return sc(SYS_openat, AT_FDCWD, (long)path, flags | O_CLOEXEC | O_NOFOLLOW, mode, 0, 0);
}

/* The window for a new store: a quarter of RLIMIT_AS where one is set. */
static uint64_t new_window(void)
{
	struct { uint64_t cur, max; } lim;
	uint64_t w = VMT_STORE_WINDOW;
	if (!failed(sc(SYS_prlimit64, 0, RLIMIT_AS, 0, (long)&lim, 0, 0)) && lim.cur / 4 < w)
		w = lim.cur / 4 < VMT_STORE_WINDOW_MIN ? VMT_STORE_WINDOW_MIN : lim.cur / 4 & ~((1ull << 20) - 1);
	return w;
}

static int map_window(struct vmt_store *s, long fd)
{
	uint64_t w = s->window;
	long p = sc(SYS_mmap, (long)VMT_STORE_ADDR, (long)w, PROT_READ | PROT_WRITE,
	            MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd, 0);
	if (failed(p) || (uint64_t)p != VMT_STORE_ADDR) {
		if (!failed(p))
			sc(SYS_munmap, p, (long)w, 0, 0, 0, 0);
		p = sc(SYS_mmap, 0, (long)w, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
	}
	if (failed(p))
		return (int)p;
	/* records land anywhere in the file: a fault reads no pages around
	 * the one it needs */
	sc(SYS_madvise, p, (long)w, MADV_RANDOM, 0, 0, 0);
	s->base = (uint8_t *)p;
	s->head = (struct vmt_store_head *)p;
	return 0;
}

/* A file system without fallocate gets a sparse file instead (where a
 * full disk can still raise SIGBUS); any other failure - ENOSPC, EDQUOT,
 * EFBIG - is the answer: ftruncate would succeed and the first touch of
 * the new pages would kill the program. */
static int no_fallocate(long r)
{
	return r == -EOPNOTSUPP || r == -ENOSYS;
}

/* Disk blocks for [0, upto): allocated before they are touched, so a full
 * disk fails here (the record is lost, the program keeps running) rather
 * than with SIGBUS in the program.  Any number of processes may grow it at
 * once: fallocate of an allocated range is a no-op. */
static int ensure(struct vmt_store *s, uint64_t upto)
{
	uint64_t ready = __atomic_load_n(&s->head->ready, __ATOMIC_ACQUIRE);
	if (upto <= ready)
		return 0;
	uint64_t want = (upto + EXTENT - 1) / EXTENT * EXTENT;
	if (want > s->window)
		return -1;
	long fd = open_path(s->path, O_RDWR, 0);
	if (failed(fd))
		return -1;
	long r = sc(SYS_fallocate, fd, 0, (long)ready, (long)(want - ready), 0, 0);
	if (no_fallocate(r))
		r = sc(SYS_ftruncate, fd, (long)want, 0, 0, 0, 0);
	sc(SYS_close, fd, 0, 0, 0, 0, 0);
	if (failed(r))
		return -1;
	while (ready < want && !__atomic_compare_exchange_n(&s->head->ready, &ready, want, 0,
	                                                    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
		;
	return 0;
}

int vmt_store_create(struct vmt_store *s, const char *path, const char *out,
                     unsigned mode, int launcher)
{
	if (strlen(path) >= sizeof s->path || strlen(out) >= sizeof s->head->out)
		return -ENAMETOOLONG;
	strcpy(s->path, path);
	long fd = open_path(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (failed(fd))
		return (int)fd;
	long r = sc(SYS_fallocate, fd, 0, 0, EXTENT, 0, 0);
	if (no_fallocate(r))
		r = sc(SYS_ftruncate, fd, EXTENT, 0, 0, 0, 0);
	s->window = new_window();
	if (!failed(r))
		r = map_window(s, fd);
	sc(SYS_close, fd, 0, 0, 0, 0, 0);
	if (failed(r)) {
		sc(SYS_unlink, (long)path, 0, 0, 0, 0, 0);
		return (int)r;
	}
	struct vmt_store_head *h = s->head;
	h->version = 1;
	h->launcher = (uint32_t)launcher;
	h->end = VMT_STORE_HEAD;
	h->ready = EXTENT;
	h->live = 1;
	h->mode = mode;
	h->window_mib = (uint32_t)(s->window >> 20);
	strcpy(h->out, out);
	__atomic_store_n((uint64_t *)h->magic, *(const uint64_t *)"VMRCSTOR", __ATOMIC_RELEASE);
	return 0;
}

int vmt_store_attach(struct vmt_store *s, const char *path)
{
	if (strlen(path) >= sizeof s->path)
		return -ENAMETOOLONG;
	strcpy(s->path, path);
	long fd = open_path(path, O_RDWR, 0);
	if (failed(fd))
		return (int)fd;
	struct stat st;
	long r = sc(SYS_fstat, fd, (long)&st, 0, 0, 0, 0);
	if (!failed(r) && st.st_size < VMT_STORE_HEAD)
		r = -EINVAL;
	struct vmt_store_head head;
	if (!failed(r) && sc(SYS_pread64, fd, (long)&head, sizeof head, 0, 0, 0) != (long)sizeof head)
		r = -EINVAL;
	/* the magic as read, not through the window: the process's first
	 * touch of the head page is then its first reservation's write, one
	 * fault, where a read first maps it read-only and the write faults
	 * again */
	if (!failed(r) && memcmp(head.magic, "VMRCSTOR", 8) != 0)
		r = -EINVAL;
	if (!failed(r)) {
		/* the window its creator chose, never more than the whole */
		s->window = head.window_mib && (uint64_t)head.window_mib << 20 < VMT_STORE_WINDOW
		            ? (uint64_t)head.window_mib << 20 : VMT_STORE_WINDOW;
		r = map_window(s, fd);
	}
	sc(SYS_close, fd, 0, 0, 0, 0, 0);
	return failed(r) ? (int)r : 0;
}

void vmt_store_detach(struct vmt_store *s)
{
	if (s->base)
		sc(SYS_munmap, (long)s->base, (long)s->window, 0, 0, 0, 0);
	s->base = NULL;
	s->head = NULL;
}

/* The payload of a new RESERVED region of len bytes, or NULL (store full). */
static void *reserve(struct vmt_store *s, size_t len, uint64_t *off)
{
	uint64_t need = align8(sizeof(struct region) + len);
	uint64_t o = __atomic_fetch_add(&s->head->end, need, __ATOMIC_RELAXED);
	if (o + need > s->window || ensure(s, o + need))
		return NULL;
	struct region *r = (struct region *)(s->base + o);
	r->len = len;
	r->kind = VMT_ST_RESERVED;
	__atomic_store_n(&r->magic, REGION_MAGIC, __ATOMIC_RELEASE);
	*off = o;
	return r + 1;
}

static void commit(struct vmt_store *s, uint64_t off, uint32_t kind)
{
	__atomic_store_n(&((struct region *)(s->base + off))->kind, kind, __ATOMIC_RELEASE);
}

struct vmt_store_slab *vmt_store_slab_new(struct vmt_store *s, int32_t pid, int32_t tid)
{
	uint64_t off;
	struct vmt_store_slab *sl = reserve(s, sizeof *sl + VMT_STORE_SLAB, &off);
	if (!sl)
		return NULL;
	*sl = (struct vmt_store_slab){ .pid = pid, .tid = tid, .cap = VMT_STORE_SLAB };
	commit(s, off, VMT_ST_SLAB);
	return sl;
}

/* An entry made in its first state: an UNBORN one is never seen RUNNING
 * with no pid yet. */
static struct vmt_store_proc *proc_make(struct vmt_store *s, int32_t pid, uint32_t state)
{
	uint64_t off;
	struct vmt_store_proc *p = reserve(s, sizeof *p, &off);
	if (!p)
		return NULL;
	p->pid = pid;
	p->state = state;
	commit(s, off, VMT_ST_PROC);
	uint64_t head = __atomic_load_n(&s->head->procs, __ATOMIC_ACQUIRE);
	do
		p->next = head;
	while (!__atomic_compare_exchange_n(&s->head->procs, &head, off, 1, __ATOMIC_ACQ_REL,
	                                    __ATOMIC_ACQUIRE));
	return p;
}

struct vmt_store_proc *vmt_store_proc_new(struct vmt_store *s, int32_t pid)
{
	return proc_make(s, pid, VMT_PROC_RUNNING);
}

struct vmt_store_proc *vmt_store_proc_unborn(struct vmt_store *s)
{
	return proc_make(s, 0, VMT_PROC_UNBORN);
}

void vmt_store_proc_named(struct vmt_store_proc *p, int32_t pid)
{
	__atomic_store_n(&p->pid, pid, __ATOMIC_RELEASE);
}

int vmt_store_proc_born(struct vmt_store_proc *p, int32_t pid)
{
	uint32_t unborn = VMT_PROC_UNBORN;
	__atomic_store_n(&p->pid, pid, __ATOMIC_RELEASE);
	return __atomic_compare_exchange_n(&p->state, &unborn, VMT_PROC_RUNNING, 0, __ATOMIC_ACQ_REL,
	                                   __ATOMIC_RELAXED);
}

void vmt_store_proc_unborn_failed(struct vmt_store_proc *p)
{
	__atomic_store_n(&p->state, VMT_PROC_ENDED, __ATOMIC_RELEASE);
}

/* from -> to, where from counts in live: 1 if this call moved it. */
static int proc_move(struct vmt_store *s, struct vmt_store_proc *p, uint32_t from, uint32_t to)
{
	if (!__atomic_compare_exchange_n(&p->state, &from, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return 0;
	__atomic_sub_fetch(&s->head->live, 1, __ATOMIC_ACQ_REL);
	return 1;
}

int vmt_store_proc_leave(struct vmt_store *s, struct vmt_store_proc *p, uint32_t state)
{
	return proc_move(s, p, VMT_PROC_RUNNING, state);
}

/* Each image that ended (ENDED, GONE: a state it never leaves; EXECED
 * may still fail back to RUNNING) is taken out of the list where it is
 * met, so a reap reads the pages of the images still running, not of
 * every image the tree ever had: a shell that ran 200 programs
 * preloaded alone walked all of them at each program's exit.  Taking
 * out is one compare-and-swap on the link that named it; a link that
 * changed meanwhile (a new image pushed, a neighbour taken out by
 * another reaper) is left as it is: an ended image left in the list is
 * only read again, and no running one is ever taken out. */
int64_t vmt_store_reap(struct vmt_store *s, int32_t self)
{
	uint64_t *link = &s->head->procs;
	uint64_t off = __atomic_load_n(link, __ATOMIC_ACQUIRE);
	uint64_t limit = __atomic_load_n(&s->head->ready, __ATOMIC_ACQUIRE);
	for (int n = 0; off && off + sizeof(struct region) + sizeof(struct vmt_store_proc) <= limit &&
	     n < 1 << 20; n++) {
		struct vmt_store_proc *p = (struct vmt_store_proc *)(s->base + off + sizeof(struct region));
		uint32_t state = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
		int32_t pid = __atomic_load_n(&p->pid, __ATOMIC_ACQUIRE);
		/* gone without a word: GONE (the finisher writes its END); a
		 * child killed before it ran, named by its parent: ENDED */
		uint32_t to = state == VMT_PROC_RUNNING && pid != self ? VMT_PROC_GONE
		            : state == VMT_PROC_UNBORN && pid > 0     ? VMT_PROC_ENDED : state;
		if (to != state && sc(SYS_kill, pid, 0, 0, 0, 0, 0) == -ESRCH && proc_move(s, p, state, to))
			state = to;
		uint64_t next = __atomic_load_n(&p->next, __ATOMIC_ACQUIRE);
		if (state == VMT_PROC_ENDED || state == VMT_PROC_GONE) {
			uint64_t seen = off;
			__atomic_compare_exchange_n(link, &seen, next, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
		} else {
			link = &p->next;
		}
		off = next;
	}
	return __atomic_load_n(&s->head->live, __ATOMIC_ACQUIRE);
}

/* Room at a slab's end that only an END may take: a writer whose slab is
 * full in a full store (no chunk, no new slab) still logs its process's
 * END, which counts the records that found no room (an END's bound, 180,
 * and its entry). */
#define END_ROOM 192u

int vmt_store_log(struct vmt_store_slab *sl, const struct vmt_record *rec)
{
	if (rec->type == VMT_REC_HEADER)
		return 2;
	size_t bound = rec->type == VMT_REC_EVENT ? sizeof rec->u.event : vmt_meta_bound(rec);
	uint64_t need = align8(sizeof(struct entry) + bound);
	uint32_t cap = rec->type == VMT_REC_END || sl->cap <= END_ROOM ? sl->cap : sl->cap - END_ROOM;
	if (need > cap)
		return 2;
	uint32_t len = sl->len;
	if (sl->start >= len && len) {     /* empty: start over */
		__atomic_store_n(&sl->len, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&sl->start, 0, __ATOMIC_RELEASE);
		len = 0;
	}
	if (len + need > cap)
		return 1;
	uint8_t *log = (uint8_t *)(sl + 1);
	struct entry *e = (struct entry *)(log + len);
	uint8_t *p = (uint8_t *)(e + 1), *end;
	if (rec->type == VMT_REC_EVENT) {
		memcpy(p, &rec->u.event, sizeof rec->u.event);
		end = p + sizeof rec->u.event;
	} else {
		end = vmt_meta_encode(p, rec, 0, NULL);
	}
	e->type = (uint32_t)rec->type;
	e->size = (uint32_t)align8((uint64_t)(end - (uint8_t *)e));
	__atomic_store_n(&sl->len, len + e->size, __ATOMIC_RELEASE);
	return 0;
}

int vmt_store_sink_put(void *opaque, const uint8_t *frame, size_t len, uint32_t nrecords)
{
	struct vmt_store_put *sp = opaque;
	struct vmt_store_slab *sl = nrecords ? sp->slab : NULL;
	uint64_t off;
	uint8_t *dst = reserve(sp->store, len, &off);
	if (!dst)
		return VMT_ENOSPC;
	if (sl) {
		sl->pending_n = nrecords;
		sl->pending_from = sl->start;
		__atomic_store_n(&sl->pending, off, __ATOMIC_RELEASE);
	}
	memcpy(dst, frame, len);
	commit(sp->store, off, frame[16] == VMT_KIND_HEADER ? VMT_ST_HEADER : VMT_ST_CHUNK);
	if (sl) {
		const uint8_t *log = (const uint8_t *)(sl + 1);
		uint32_t st = sl->start;
		for (uint32_t i = 0; i < nrecords && st < sl->len; i++)
			st += ((const struct entry *)(log + st))->size;
		__atomic_store_n(&sl->start, st, __ATOMIC_RELEASE);
		__atomic_store_n(&sl->pending, 0, __ATOMIC_RELEASE);
	}
	return 0;
}

/* ---- finishing --------------------------------------------------------- */

struct finish {
	struct vmt_store *s;
	const struct vmt_alloc *alloc;
	long fd;
	int err;
	uint64_t limit;            /* bytes of the store that may be read */
};

static void out(struct finish *f, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	while (len && !f->err) {
		long n = sc(SYS_write, f->fd, (long)p, (long)len, 0, 0, 0);
		if (n == -EINTR)
			continue;
		if (failed(n) || n == 0) {
			f->err = n ? (int)-n : ENOSPC;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
}

static struct vmt_writer *writer(struct finish *f, int32_t pid, int32_t tid)
{
	struct vmt_writer_prefs prefs = { .alloc = f->alloc };
	return vmt_writer_fdopen((int)f->fd, pid, tid, &prefs);
}

static void done(struct finish *f, struct vmt_writer *w)
{
	if (w && vmt_writer_close(w) && !f->err)
		f->err = EIO;
}

/* The next region at or after off, skipping what a death left unwritten. */
static const struct region *region_at(struct finish *f, uint64_t *off)
{
	for (; *off + sizeof(struct region) <= f->limit; *off += 8) {
		const struct region *r = (const struct region *)(f->s->base + *off);
		if (r->magic == REGION_MAGIC && r->kind >= VMT_ST_RESERVED && r->kind <= VMT_ST_PROC &&
		    r->len <= f->limit - *off - sizeof *r)
			return r;
	}
	return NULL;
}

static int committed_chunk(const struct vmt_store *s, uint64_t limit, uint64_t off)
{
	/* regions are 8-aligned past the head page: another offset is no
	 * chunk a writer put */
	if (off % 8 || off < VMT_STORE_HEAD || off > limit || limit - off < sizeof(struct region))
		return 0;
	const struct region *r = (const struct region *)(s->base + off);
	return r->magic == REGION_MAGIC && r->kind == VMT_ST_CHUNK;
}

/* Where the records of a slab that no chunk holds begin: a chunk put of
 * its oldest ones and committed, by a writer that died before it moved
 * start, holds the first pending_n. */
static uint32_t slab_first(const struct vmt_store *s, uint64_t limit, const struct vmt_store_slab *sl,
                           uint32_t len)
{
	const uint8_t *log = (const uint8_t *)(sl + 1);
	uint32_t st = sl->start;
	if (sl->pending && committed_chunk(s, limit, sl->pending) && st == sl->pending_from)
		for (uint32_t i = 0; i < sl->pending_n && st + sizeof(struct entry) <= len; i++) {
			if (st % 8)
				return len;   /* not as a writer left it: nothing more to trust */
			uint32_t size = ((const struct entry *)(log + st))->size;
			if (size < sizeof(struct entry) || size > len - st)
				return len;
			st += size;
		}
	return st;
}

/* The slab's records from st to len into w, in order; a record whose seq
 * is below one before it starts a chunk of its own (readers merge chunks
 * by seq; a pooled writer's slab holds calls of several threads). */
static void slab_records(const struct vmt_store_slab *sl, uint32_t st, uint32_t len,
                         struct vmt_writer *w, const struct vmt_alloc *alloc)
{
	const uint8_t *log = (const uint8_t *)(sl + 1);
	/* decoded through the caller's allocator: a finisher inside the
	 * recorded program must not call the program's malloc */
	struct vmt_scratch scratch = { .alloc = alloc };
	uint64_t last = 0;
	/* entries are 8-aligned as a writer leaves them: a start that is not
	 * is not a writer's */
	while (st % 8 == 0 && st + sizeof(struct entry) <= len) {
		const struct entry *e = (const struct entry *)(log + st);
		if (e->size < sizeof *e || e->size > len - st || e->size % 8 ||
		    (e->type == VMT_REC_EVENT && e->size - sizeof *e < sizeof(struct vmt_event)))
			break;
		struct vmt_record rec = { .type = (int)e->type };
		const uint8_t *p = (const uint8_t *)(e + 1);
		uint64_t index, seq;
		if (e->type == VMT_REC_EVENT)
			memcpy(&rec.u.event, p, sizeof rec.u.event);
		else if (vmt_meta_decode(&p, log + st + e->size, &rec, &index, &scratch, NULL))
			break;
		if (rec.type == VMT_REC_EVENT)
			seq = rec.u.event.seq;
		else if (!vmt_meta_seq(&rec, &seq))
			seq = last;
		if (seq < last)
			vmt_writer_flush(w);
		last = seq;
		vmt_write(w, &rec);
		st += e->size;
	}
	vmt_scratch_free(&scratch);
}

/* A chunk of the records a writer had not put in one yet; `room`: the
 * log bytes its region has, whatever its cap says. */
static void finish_slab(struct finish *f, const struct vmt_store_slab *sl, uint64_t room)
{
	uint32_t len = sl->len < sl->cap ? sl->len : sl->cap;
	if (len > room)
		len = (uint32_t)room;
	uint32_t st = slab_first(f->s, f->limit, sl, len);
	if (st >= len)
		return;
	struct vmt_writer *w = writer(f, sl->pid, sl->tid);
	if (!w) {
		f->err = ENOMEM;
		return;
	}
	slab_records(sl, st, len, w, f->alloc);
	done(f, w);
}

/* ---- draining (the vmrec launcher) ---------------------------------------- */

void vmt_store_seal(struct vmt_store *s, struct vmt_store_slab *sl)
{
	__atomic_store_n(&sl->state, VMT_SLAB_SEALED, __ATOMIC_RELEASE);
	__atomic_add_fetch(&s->head->sealed, 1, __ATOMIC_RELEASE);
	/* one wake a slab (a few thousand records): the launcher sleeps on it */
	sc(SYS_futex, (long)&s->head->sealed, FUTEX_WAKE, 1, 0, 0, 0);
}

struct vmt_store_slab *vmt_store_next_slab(struct vmt_store *s, uint64_t *off)
{
	uint64_t end = __atomic_load_n(&s->head->end, __ATOMIC_ACQUIRE);
	uint64_t ready = __atomic_load_n(&s->head->ready, __ATOMIC_ACQUIRE);
	if (end > ready)
		end = ready;
	while (*off + sizeof(struct region) <= end) {
		const struct region *r = (const struct region *)(s->base + *off);
		/* a region is reserved (cursor moved) before its header is
		 * written: not there yet, or left by a death; try again later
		 * (after a death's, the slabs beyond are their writers' to
		 * chunk, as when the launcher falls behind) */
		if (__atomic_load_n(&r->magic, __ATOMIC_ACQUIRE) != REGION_MAGIC ||
		    r->len > end - *off - sizeof *r)
			return NULL;
		uint32_t kind = __atomic_load_n(&r->kind, __ATOMIC_ACQUIRE);
		if (kind == VMT_ST_RESERVED)
			return NULL;   /* its kind comes when it is made */
		uint64_t at = *off;
		*off += align8(sizeof *r + r->len);
		if (kind == VMT_ST_SLAB && r->len >= sizeof(struct vmt_store_slab))
			return (struct vmt_store_slab *)(s->base + at + sizeof *r);
	}
	return NULL;
}

int vmt_store_drain(struct vmt_store *s, struct vmt_store_slab *sl, const struct vmt_alloc *alloc)
{
	if (__atomic_load_n(&sl->state, __ATOMIC_ACQUIRE) != VMT_SLAB_SEALED)
		return 0;
	uint32_t len = sl->len < sl->cap ? sl->len : sl->cap;
	uint64_t limit = __atomic_load_n(&s->head->end, __ATOMIC_ACQUIRE);
	/* the chunks' records are the slab's oldest: each put moves start past them */
	__atomic_store_n(&sl->start, slab_first(s, limit, sl, len), __ATOMIC_RELEASE);
	__atomic_store_n(&sl->pending, 0, __ATOMIC_RELEASE);
	struct vmt_store_put put = { s, sl };
	struct vmt_sink sink = { vmt_store_sink_put, &put };
	struct vmt_writer_prefs prefs = { .alloc = alloc, .sink = &sink };
	struct vmt_writer *w = vmt_writer_fdopen(-1, sl->pid, sl->tid, &prefs);
	if (!w)
		return VMT_ENOMEM;
	slab_records(sl, sl->start, len, w, alloc);
	int r = vmt_writer_close(w);
	if (r == 0 && sl->start >= len)
		__atomic_store_n(&sl->state, VMT_SLAB_DRAINED, __ATOMIC_RELEASE);
	return r;
}

static void end_record(struct finish *f, int32_t pid, const struct vmt_store_fate *fates,
                       size_t nfates)
{
	struct vmt_record rec = { .type = VMT_REC_END };
	rec.u.end = (struct vmt_end){
		.seq = __atomic_fetch_add(&f->s->head->seq, 1, __ATOMIC_RELAXED),
		.pid = pid, .how = VMT_END_VANISHED,
	};
	for (size_t i = nfates; i-- > 0; )
		if (fates[i].pid == pid) {
			int st = fates[i].status;
			rec.u.end.how = WIFSIGNALED(st) ? VMT_END_SIGNAL : VMT_END_EXIT;
			rec.u.end.status = WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st);
			break;
		}
	struct vmt_writer *w = writer(f, pid, pid);
	if (!w) {
		f->err = ENOMEM;
		return;
	}
	vmt_write(w, &rec);
	done(f, w);
}

static void walk(struct finish *f, int pass, const struct vmt_store_fate *fates, size_t nfates)
{
	uint64_t off = VMT_STORE_HEAD;
	const struct region *r;
	while (!f->err && (r = region_at(f, &off))) {
		const uint8_t *body = (const uint8_t *)(r + 1);
		if (pass == 0 && r->kind == VMT_ST_HEADER)
			out(f, body, r->len);
		else if (pass == 1 && r->kind == VMT_ST_CHUNK)
			out(f, body, r->len);
		else if ((pass == 2 || pass == 3) && r->kind == VMT_ST_SLAB && r->len >= sizeof(struct vmt_store_slab) &&
		         (((const struct vmt_store_slab *)body)->state == VMT_SLAB_SEALED) == (pass == 2))
			finish_slab(f, (const struct vmt_store_slab *)body, r->len - sizeof(struct vmt_store_slab));
		else if (pass == 4 && r->kind == VMT_ST_PROC && r->len >= sizeof(struct vmt_store_proc) &&
		         (((const struct vmt_store_proc *)body)->state == VMT_PROC_RUNNING ||
		          ((const struct vmt_store_proc *)body)->state == VMT_PROC_GONE))
			end_record(f, ((const struct vmt_store_proc *)body)->pid, fates, nfates);
		off += align8(sizeof *r + r->len);
	}
}

static void say(char *msg, size_t cap, const char *a, const char *b, int err)
{
	size_t n = 0;
	const char *parts[] = { a, b, err ? ": " : "", err ? strerrordesc_np(err) : "" };
	for (size_t i = 0; i < 4; i++)
		for (const char *p = parts[i] ? parts[i] : ""; *p && n + 1 < cap; p++)
			msg[n++] = *p;
	if (cap)
		msg[n] = 0;
}

int vmt_store_finish(struct vmt_store *s, const char *out, unsigned mode,
                     const struct vmt_store_fate *fates, size_t nfates,
                     const struct vmt_alloc *alloc, char *msg, size_t cap)
{
	struct vmt_store_head *h = s->head;
	struct stat st;
	uint32_t no = 0;
	if (!__atomic_compare_exchange_n(&h->finishing, &no, 1, 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_RELAXED)) {
		say(msg, cap, s->path, ": being finished by another process", 0);
		return -1;
	}
	/* the part of the file that exists and was reserved */
	long fd = open_path(s->path, O_RDONLY, 0);
	if (failed(fd) || failed(sc(SYS_fstat, fd, (long)&st, 0, 0, 0, 0))) {
		say(msg, cap, s->path, "", failed(fd) ? (int)-fd : EIO);
		return -1;
	}
	sc(SYS_close, fd, 0, 0, 0, 0, 0);
	struct finish f = { .s = s, .alloc = alloc };
	f.limit = h->end < (uint64_t)st.st_size ? h->end : (uint64_t)st.st_size;
	if (f.limit > s->window)
		f.limit = s->window;

	if (!out) {   /* the recorder's own, NUL-terminated where it made it */
		h->out[sizeof h->out - 1] = 0;
		out = h->out;
	}
	if (!mode)
		mode = h->mode ? h->mode & 07777 : VMT_OUTPUT_MODE_PRIVATE;
	struct vmt_output o;
	int r = vmt_output_open(&o, out, mode);
	if (r < 0) {
		say(msg, cap, out, ": ", 0);
		say(msg + strlen(msg), cap - strlen(msg), vmt_output_error(r), "", 0);
		return -1;
	}
	f.fd = r;
	/* in the order the records were written: the header, the chunks, the
	 * records still in slabs (a sealed slab's before any a writer logs
	 * into now), and the ENDs the finisher writes, after what they end */
	for (int pass = 0; pass <= 4; pass++)
		walk(&f, pass, fates, nfates);
	if (f.err) {
		vmt_output_abort(&o);
		say(msg, cap, out, "", f.err);
		return -1;
	}
	r = vmt_output_commit(&o);
	if (r < 0) {
		say(msg, cap, out, "", -r);
		return -1;
	}
	return 0;
}

void vmt_store_remove(struct vmt_store *s)
{
	sc(SYS_unlink, (long)s->path, 0, 0, 0, 0, 0);
}
