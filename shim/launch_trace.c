/* launch_trace.c - the vmrec launcher's recorder (docs/shim.md, "Two
 * recorders").  Every task of the tree is traced (PTRACE_SEIZE with
 * TRACESECCOMP, FORK, VFORK, CLONE, EXEC, EXITKILL); the seccomp filter
 * (launch_filter.c) stops a task only for a recorded call made outside
 * libvmrec's trampoline page.  Each image's start is the launcher's
 * (PROCESS, MAP, CHECKPOINT at the exec stop); its calls are recorded
 * here until libvmrec maps the trampoline (it is live: its hooks record
 * from then on), or for the image's whole life where libvmrec never
 * comes (static programs, Go).  seq is taken from the store's counter
 * at the seccomp stop and seq_end at the syscall-exit stop, so both
 * recorders' events are one order. */
#include "launch_trace.h"
#include "capture.h"
#include "launch_filter.h"
#include "vmt_raw.h"
#include "pagemap_scan.h"
#include "vmt.h"
#include "vmt_meta.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FILE_ID_BASE 0x80000000u   /* the launcher's FILE ids: never libvmrec's */
#define MAX_SPANS 16

struct span { uint64_t lo, hi; };
struct fid { uint64_t dev, ino; uint32_t id; };

/* A process (thread group), shared by its tasks. */
struct lproc {
	int refs;
	int pagemap;                /* /proc/PID/pagemap of this image, -1: none yet */
	uint64_t brk;               /* the break the last brk returned */
	pid_t tgid, ppid;
	int pre_exec;               /* the root before its first execve */
	int live;                   /* libvmrec has mapped the trampoline */
	int owns_end;               /* the launcher writes this image's END */
	uint64_t lost;              /* its tasks' calls that ended unrecorded (END's lost) */
	uint64_t lib_lo, lib_hi;    /* libvmrec's text, once live */
	int exit_hold;              /* an exit_group is recorded or held: no call starts */
	struct ltask *exiting;      /* the task held at its exit_group's seccomp stop */
	uint64_t exit_by;           /* when it goes on with calls still in flight */
	uint32_t image;
	struct span spans[MAX_SPANS]; /* the recorder's libraries being loaded */
	int nspans;
	struct fid *fids;
	uint32_t nfids, capfids, next_id;
};

enum { CALL_NONE, CALL_RECORD, CALL_SPAN, CALL_EXEC_DONE };

struct ltask {
	pid_t tid;
	struct lproc *p;
	int started;                /* its first stop was seen */
	int call;                   /* CALL_*: what its syscall-exit stop does */
	int live_opts;              /* asked for clone events for one call: LIVE_OPTS after it */
	int own_exit;               /* made by a clone the launcher recorded: libvmrec knows
	                             * nothing of it, its exit is the launcher's */
	int exit_written;           /* its exit event is in the trace */
	struct vmt_event ev;
	struct capture_ranges rc;   /* the call's RANGES record, when have_ranges */
	int have_ranges;
	struct vmt_range *rbuf;     /* process_madvise's ranges */
	size_t rcap;
	struct vmt_writer *w;
	struct vmt_store_put put;
	struct vmt_sink sink;
	uint64_t last_seq;
};

/* Every task is traced with these; a task of a process where libvmrec
 * is live asks for neither clone nor fork events: libvmrec's clones and
 * forks pass CLONE_PTRACE (shim/tramp.c), so their threads and children
 * are traced without a stop of the parent (a vfork still reports one). */
#define TRACE_OPTS (PTRACE_O_TRACESECCOMP | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
                    PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL | \
                    PTRACE_O_TRACESYSGOOD)
#define LIVE_OPTS (TRACE_OPTS & ~(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK))

static struct launch_cfg cfg;
static struct ltask **tasks;
static size_t ntasks, captasks;
static int nexiting;               /* processes whose exit_group is held */

/* on_seccomp's answer for a task left at its seccomp stop */
#define HOLD (-1)
/* how long an exit_group waits for its process's calls in flight */
#define EXIT_HOLD_NS 500000000u

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t next_seq(void)
{
	return __atomic_fetch_add(&cfg.store->head->seq, 1, __ATOMIC_RELAXED);
}

static uint64_t seq_now(void)
{
	return __atomic_load_n(&cfg.store->head->seq, __ATOMIC_ACQUIRE);
}

/* ---- writing ------------------------------------------------------- */

static void task_write(struct ltask *t, const struct vmt_record *rec)
{
	if (!t->w) {
		t->put = (struct vmt_store_put){ cfg.store, NULL };
		t->sink = (struct vmt_sink){ vmt_store_sink_put, &t->put };
		struct vmt_writer_prefs prefs = { .sink = &t->sink };
		t->w = vmt_writer_fdopen(-1, t->p->tgid, t->tid, &prefs);
		if (!t->w)
			return;
	}
	uint64_t seq;
	if (rec->type == VMT_REC_EVENT)
		seq = rec->u.event.seq;
	else if (!vmt_meta_seq(rec, &seq))
		seq = t->last_seq;
	if (seq < t->last_seq)
		vmt_writer_flush(t->w);   /* a chunk never goes back in seq */
	t->last_seq = seq;
	vmt_write(t->w, rec);
}

static void task_close_writer(struct ltask *t)
{
	if (t->w)
		vmt_writer_close(t->w);
	t->w = NULL;
	t->last_seq = 0;
}

/* ---- /proc --------------------------------------------------------- */

/* A /proc file the kernel gives whole to one read that has room for it
 * (cmdline, environ, status, fdinfo): a short read is its end, no read
 * of 0 after it.  Up to cap - 1 bytes, NUL-terminated. */
static long read_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	if (fd < 0)
		return -1;
	while (len + 1 < cap) {
		ssize_t r = read(fd, buf + len, cap - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
		if ((size_t)r < cap - 1 - (len - (size_t)r))
			break;
	}
	close(fd);
	buf[len] = 0;
	return (long)len;
}

/* The whole of a /proc file into *buf, grown as needed and kept for the
 * next call: its length, or -1.  whole: as read_file (one read says all);
 * else (maps: a page of lines a read) to a read of 0. */
static long read_grown(const char *path, char **buf, size_t *cap, int whole)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	if (fd < 0)
		return -1;
	for (;;) {
		if (len + 1 >= *cap) {
			size_t c = *cap ? 2 * *cap : 64 << 10;
			char *b = realloc(*buf, c);
			if (!b)
				break;
			*buf = b;
			*cap = c;
		}
		ssize_t r = read(fd, *buf + len, *cap - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
		if (whole && len + 1 < *cap)
			break;
	}
	close(fd);
	if (!*buf)
		return -1;
	(*buf)[len] = 0;
	return (long)len;
}

/* The id the image gave this file, 0: none yet. */
static uint32_t known_file(const struct lproc *p, uint64_t dev, uint64_t ino)
{
	for (uint32_t i = 0; i < p->nfids; i++)
		if (p->fids[i].dev == dev && p->fids[i].ino == ino)
			return p->fids[i].id;
	return 0;
}

/* A FILE record of a new id (an execve's: one a call). */
static uint32_t file_new(struct lproc *p, uint64_t dev, uint64_t ino, uint64_t size,
                         const char *path, struct ltask *t, uint64_t fs_type)
{
	uint32_t id = FILE_ID_BASE + ++p->next_id;
	struct vmt_record rec = { .type = VMT_REC_FILE };
	rec.u.file = (struct vmt_file){ .id = id, .pid = p->tgid, .dev = dev, .ino = ino,
	                                .size = size, .path = path, .fs_type = fs_type };
	task_write(t, &rec);
	return id;
}

static uint32_t file_id(struct lproc *p, uint64_t dev, uint64_t ino, uint64_t size,
                        const char *path, struct ltask *t, uint64_t fs_type)
{
	uint32_t known = known_file(p, dev, ino);
	if (known)
		return known;
	if (p->nfids == p->capfids) {
		uint32_t cap = p->capfids ? 2 * p->capfids : 64;
		struct fid *f = realloc(p->fids, cap * sizeof *f);
		if (!f)
			return 0;
		p->fids = f;
		p->capfids = cap;
	}
	uint32_t id = file_new(p, dev, ino, size, path, t, fs_type);
	p->fids[p->nfids++] = (struct fid){ dev, ino, id };
	return id;
}

/* What a tracee's descriptor is (stat through /proc/PID/fd/N): 0, or -1. */
static int fd_stat(struct ltask *t, long fd, struct stat *st)
{
	char link[64];
	if (fd < 0)
		return -1;
	snprintf(link, sizeof link, "/proc/%d/fd/%ld", (int)t->tid, fd);
	return stat(link, st);
}

/* The FILE id of the regular file st is (a tracee's descriptor fd), 0
 * when none; its path is read only the first time the image names it. */
static uint32_t fd_file_id(struct ltask *t, long fd, const struct stat *st)
{
	struct lproc *p = t->p;
	if (!S_ISREG(st->st_mode))
		return 0;
	uint32_t known = known_file(p, st->st_dev, st->st_ino);
	if (known)
		return known;
	char link[64], path[4096];
	snprintf(link, sizeof link, "/proc/%d/fd/%ld", (int)t->tid, fd);
	ssize_t n = readlink(link, path, sizeof path - 1);
	path[n > 0 ? n : 0] = 0;
	struct statfs sf;
	return file_id(p, st->st_dev, st->st_ino, (uint64_t)st->st_size, path, t,
	               statfs(link, &sf) == 0 ? (uint64_t)sf.f_type : 0);
}

/* A System V segment's FILE, as libvmrec names it (shim/hooks_mem.c):
 * the shm mount's device (a memfd's), the id as its inode, its size, and
 * SYSV<key> as its path.  The launcher shares the tracee's IPC
 * namespace (it made the tree). */
static uint32_t sysv_file_id(struct ltask *t, int id)
{
	static dev_t shm_dev;
	struct shmid_ds ds;
	if (shmctl(id, IPC_STAT, &ds) < 0)
		return 0;
	if (!shm_dev) {
		struct stat st;
		int fd = memfd_create("vmrec", MFD_CLOEXEC);
		if (fd >= 0) {
			if (fstat(fd, &st) == 0)
				shm_dev = st.st_dev;
			close(fd);
		}
	}
	char path[16];
	snprintf(path, sizeof path, "SYSV%08x", (uint32_t)ds.shm_perm.__key);
	return file_id(t->p, shm_dev, (uint64_t)(uint32_t)id, (uint64_t)ds.shm_segsz, path, t, 0);
}

static dev_t rec_dev;              /* libvmrec.so's file */
static ino_t rec_ino;

/* libvmrec.so's PT_LOADs as ld.so maps them (_dl_map_segments): one
 * mmap of the whole length at the first's offset (the reservation), then
 * one MAP_FIXED mmap at base + start for each further one.  Such an mmap
 * says where the reservation went, so the reservation needs no
 * syscall-exit stop; unless ld.so first protects holes between the
 * segments (rec_holes), calls it makes before any MAP_FIXED one. */
#define REC_SEGS 8
static struct { uint64_t start, off; } rec_seg[REC_SEGS];
static int rec_nseg, rec_holes;
static uint64_t rec_len;

/* rec_seg, rec_len and rec_holes from the library's program headers;
 * rec_nseg stays 0 (every reservation gets its exit stop) where they
 * cannot be read. */
static void rec_layout(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph[32];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	int n = 0;
	uint64_t end = 0;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && eh.e_phentsize == sizeof ph[0] &&
	    eh.e_phnum <= 32 &&
	    pread(fd, ph, eh.e_phnum * sizeof ph[0], (off_t)eh.e_phoff) == (ssize_t)(eh.e_phnum * sizeof ph[0]))
		for (int i = 0; i < eh.e_phnum && n >= 0; i++) {
			if (ph[i].p_type != PT_LOAD)
				continue;
			uint64_t start = ph[i].p_vaddr & ~4095ull;
			if (n == REC_SEGS || (n && start < end)) {
				n = -1;
				break;
			}
			rec_holes |= n && start > end;
			rec_seg[n].start = start;
			rec_seg[n].off = ph[i].p_offset & ~4095ull;
			n++;
			end = (ph[i].p_vaddr + ph[i].p_memsz + 4095) & ~4095ull;
		}
	close(fd);
	if (n > 1) {
		rec_nseg = n;
		rec_len = end - rec_seg[0].start;
	}
}

/* A MAP_FIXED mmap of libvmrec's file at `at` of file offset `off`: the
 * span of the whole library, where it is a further segment's. */
static int rec_span_of(uint64_t at, uint64_t off, struct span *sp)
{
	for (int i = 1; i < rec_nseg; i++)
		if (rec_seg[i].off == off && at >= rec_seg[i].start - rec_seg[0].start) {
			sp->lo = at - (rec_seg[i].start - rec_seg[0].start);
			sp->hi = sp->lo + rec_len;
			return 1;
		}
	return 0;
}

struct maps_line { uint64_t start, end, off, ino; unsigned maj, min; char perms[5]; char name[4096]; };

static int parse_maps_line(const char *s, struct maps_line *l)
{
	int pos = 0;
	l->name[0] = 0;
	if (sscanf(s, "%lx-%lx %4s %lx %x:%x %lu %n", &l->start, &l->end, l->perms, &l->off,
	           &l->maj, &l->min, &l->ino, &pos) < 7)
		return -1;
	const char *n = s + pos;
	size_t len = strcspn(n, "\n");
	if (len >= sizeof l->name)
		len = sizeof l->name - 1;
	memcpy(l->name, n, len);
	l->name[len] = 0;
	return 0;
}

/* Each line of /proc/TID/maps, until fn returns non-zero: the file read
 * whole first (a page of lines a read), not through stdio's 1 KiB. */
static int maps_each(pid_t tid, int (*fn)(const struct maps_line *, void *), void *arg)
{
	static char *buf;
	static size_t cap;
	static struct maps_line l;
	char path[64];
	int n = 0;
	snprintf(path, sizeof path, "/proc/%d/maps", (int)tid);
	long len = read_grown(path, &buf, &cap, 0);
	if (len < 0)
		return -1;
	for (char *line = buf, *end; line < buf + len; line = end + 1) {
		end = memchr(line, '\n', (size_t)(buf + len - line));
		if (!end)
			end = buf + len;
		*end = 0;
		if (!fn) {
			n++;                    /* a count: every line is a VMA */
			continue;
		}
		if (parse_maps_line(line, &l) == 0) {
			n++;
			if (fn(&l, arg))
				break;
		}
	}
	return n;
}

static uint32_t prot_of(const char *perms)
{
	return (perms[0] == 'r' ? VMT_PROT_READ : 0) | (perms[1] == 'w' ? VMT_PROT_WRITE : 0) |
	       (perms[2] == 'x' ? VMT_PROT_EXEC : 0);
}

struct map_build { struct ltask *t; struct vmt_vma *v; char (*names)[256]; uint32_t n, cap; };

static int add_vma(const struct maps_line *l, void *arg)
{
	struct map_build *b = arg;
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 128;
		struct vmt_vma *v = realloc(b->v, cap * sizeof *v);
		char (*nm)[256] = v ? realloc(b->names, cap * sizeof *nm) : NULL;
		if (v)
			b->v = v;
		if (!nm)
			return 1;
		b->names = nm;
		b->cap = cap;
	}
	struct vmt_vma *v = &b->v[b->n];
	size_t len = strnlen(l->name, sizeof b->names[0] - 1);
	memcpy(b->names[b->n], l->name, len);
	b->names[b->n][len] = 0;
	b->n++;
	uint32_t id = 0;
	if (l->ino && l->name[0] == '/') {
		/* a file's segments: its size asked once */
		struct stat st;
		uint64_t dev = makedev(l->maj, l->min);
		id = known_file(b->t->p, dev, l->ino);
		if (!id)
			id = file_id(b->t->p, dev, l->ino, stat(l->name, &st) == 0 ? (uint64_t)st.st_size : 0,
			             l->name, b->t, 0);
	}
	*v = (struct vmt_vma){ .start = l->start, .end = l->end, .offset = l->off,
	                       .prot = prot_of(l->perms),
	                       .flags = l->perms[3] == 's' ? VMT_VMA_SHARED : 0,
	                       .file_id = id };
	return 0;
}

static void join_args(char *buf, long n)
{
	for (long i = 0; i < n - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
}

/* Whether the tracee runs a setuid or setgid file without the ids it
 * would give it natively (this launcher is unprivileged: no_new_privs). */
static int runs_unprivileged(pid_t tid)
{
	char path[64], status[4096];
	struct stat st;
	unsigned ruid, euid, rgid, egid;
	snprintf(path, sizeof path, "/proc/%d/exe", (int)tid);
	if (stat(path, &st) < 0 || !(st.st_mode & (S_ISUID | S_ISGID)))
		return 0;
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	if (read_file(path, status, sizeof status) < 0)
		return 0;
	const char *u = strstr(status, "\nUid:"), *g = strstr(status, "\nGid:");
	if (!u || !g || sscanf(u, "\nUid: %u %u", &ruid, &euid) != 2 ||
	    sscanf(g, "\nGid: %u %u", &rgid, &egid) != 2)
		return 0;
	return ((st.st_mode & S_ISUID) && st.st_uid != euid) ||
	       ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) && st.st_gid != egid);
}

/* The new image's PROCESS, MAP and CHECKPOINT, as libvmrec writes them
 * preloaded alone. */
static void write_image_start(struct ltask *t, int reason)
{
	static char exe[4096], cmd[16384];
	char path[64];
	struct vmt_record rec = { .type = VMT_REC_PROCESS };
	uint64_t seq = next_seq();
	snprintf(path, sizeof path, "/proc/%d/exe", (int)t->tid);
	ssize_t n = readlink(path, exe, sizeof exe - 1);
	exe[n > 0 ? n : 0] = 0;
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)t->tid);
	long c = read_file(path, cmd, sizeof cmd);
	join_args(cmd, c);
	if (c < 0)
		cmd[0] = 0;
	rec.u.process = (struct vmt_process){ .seq = seq, .time_ns = now_ns(), .pid = t->p->tgid,
	                                      .ppid = t->p->ppid, .image = t->p->image,
	                                      .exe = exe, .cmdline = cmd,
	                                      .origin = VMT_ORIGIN_LAUNCHER |
	                                                (runs_unprivileged(t->tid) ? VMT_ORIGIN_UNPRIVILEGED : 0) };
	task_write(t, &rec);
	int count = -1;
	if (reason != VMT_CK_FORK) {
		struct map_build b = { .t = t };
		count = maps_each(t->tid, add_vma, &b);
		for (uint32_t i = 0; i < b.n; i++)
			b.v[i].name = b.names[i];
		rec.type = VMT_REC_MAP;
		rec.u.map = (struct vmt_map){ .seq = seq, .pid = t->p->tgid, .nvma = b.n, .vmas = b.v };
		task_write(t, &rec);
		free(b.v);
		free(b.names);
	}
	rec.type = VMT_REC_CHECKPOINT;
	if (count < 0)
		count = maps_each(t->tid, NULL, NULL);
	rec.u.checkpoint = (struct vmt_checkpoint){ .seq = next_seq(), .pid = t->p->tgid,
	                                            .reason = (uint32_t)reason,
	                                            .vma_count = count > 0 ? (uint64_t)count : 0 };
	task_write(t, &rec);
}

/* An execve libvmrec issued hands its event to the new image in
 * VMREC_EXEC (shim/exec.c): under the launcher the image's start is the
 * launcher's, so it writes that event at the exec stop, where the call
 * returned (seq_end: before the loader's calls, whether or not libvmrec
 * comes), from the new image's initial environment as
 * /proc/PID/environ shows it. */
static void exec_event_handed(struct ltask *t)
{
	static const char var[] = "VMREC_EXEC=";
	static char *env;
	static size_t cap;
	struct lproc *p = t->p;
	char path[64], *line = NULL;
	snprintf(path, sizeof path, "/proc/%d/environ", (int)p->tgid);
	long len = read_grown(path, &env, &cap, 1);
	for (char *e = env; len > 0 && e < env + len; e += strlen(e) + 1)
		if (strncmp(e, var, sizeof var - 1) == 0) {
			line = e;
			break;
		}
	/* seq, time, sys, five arguments, image, FILE id (the old image
	 * wrote that record), ... */
	uint64_t v[10] = { 0 };
	int got = 0;
	for (char *s = line ? line + sizeof var - 1 : NULL; s && got < 10; got++) {
		char *end;
		v[got] = strtoull(s, &end, 10);
		s = *end == ',' ? end + 1 : NULL;
	}
	if (got < 10)
		return;
	struct vmt_event ev = { .seq = v[0], .time_ns = v[1], .sys = (uint16_t)v[2],
	                        .pid = p->tgid, .tid = p->tgid, .file_id = (uint32_t)v[9],
	                        .flags = VMT_EV_NORETURN };
	memcpy(ev.args, v + 3, 5 * sizeof v[0]);
	ev.seq_end = seq_now();
	ev.latency_ns = now_ns() - ev.time_ns;
	task_write(t, &(struct vmt_record){ .type = VMT_REC_EVENT, .u.event = ev });
}

/* A task that ends between a call's seccomp stop and its syscall-exit
 * stop (a thread its process's exit_group ended) leaves the call's seq
 * with no record: its process's END counts it. */
static void call_lost(struct ltask *t)
{
	if (t->call == CALL_RECORD)
		t->p->lost++;
	t->call = CALL_NONE;
}

static void write_end(struct ltask *t, int st)
{
	struct vmt_record rec = { .type = VMT_REC_END };
	rec.u.end = (struct vmt_end){ .seq = next_seq(), .pid = t->p->tgid,
	                              .how = WIFSIGNALED(st) ? VMT_END_SIGNAL : VMT_END_EXIT,
	                              .status = WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
	                              .lost = t->p->lost };
	task_write(t, &rec);
}

/* ---- tasks ----------------------------------------------------------- */

/* A process's leader also stops at its exit (PTRACE_O_TRACEEXIT), so the
 * launcher can let go of it before it is a zombie: a traced zombie is not
 * the parent's to reap until its tracer has waited for it, and a parent
 * that polls the child's pidfd and then calls waitpid(WNOHANG), as the
 * kernel's selftest harness does, would find nothing to reap
 * (tests/shim/pidfd-wait.t).  So does a thread whose exit is the
 * launcher's (own_exit): once libvmrec is live, glibc's thread exit goes
 * through the trampoline, which the filter lets pass (on_thread_exit).
 * Other threads need no such stop. */
static void set_opts(const struct ltask *t, int opts)
{
	int at_exit = t->tid == t->p->tgid || t->own_exit;
	ptrace(PTRACE_SETOPTIONS, t->tid, 0, opts | (at_exit ? PTRACE_O_TRACEEXIT : 0));
}

static size_t proc_tasks(const struct lproc *p);

static struct ltask *task_find(pid_t tid)
{
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i]->tid == tid)
			return tasks[i];
	return NULL;
}

static struct lproc *proc_find(pid_t tgid)
{
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i]->p->tgid == tgid)
			return tasks[i]->p;
	return NULL;
}

static struct ltask *task_add(pid_t tid, struct lproc *p)
{
	if (ntasks == captasks) {
		size_t cap = captasks ? 2 * captasks : 64;
		struct ltask **more = realloc(tasks, cap * sizeof *more);
		if (!more)
			return NULL;
		tasks = more;
		captasks = cap;
	}
	struct ltask *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->tid = tid;
	t->p = p;
	p->refs++;
	tasks[ntasks++] = t;
	return t;
}

static void proc_put(struct lproc *p)
{
	if (--p->refs == 0) {
		if (p->pagemap >= 0)
			close(p->pagemap);
		free(p->fids);
		free(p);
	}
}

static size_t proc_tasks(const struct lproc *p)
{
	size_t n = 0;
	for (size_t i = 0; i < ntasks; i++)
		n += tasks[i]->p == p;
	return n;
}

static void task_del(struct ltask *t)
{
	if (t->p->exiting == t) {
		t->p->exiting = NULL;
		nexiting--;
	}
	task_close_writer(t);
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i] == t) {
			tasks[i] = tasks[--ntasks];
			break;
		}
	proc_put(t->p);
	free(t->rbuf);
	free(t);
}

/* A process copied from its parent (fork, vfork): what libvmrec knows in
 * the parent it knows in the child. */
static struct lproc *proc_copy(const struct lproc *from, pid_t tgid)
{
	struct lproc *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->tgid = tgid;
	p->pagemap = -1;
	p->ppid = from ? from->tgid : 0;
	if (from) {
		p->live = from->live;
		p->owns_end = !from->live;
		p->lib_lo = from->lib_lo;
		p->lib_hi = from->lib_hi;
		p->brk = from->brk;
		memcpy(p->spans, from->spans, sizeof p->spans);
		p->nspans = from->nspans;
	}
	return p;
}

/* A task seen for the first time (its first stop, or its parent's event):
 * a thread of a known process, or a new process whose image the parent's
 * recorder announces (libvmrec where live, else the launcher). */
/* A new process copied from `parent` (NULL: not traced), its first task. */
static struct ltask *proc_new_task(pid_t tid, struct lproc *parent)
{
	struct lproc *p = proc_copy(parent, tid);
	if (!p)
		return NULL;
	struct ltask *t = task_add(tid, p);
	if (!t) {
		free(p);
		return NULL;
	}
	if (parent && !parent->live)
		write_image_start(t, VMT_CK_FORK);
	return t;
}

static struct ltask *task_get(pid_t tid)
{
	struct ltask *t = task_find(tid);
	if (t)
		return t;
	/* its first stop came before its parent's event: /proc says whose */
	char path[64], buf[4096];
	int tgid = tid, ppid = 0;
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	if (read_file(path, buf, sizeof buf) > 0) {
		char *f = strstr(buf, "\nTgid:");
		tgid = f ? atoi(f + 6) : tid;
		f = strstr(buf, "\nPPid:");
		ppid = f ? atoi(f + 6) : 0;
	}
	struct lproc *p = proc_find(tgid > 0 ? tgid : tid);
	if (p)
		return task_add(tid, p);
	return proc_new_task(tid, ppid > 0 ? proc_find(ppid) : NULL);
}

/* ---- calls ----------------------------------------------------------- */

static int in_spans(const struct lproc *p, uint64_t a, uint64_t len)
{
	for (int i = 0; i < p->nspans; i++)
		if (a >= p->spans[i].lo && a + len <= p->spans[i].hi)
			return 1;
	return 0;
}

struct find_ip { uint64_t ip, lo, hi; };

static int find_ip(const struct maps_line *l, void *arg)
{
	struct find_ip *f = arg;
	if (f->ip < l->start || f->ip >= l->end)
		return 0;
	f->lo = l->start;
	f->hi = l->end;
	return 1;
}

static void args_of(const struct user_regs_struct *r, uint64_t a[6])
{
	a[0] = r->rdi; a[1] = r->rsi; a[2] = r->rdx;
	a[3] = r->r10; a[4] = r->r8; a[5] = r->r9;
}

/* The tracee's memory for capture.c: process_vm_readv stops at the
 * first page it cannot read, so a short count says where. */
static size_t tracee_read(void *opaque, void *dst, uint64_t addr, size_t n, size_t unit)
{
	(void)unit;
	struct iovec local = { dst, n }, remote = { (void *)(uintptr_t)addr, n };
	ssize_t r = process_vm_readv(*(pid_t *)opaque, &local, 1, &remote, 1, 0);
	return r > 0 ? (size_t)r : 0;
}

/* The call's RANGES record (the table's `ranges`), read at its entry. */
static void ranges_before(struct ltask *t, int sys, const uint64_t a[6])
{
	struct capture_mem m = { tracee_read, NULL, &t->tid };
	t->have_ranges = capture_ranges(&t->rc, sys, a, t->rbuf, t->rcap, &m);
	if (!t->have_ranges && t->rc.need) {
		struct vmt_range *b = realloc(t->rbuf, t->rc.need * sizeof *b);
		if (!b)
			return;
		t->rbuf = b;
		t->rcap = t->rc.need;
		t->have_ranges = capture_ranges(&t->rc, sys, a, t->rbuf, t->rcap, &m);
	}
}

/* An execve the launcher records: its FILE (the name as the program gave
 * it, looked up from the tracee's root, working directory or dirfd; one
 * record a call) and its ARGV, read before the call, as libvmrec's exec
 * hook writes them (shim/exec.c, exec_args.c). */
static void exec_records(struct ltask *t, struct vmt_event *ev, const struct capture_file *cf)
{
	static char name[4096], where[4200];
	static struct capture_argv_buf b;
	struct capture_mem m = { tracee_read, NULL, &t->tid };
	int at = ev->sys == VMT_SYS_EXECVEAT;
	if (capture_str(name, sizeof name, cf->path, &m) >= 0) {
		struct stat st;
		int tid = (int)t->tid, found;
		if (name[0] == '/')
			snprintf(where, sizeof where, "/proc/%d/root%s", tid, name);
		else if (!name[0])
			snprintf(where, sizeof where, "/proc/%d/fd/%d", tid, cf->fd);
		else if (cf->fd == AT_FDCWD)
			snprintf(where, sizeof where, "/proc/%d/cwd/%s", tid, name);
		else
			snprintf(where, sizeof where, "/proc/%d/fd/%d/%s", tid, cf->fd, name);
		if (!name[0] && !(cf->flags & AT_EMPTY_PATH))
			found = 0;              /* the kernel's ENOENT */
		else
			found = ((cf->flags & AT_SYMLINK_NOFOLLOW) ? lstat : stat)(where, &st) == 0;
		ev->file_id = file_new(t->p, found ? st.st_dev : 0, found ? st.st_ino : 0,
		                       found ? (uint64_t)st.st_size : 0, name, t, 0);
	}
	struct vmt_record rec = { .type = VMT_REC_ARGV };
	rec.u.argv = (struct vmt_argv){ .seq = ev->seq, .pid = t->p->tgid };
	rec.u.argv.envc = capture_envc(ev->args[at ? 3 : 2], &rec.u.argv.envp_end, &m);
	capture_argv(&rec.u.argv, &b, ev->args[at ? 2 : 1], &m);
	task_write(t, &rec);
}

/* The process process_madvise's pidfd names, as libvmrec says it
 * (shim/hooks_mem.c, pidfd_pid): its fdinfo's Pid line, -1 one that
 * has ended, 0 no pidfd; PIDFD_SELF_THREAD(_GROUP) the tracee. */
static int32_t pidfd_pid(struct ltask *t, long fd)
{
	char path[64], buf[1024];
	if (fd == -10000 || fd == -20000)
		return t->p->tgid;
	snprintf(path, sizeof path, "/proc/%d/fdinfo/%ld", (int)t->tid, fd);
	if (fd < 0 || read_file(path, buf, sizeof buf) < 0)
		return 0;
	const char *pid = strstr(buf, "\nPid:");
	return pid ? (int32_t)atoi(pid + 5) : 0;
}

static uint64_t clone_flags(struct ltask *t, const struct user_regs_struct *r)
{
	if ((long)r->orig_rax == SYS_clone3) {
		uint64_t fl = 0;
		struct iovec local = { &fl, sizeof fl }, remote = { (void *)r->rdi, sizeof fl };
		if (process_vm_readv(t->tid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof fl)
			return 0;
		return fl;
	}
	return (long)r->orig_rax == SYS_clone ? r->rdi : 0;
}

#define RES_MAX_PAGES (1u << 18)  /* as libvmrec: at most 1 GiB a call */
#define RES_RUNS 4096

/* Which pages of [start, start + len) the tracee has mapped, as libvmrec
 * asks before a call that changes or removes memory (docs/shim.md,
 * RESIDENCY): PAGEMAP_SCAN on its /proc/PID/pagemap.  No record when
 * none is, or the kernel cannot say. */
static void residency_in(struct ltask *t, int32_t pid, int fd, uint64_t seq, uint64_t start, uint64_t len);

static void residency(struct ltask *t, uint64_t seq, uint64_t start, uint64_t len)
{
	struct lproc *p = t->p;
	if (p->pagemap == -1) {
		char path[64];
		snprintf(path, sizeof path, "/proc/%d/pagemap", (int)p->tgid);
		p->pagemap = open(path, O_RDONLY | O_CLOEXEC);
		if (p->pagemap < 0)
			p->pagemap = -2;
	}
	if (p->pagemap >= 0)
		residency_in(t, p->tgid, p->pagemap, seq, start, len);
}

/* Another process's pages (process_madvise of its pidfd): a record with
 * its pid, as libvmrec's residency_of writes it. */
static void residency_other(struct ltask *t, int32_t pid, uint64_t seq, uint64_t start, uint64_t len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/pagemap", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	residency_in(t, pid, fd, seq, start, len);
	close(fd);
}

/* The pages of pid's pagemap fd; an fd that cannot answer is closed and
 * marked (-2) when it is the tracee's own. */
static void residency_in(struct ltask *t, int32_t pid, int fd, uint64_t seq, uint64_t start, uint64_t len)
{
	static struct vmt_run runs[RES_RUNS];
	struct lproc *p = t->p;
	start &= ~(uint64_t)(VMT_PAGE - 1);
	uint64_t npages = (len + VMT_PAGE - 1) / VMT_PAGE;
	if (!npages)
		return;
	if (npages > RES_MAX_PAGES)
		npages = RES_MAX_PAGES;
	struct pm_region r[32];
	struct pm_scan_arg q = {
		.size = sizeof q, .start = start, .end = start + npages * VMT_PAGE,
		.vec = (uint64_t)(uintptr_t)r, .vec_len = 32,
		.category_anyof_mask = PM_PRESENT | PM_SWAPPED, .return_mask = PM_PRESENT | PM_SWAPPED,
	};
	uint32_t n = 0;
	for (;;) {
		long got = ioctl(fd, PM_SCAN, &q);
		if (got < 0) {
			if (fd == p->pagemap) {
				close(p->pagemap);
				p->pagemap = -2;   /* an old kernel: no records, as mincore-less */
			}
			return;
		}
		for (long i = 0; i < got; i++) {
			uint64_t first = (r[i].start - start) / VMT_PAGE, count = (r[i].end - r[i].start) / VMT_PAGE;
			if (n && runs[n - 1].first + runs[n - 1].count == first)
				runs[n - 1].count += count;
			else if (n < RES_RUNS)
				runs[n++] = (struct vmt_run){ first, count };
			else
				return;            /* too scattered to say in runs: none */
		}
		if (got < 32 || q.walk_end >= q.end)
			break;
		q.start = q.walk_end;
	}
	if (!n)
		return;
	struct vmt_record rec = { .type = VMT_REC_RESIDENCY };
	rec.u.residency = (struct vmt_residency){ .seq = seq, .pid = pid, .start = start,
	                                          .npages = npages, .nruns = n, .runs = runs };
	task_write(t, &rec);
}

/* The pages the table's `residency` column asks about, before the call:
 * its range, a lower break's heap, or each range of its RANGES record
 * (process_madvise's own pages only: another process's are not ours to
 * ask of this pagemap). */
static void residency_before(struct ltask *t, const struct vmt_event *ev,
                             const struct vmt_ranges *ranges)
{
	const uint64_t *a = ev->args;
	int ai, li;
	switch (vmt_sys_residency(ev->sys)) {
	case VMT_RESID_RANGE:
		vmt_sys_range_args(ev->sys, &ai, &li);
		residency(t, ev->seq, a[ai], a[li] + (a[ai] & 4095));
		break;
	case VMT_RESID_BRK:
		if (a[0] && t->p->brk && a[0] < t->p->brk) {
			uint64_t from = (a[0] + 4095) & ~4095ull;
			if (from < t->p->brk)
				residency(t, ev->seq, from, t->p->brk - from);
		}
		break;
	case VMT_RESID_RANGES:
		for (uint32_t i = 0; ranges && i < ranges->n; i++)
			residency(t, ev->seq, ranges->ranges[i].start,
			          ranges->ranges[i].len + (ranges->ranges[i].start & 4095));
		break;
	}
}

/* The span of the recorder's library that holds ip, from the loader's
 * mmaps of it (CALL_SPAN); /proc/PID/maps where none does. */
static void lib_range(struct ltask *t, uint64_t ip)
{
	struct lproc *p = t->p;
	for (int i = 0; i < p->nspans; i++)
		if (ip >= p->spans[i].lo && ip < p->spans[i].hi) {
			p->lib_lo = p->spans[i].lo;
			p->lib_hi = p->spans[i].hi;
			return;
		}
	struct find_ip f = { .ip = ip };
	maps_each(t->tid, find_ip, &f);
	p->lib_lo = f.lo;
	p->lib_hi = f.hi;
}

/* Whether a task of p is between a recorded call's two stops. */
static int calls_in_flight(const struct lproc *p)
{
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i]->p == p && tasks[i]->call == CALL_RECORD)
			return 1;
	return 0;
}

/* The seccomp stop: how the task goes on (PTRACE_SYSCALL to see the
 * result, PTRACE_CONT when nothing is recorded). */
static int on_seccomp(struct ltask *t)
{
	struct user_regs_struct r;
	struct lproc *p = t->p;
	if (p->exit_hold && p->exiting != t)
		return HOLD;                /* exit_group kills it here: its call is never made */
	if (ptrace(PTRACE_GETREGS, t->tid, 0, &r) < 0)
		return PTRACE_CONT;
	uint64_t a[6];
	args_of(&r, a);
	/* the row, `match` included: an ioctl that is no uffd registration,
	 * a prctl of another option, is not recorded */
	int sys = vmt_sys_of_call((long)r.orig_rax, a);
	t->call = CALL_NONE;
	if (p->pre_exec || sys == VMT_SYS_NONE)
		return PTRACE_CONT;
	int fx = vmt_sys_effect(sys);
	if (p->live && fx == VMT_FX_TASK) {
		/* a fork or clone not through libvmrec's hooks lacks
		 * CLONE_PTRACE: its task is traced through a fork or clone event */
		set_opts(t, TRACE_OPTS);
		t->live_opts = 1;
	}
	if (sys == VMT_SYS_MADVISE && a[0] == LAUNCH_TRAMPOLINE && a[1] == 0 && p->live) {
		/* libvmrec could not map its page after all: not live */
		p->live = 0;
		p->owns_end = 1;
		p->lib_lo = p->lib_hi = 0;
		set_opts(t, TRACE_OPTS);
		return PTRACE_CONT;
	}
	if (p->live && r.rip >= p->lib_lo && r.rip < p->lib_hi)
		return PTRACE_CONT;         /* libvmrec's own, or a call it records */
	if (sys == VMT_SYS_MMAP && a[0] == LAUNCH_TRAMPOLINE && (a[3] & MAP_FIXED_NOREPLACE)) {
		/* libvmrec's first act: live from here on (it says so if the
		 * page cannot be had), so no syscall-exit stop is needed */
		lib_range(t, r.rip);
		p->live = 1;
		p->owns_end = 0;
		task_close_writer(t);       /* libvmrec writes from here on */
		set_opts(t, LIVE_OPTS);
		return PTRACE_CONT;
	}
	if (p->live && fx == VMT_FX_EXIT && !t->own_exit)
		return PTRACE_CONT;         /* libvmrec records its threads' ends itself */
	int ai, li;
	vmt_sys_range_args(sys, &ai, &li);
	if (ai >= 0 && li >= 0 && in_spans(p, a[ai], a[li]))
		return PTRACE_CONT;         /* in the recorder's library: its segments, its relro */
	/* one stat of a mapped file says whether it is the recorder's and
	 * which FILE it is */
	/* the file it names (the table's `file`): one stat of a mapped
	 * file says whether it is the recorder's and which FILE it is */
	struct stat fst;
	struct capture_file cf;
	int names = capture_file(sys, a, &cf);
	int file = names && cf.kind == CAPTURE_FILE_FD && fd_stat(t, cf.fd, &fst) == 0;
	if (!p->live && file && rec_ino && fst.st_dev == rec_dev && fst.st_ino == rec_ino) {
		/* the loader maps the recorder's library: a further segment
		 * says where all of it is; the reservation before it needs no
		 * result, unless holes are protected before that segment */
		struct span sp;
		if (sys == VMT_SYS_MMAP && (a[3] & MAP_FIXED) && rec_span_of(a[0], a[5], &sp)) {
			if (p->nspans < MAX_SPANS)
				p->spans[p->nspans++] = sp;
			return PTRACE_CONT;
		}
		if (sys == VMT_SYS_MMAP && !(a[3] & MAP_FIXED) && rec_nseg && !rec_holes)
			return PTRACE_CONT;
		t->call = CALL_SPAN;
		return PTRACE_SYSCALL;
	}
	if (sys == VMT_SYS_EXIT_GROUP && !p->exit_hold) {
		/* the kill ends the other tasks wherever they are: a call
		 * between its two stops would be made and not recorded, so
		 * no call starts from here on, and the exit waits (bounded)
		 * for the calls in flight to reach their syscall-exit stop */
		p->exit_hold = 1;
		if (calls_in_flight(p)) {
			p->exiting = t;
			p->exit_by = now_ns() + EXIT_HOLD_NS;
			nexiting++;
			return HOLD;
		}
	}
	struct vmt_event *ev = &t->ev;
	memset(ev, 0, sizeof *ev);
	ev->seq = next_seq();
	ev->time_ns = now_ns();
	ev->pid = p->tgid;
	ev->tid = t->tid;
	ev->sys = (uint16_t)sys;
	ev->flags = VMT_EV_LAUNCHER;
	memcpy(ev->args, a, sizeof ev->args);
	if (file)
		ev->file_id = fd_file_id(t, cf.fd, &fst);
	else if (names && cf.kind == CAPTURE_FILE_SYSV)
		ev->file_id = sysv_file_id(t, cf.fd);
	else if (names && cf.kind == CAPTURE_FILE_PATH)
		exec_records(t, ev, &cf);
	if (sys == VMT_SYS_CLONE3) {   /* as libvmrec keeps it (docs/trace-format.md) */
		uint64_t c[8] = { 0 };
		struct iovec local = { c, sizeof c }, remote = { (void *)a[0], sizeof c };
		if (a[1] >= 64 && process_vm_readv(t->tid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof c) {
			ev->args[0] = c[0]; ev->args[1] = c[5]; ev->args[2] = c[6];
			ev->args[3] = c[2]; ev->args[4] = c[3]; ev->args[5] = c[7];
		}
	}
	t->have_ranges = 0;
	if (vmt_sys_ranges(sys) != VMT_RANGES_NONE)
		ranges_before(t, sys, a);
	if (t->have_ranges && sys == VMT_SYS_PROCESS_MADVISE)
		t->rc.r.target = pidfd_pid(t, (long)a[0]);   /* format 6 */
	/* another process's pages would be answered from this one's pagemap */
	residency_before(t, ev, t->have_ranges && (sys != VMT_SYS_PROCESS_MADVISE ||
	                                           t->rc.r.target == t->p->tgid) ? &t->rc.r : NULL);
	if (t->have_ranges && sys == VMT_SYS_PROCESS_MADVISE && t->rc.r.target > 0 && t->rc.r.target != t->p->tgid)
		for (uint32_t i = 0; i < t->rc.r.n; i++)   /* the pidfd's process's */
			residency_other(t, t->rc.r.target, ev->seq, t->rc.r.ranges[i].start,
			                t->rc.r.ranges[i].len + (t->rc.r.ranges[i].start & 4095));
	if (fx == VMT_FX_EXIT) {
		ev->flags |= VMT_EV_NORETURN;
		ev->seq_end = seq_now();
		t->exit_written = 1;
		task_write(t, &(struct vmt_record){ .type = VMT_REC_EVENT, .u.event = *ev });
		if (sys == VMT_SYS_EXIT_GROUP || t->tid == p->tgid) {
			struct vmt_record rec = { .type = VMT_REC_CHECKPOINT };
			int count = maps_each(t->tid, NULL, NULL);
			rec.u.checkpoint = (struct vmt_checkpoint){ .seq = next_seq(), .pid = p->tgid,
			                                            .reason = VMT_CK_EXIT,
			                                            .vma_count = count > 0 ? (uint64_t)count : 0 };
			task_write(t, &rec);
		}
		task_close_writer(t);
		return PTRACE_CONT;
	}
	t->call = CALL_RECORD;
	return PTRACE_SYSCALL;
}

/* The call's RANGES record (after what the kernel wrote back), then its
 * event, as libvmrec writes them. */
static void finish_call(struct ltask *t, long ret)
{
	struct vmt_event *ev = &t->ev;
	uint64_t a[6];
	memcpy(a, ev->args, sizeof a);
	if (t->have_ranges) {
		struct capture_mem m = { tracee_read, NULL, &t->tid };
		capture_ranges_after(&t->rc, a, ret, &m);
		struct vmt_record rec = { .type = VMT_REC_RANGES, .u.ranges = t->rc.r };
		rec.u.ranges.seq = ev->seq;
		rec.u.ranges.pid = t->p->tgid;
		task_write(t, &rec);
		t->have_ranges = 0;
	}
	ev->seq_end = seq_now();
	ev->latency_ns = now_ns() - ev->time_ns;
	capture_event(ev, ev->sys, a, ret, ev->flags);
	task_write(t, &(struct vmt_record){ .type = VMT_REC_EVENT, .u.event = *ev });
}

static void on_syscall_exit(struct ltask *t)
{
	struct user_regs_struct r;
	int call = t->call;
	t->call = CALL_NONE;
	if (t->live_opts) {
		set_opts(t, LIVE_OPTS);
		t->live_opts = 0;
	}
	if (call == CALL_NONE || call == CALL_EXEC_DONE || ptrace(PTRACE_GETREGS, t->tid, 0, &r) < 0)
		return;
	long ret = (long)r.rax;
	struct lproc *p = t->p;
	if (call == CALL_SPAN) {
		if (ret >= 0 && p->nspans < MAX_SPANS)
			p->spans[p->nspans++] = (struct span){ (uint64_t)ret, (uint64_t)ret + r.rsi };
		return;
	}
	int fx = vmt_sys_effect(t->ev.sys);
	if (t->ev.sys == VMT_SYS_BRK && ret > 0)
		p->brk = (uint64_t)ret;
	if (fx == VMT_FX_TASK && ret > 0) {
		uint64_t fl = clone_flags(t, &r);
		if (t->ev.sys == VMT_SYS_CLONE || t->ev.sys == VMT_SYS_CLONE3)
			if (fl & CLONE_THREAD)
				t->ev.flags |= VMT_EV_THREAD;
	}
	finish_call(t, ret);
}

/* The exit stop of a thread whose exit is the launcher's, when the
 * filter did not stop its exit (it came through the trampoline): an
 * exit(2) is recorded as at a seccomp stop; a thread ended by its
 * process's exit_group or a signal made no call. */
static void on_thread_exit(struct ltask *t)
{
	struct user_regs_struct r;
	if (!t->own_exit || t->exit_written || ptrace(PTRACE_GETREGS, t->tid, 0, &r) < 0 ||
	    (long)r.orig_rax != SYS_exit)
		return;
	struct vmt_event *ev = &t->ev;
	memset(ev, 0, sizeof *ev);
	ev->seq = next_seq();
	ev->time_ns = now_ns();
	ev->pid = t->p->tgid;
	ev->tid = t->tid;
	ev->sys = VMT_SYS_EXIT;
	ev->flags = VMT_EV_LAUNCHER | VMT_EV_NORETURN;
	args_of(&r, ev->args);
	ev->seq_end = seq_now();
	task_write(t, &(struct vmt_record){ .type = VMT_REC_EVENT, .u.event = *ev });
	t->exit_written = 1;
	task_close_writer(t);
}

/* PTRACE_EVENT_FORK/VFORK/CLONE at the parent: the new task is known
 * before it runs (its PROCESS before any of its records). */
static void on_new_task(struct ltask *t, int event)
{
	unsigned long msg = 0;
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg) < 0 || !msg || task_find((pid_t)msg))
		return;
	/* the parent's registers still say what it asked for */
	if (event == PTRACE_EVENT_CLONE && ptrace(PTRACE_GETREGS, t->tid, 0, &r) == 0 &&
	    (clone_flags(t, &r) & CLONE_THREAD)) {
		struct ltask *n = task_add((pid_t)msg, t->p);
		if (n)
			n->own_exit = t->call == CALL_RECORD;
	} else
		proc_new_task((pid_t)msg, t->p);
}

/* PTRACE_EVENT_EXEC: a new image in this process (tid is the leader's
 * now; the former tid is in the event message). */
static void on_exec(struct ltask *t)
{
	unsigned long former = 0;
	struct lproc *p = t->p;
	/* only another thread's exec has a former tid to ask for */
	if (proc_tasks(p) > 1)
		ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &former);
	if (former && (pid_t)former != t->tid) {
		struct ltask *o = task_find((pid_t)former);
		if (o) {
			t->call = o->call;
			t->ev = o->ev;
			t->ev.tid = t->tid;
			o->call = CALL_NONE;
		}
	}
	int handed = t->call != CALL_RECORD && !p->pre_exec;   /* libvmrec's execve */
	if (t->call == CALL_RECORD) {   /* the execve the launcher saw returned */
		t->ev.flags |= VMT_EV_NORETURN;
		finish_call(t, 0);
		t->call = CALL_EXEC_DONE;
	}
	task_close_writer(t);
	if (p->pre_exec)
		p->pre_exec = 0;
	else
		p->image++;
	p->live = 0;
	p->owns_end = 1;
	p->nspans = 0;
	p->exit_hold = 0;           /* another thread's execve ended the exit_group's */
	if (p->exiting) {
		p->exiting = NULL;
		nexiting--;
	}
	p->brk = 0;
	if (p->pagemap >= 0)
		close(p->pagemap);   /* it answers for the old image's memory */
	p->pagemap = -1;
	p->lib_lo = p->lib_hi = 0;
	set_opts(t, TRACE_OPTS);   /* until libvmrec is live again */
	t->live_opts = 0;
	if (handed)
		exec_event_handed(t);
	write_image_start(t, p->image == 0 && p->ppid == 0 ? VMT_CK_START : VMT_CK_EXEC);
}

/* ---- the loop -------------------------------------------------------- */

void launch_trace_init(const struct launch_cfg *c)
{
	cfg = *c;
	struct stat st;
	if (stat(c->lib_path, &st) == 0) {
		rec_dev = st.st_dev;
		rec_ino = st.st_ino;
		rec_layout(c->lib_path);
	}
}

int launch_trace_child(int wait_fd)
{
	char go = 0;
	while (vmt_raw6(SYS_read, wait_fd, (long)&go, 1, 0, 0, 0) == -EINTR)
		;
	vmt_raw6(SYS_close, wait_fd, 0, 0, 0, 0, 0);
	/* untraced (the launcher is itself traced), a filter that stops for a
	 * tracer would fail every recorded call with ENOSYS */
	if (go == 'g')
		return launch_filter_install(LAUNCH_TRAMPOLINE, SECCOMP_RET_TRACE);
	return -EPERM;
}

/* Each held exit_group whose process has no call in flight, or whose
 * wait is over (a call that blocks: it is counted lost), is recorded
 * and goes on. */
static void exits_release(void)
{
	uint64_t now = now_ns();
	for (size_t i = 0; i < ntasks; i++) {
		struct ltask *t = tasks[i];
		struct lproc *p = t->p;
		if (p->exiting != t || (calls_in_flight(p) && now < p->exit_by))
			continue;
		int how = on_seccomp(t);
		p->exiting = NULL;
		nexiting--;
		ptrace(how == HOLD ? PTRACE_CONT : how, t->tid, 0, 0);
	}
}

static int is_stop_sig(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

int launch_trace_run(pid_t child, int go_fd, int *root_st)
{
	int seized = ptrace(PTRACE_SEIZE, child, 0, TRACE_OPTS | PTRACE_O_TRACEEXIT) == 0;
	if (!seized)
		fprintf(stderr, "vmrec: cannot trace %d: %s; the loader's calls are not recorded\n",
		        (int)child, strerror(errno));
	struct lproc *root = proc_copy(NULL, child);
	struct ltask *rt = root ? task_add(child, root) : NULL;
	if (rt) {
		root->pre_exec = 1;
		rt->started = 1;
	}
	/* libvmrec records as preloaded alone; the child, which shares the
	 * launcher's memory until its exec, sees this environment */
	if (!seized)
		unsetenv("VMREC_TRAMPOLINE");
	if (write(go_fd, seized ? "g" : "n", 1) < 0)
		perror("vmrec: start");
	close(go_fd);
	int got_root = 0;
	for (;;) {
		int st;
		if (nexiting)
			exits_release();
		pid_t tid = waitpid(-1, &st, __WALL | (nexiting ? WNOHANG : 0));
		if (tid == 0) {
			nanosleep(&(struct timespec){ 0, 50000 }, NULL);
			continue;
		}
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			struct ltask *t = task_find(tid);
			if (t)
				call_lost(t);
			if (t && t->tid == t->p->tgid && t->p->owns_end && !t->p->pre_exec)
				write_end(t, st);
			if (!t || t->tid == t->p->tgid)
				cfg.reaped(tid, st);
			if (tid == child) {
				*root_st = st;
				got_root = 1;
			}
			if (t)
				task_del(t);
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		struct ltask *t = task_get(tid);
		int sig = WSTOPSIG(st), ev = st >> 16, how = PTRACE_CONT, inject = 0;
		if (!t) {
			ptrace(PTRACE_CONT, tid, 0, 0);
			continue;
		}
		if (sig == (SIGTRAP | 0x80)) {
			on_syscall_exit(t);
		} else if (ev == PTRACE_EVENT_SECCOMP) {
			how = on_seccomp(t);
			if (how == HOLD)
				continue;
		} else if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK || ev == PTRACE_EVENT_CLONE) {
			on_new_task(t, ev);
			how = t->call != CALL_NONE ? PTRACE_SYSCALL : PTRACE_CONT;
		} else if (ev == PTRACE_EVENT_EXEC) {
			on_exec(t);
			how = t->call != CALL_NONE ? PTRACE_SYSCALL : PTRACE_CONT;
		} else if (ev == PTRACE_EVENT_EXIT) {
			/* the leader's last stop while alive: with no other task of
			 * its process left, say how it ends and let it go, so its
			 * parent reaps it as soon as it is a zombie (set_opts) */
			unsigned long msg = 0;
			call_lost(t);
			if (t->p->exiting == t) {   /* killed while its exit_group was held */
				t->p->exiting = NULL;
				nexiting--;
			}
			if (t->tid != t->p->tgid)
				on_thread_exit(t);
			else if (proc_tasks(t->p) == 1 &&
			    ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0) {
				int est = (int)msg;
				if (t->p->owns_end && !t->p->pre_exec)
					write_end(t, est);
				cfg.reaped(tid, est);
				if (tid == child) {
					*root_st = est;
					got_root = 1;
				}
				task_del(t);
				ptrace(PTRACE_DETACH, tid, 0, 0);
				continue;
			}
		} else if (ev == PTRACE_EVENT_STOP) {
			if (!t->started) {
				t->started = 1;          /* a new task's first stop */
				if (t->tid != t->p->tgid)   /* inherited from its leader */
					set_opts(t, t->p->live ? LIVE_OPTS : TRACE_OPTS);
			} else if (is_stop_sig(sig)) {
				ptrace(PTRACE_LISTEN, tid, 0, 0);   /* group-stop, as strace */
				continue;
			}
			how = t->call != CALL_NONE ? PTRACE_SYSCALL : PTRACE_CONT;
		} else if (ev == 0) {
			inject = sig;               /* a signal for the program */
			t->started = 1;
			how = t->call != CALL_NONE ? PTRACE_SYSCALL : PTRACE_CONT;
		}
		if (t->live_opts && how == PTRACE_CONT)
			how = PTRACE_SYSCALL;       /* to ask for no clone events again */
		ptrace(how, tid, 0, inject);
	}
	for (size_t i = 0; i < ntasks; i++)
		task_close_writer(tasks[i]);
	return got_root ? 0 : -1;
}
