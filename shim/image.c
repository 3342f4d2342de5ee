/* image.c - records describing a process image, built in recorder memory. */
#include "image.h"
#include "arena.h"
#include "maps.h"
#include "raw.h"
#include "record.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>

#define FILE_SLOTS 4096
/* A first table of one page is searched first, in a window of probes;
 * the big one only when that window is full.  The few files of most
 * images then touch one page of the recorder's memory, not one each
 * (each first touch is a page fault, ~20 us on some guests).  Slots are
 * never emptied within a generation, so a file not in its full window
 * can only be in the big table. */
#define FIRST_SLOTS  170        /* 170 * 24 bytes: one page */
#define FIRST_WINDOW 8

/* A slot of another generation is empty: a fork child starts its table
 * over without writing it (a memset would copy each of its 24 pages
 * from the parent's, only for the child to exec). */
struct file_slot { uint64_t dev, ino; uint32_t id, gen; };
static struct file_slot *files;      /* FIRST_SLOTS, then FILE_SLOTS */
static uint32_t files_gen;

void image_files_reset(void)
{
	if (!files)
		files = arena_alloc(sizeof *files * (FIRST_SLOTS + FILE_SLOTS));
	files_gen++;
}

/* The slot of (dev, ino) in [first, first + n), probing from h: the
 * file's, or the first empty one; NULL when `limit` probes found neither. */
static struct file_slot *probe(struct file_slot *first, unsigned n, uint64_t h, unsigned limit,
                               uint64_t dev, uint64_t ino)
{
	for (unsigned i = 0; i < limit; i++) {
		struct file_slot *s = &first[(h + i) % n];
		if (s->gen != files_gen) {
			s->id = 0;
			s->gen = files_gen;
		}
		if (!s->id || (s->dev == dev && s->ino == ino))
			return s;
	}
	return NULL;
}

static struct file_slot *file_slot(uint64_t dev, uint64_t ino)
{
	uint64_t h = (dev * 0x9e3779b97f4a7c15ULL) ^ (ino * 0xc2b2ae3d27d4eb4fULL);
	if (!files)
		return NULL;
	struct file_slot *s = probe(files, FIRST_SLOTS, h >> 7, FIRST_WINDOW, dev, ino);
	return s ? s : probe(files + FIRST_SLOTS, FILE_SLOTS, h, FILE_SLOTS, dev, ino);
}

/* The id of a file, writing its identity record the first time.  A vfork
 * child has ids of its own pid and must leave its parent's table alone. */
static uint32_t file_id(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type)
{
	if (shim_vfork_child)
		return image_file_new(dev, ino, size, path, fs_type);
	struct file_slot *s = file_slot(dev, ino);
	if (!s)
		return 0;
	if (s->id)
		return s->id;
	s->dev = dev;
	s->ino = ino;
	s->id = image_file_new(dev, ino, size, path, fs_type);
	return s->id;
}

uint32_t image_file_new(uint64_t dev, uint64_t ino, uint64_t size, const char *path, uint64_t fs_type)
{
	if (shim_vfork_child)
		return shim_vfork_file(dev, ino, size, path, fs_type);
	uint32_t id = __atomic_add_fetch(&shim.next_file_id, 1, __ATOMIC_RELAXED);
	struct vmt_record rec = { .type = VMT_REC_FILE };
	rec.u.file = (struct vmt_file){ .id = id, .pid = shim.pid, .dev = dev,
	                                .ino = ino, .size = size, .path = path, .fs_type = fs_type };
	shim_write(&rec);
	return id;
}

static long read_small(const char *path, char *buf, size_t cap)
{
	long fd = raw3(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	if (raw_failed(fd))
		return fd;
	while (len + 1 < cap) {
		long r = raw3(SYS_read, fd, buf + len, cap - 1 - len);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	raw1(SYS_close, fd);
	buf[len] = 0;
	return (long)len;
}

/* argv joined by single spaces. */
static const char *cmdline(char *buf, size_t cap)
{
	long n = read_small("/proc/self/cmdline", buf, cap);
	if (n <= 0)
		return "";
	for (long i = 0; i < n - 1; i++)
		if (!buf[i])
			buf[i] = ' ';
	return buf;
}

const char *image_exe(char *buf, size_t cap)
{
	long n = raw3(SYS_readlink, "/proc/self/exe", buf, cap - 1);
	buf[raw_failed(n) ? 0 : n] = 0;
	return buf;
}

uint32_t image_file_fd(int fd)
{
	struct stat st;
	char link[32] = "/proc/self/fd/", path[4096], num[16];
	if (fd < 0 || raw_failed(raw2(SYS_fstat, fd, &st)) || !S_ISREG(st.st_mode))
		return 0;
	struct file_slot *s = shim_vfork_child ? NULL : file_slot(st.st_dev, st.st_ino);
	if (s && s->id)
		return s->id;
	int i = sizeof num;
	unsigned v = (unsigned)fd;
	num[--i] = 0;
	do num[--i] = (char)('0' + v % 10); while ((v /= 10) && i > 0);
	strcat(link, num + i);
	long n = raw3(SYS_readlink, link, path, sizeof path - 1);
	path[raw_failed(n) ? 0 : n] = 0;
	/* what its file system allows a mapping (hugetlbfs: huge pages only) */
	struct statfs sf;
	uint64_t fs = raw_failed(raw2(SYS_fstatfs, fd, &sf)) ? 0 : (uint64_t)sf.f_type;
	return file_id(st.st_dev, st.st_ino, (uint64_t)st.st_size, path, fs);
}

void image_header(void)
{
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	char *cmd = arena_alloc_raw(8192);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	rec.u.header.version = VMT_FORMAT_VERSION;
	rec.u.header.start_realtime_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = cmd ? cmdline(cmd, 8192) : "";
	shim_write(&rec);
	arena_free(cmd, 8192);
}

/* A setuid or setgid program run without the ids its file would give
 * it (traced by an unprivileged tracer, or under no_new_privs). */
static int image_unprivileged(void)
{
	struct stat st;
	if (raw_failed(raw4(SYS_newfstatat, AT_FDCWD, "/proc/self/exe", &st, 0)))
		return 0;
	return ((st.st_mode & S_ISUID) && st.st_uid != (uid_t)raw0(SYS_geteuid)) ||
	       ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
	        st.st_gid != (gid_t)raw0(SYS_getegid));
}

void image_process(uint64_t seq)
{
	struct vmt_record rec = { .type = VMT_REC_PROCESS };
	char *buf = arena_alloc_raw(16384);
	if (!buf)
		return;
	/* the command line right after the path: one page for both, mostly */
	const char *exe = image_exe(buf, 4096);
	rec.u.process = (struct vmt_process){
		.seq = seq, .time_ns = shim_now(), .pid = shim.pid, .ppid = shim.ppid,
		.image = shim.image, .exe = exe, .cmdline = cmdline(buf + strlen(exe) + 1, 12288),
		.origin = VMT_ORIGIN_PRELOAD | (image_unprivileged() ? VMT_ORIGIN_UNPRIVILEGED : 0),
	};
	shim_write(&rec);
	arena_free(buf, 16384);
}

/* The file a maps line shows, its size asked only for a new one. */
static uint32_t line_file_id(const struct maps_line *l)
{
	if (!l->ino || l->name[0] != '/')
		return 0;
	uint64_t dev = makedev(l->dev_major, l->dev_minor);
	struct file_slot *s = shim_vfork_child ? NULL : file_slot(dev, l->ino);
	if (s && s->id)
		return s->id;
	struct stat st;
	uint64_t size = 0;
	if (!raw_failed(raw2(SYS_stat, l->name, &st)))
		size = (uint64_t)st.st_size;
	return file_id(dev, l->ino, size, l->name, 0);
}

struct map_build { struct vmt_vma *v; uint32_t n, cap; };

static uint32_t prot_of(const char *perms)
{
	return (perms[0] == 'r' ? VMT_PROT_READ : 0) | (perms[1] == 'w' ? VMT_PROT_WRITE : 0) |
	       (perms[2] == 'x' ? VMT_PROT_EXEC : 0);
}

static int add_vma(const struct maps_line *l, void *arg)
{
	struct map_build *b = arg;
	struct vmt_vma *v;
	if (b->n == b->cap)
		return 1;
	v = &b->v[b->n++];
	v->start = l->start;
	v->end = l->end;
	v->offset = l->offset;
	v->prot = prot_of(l->perms);
	v->flags = (l->perms[3] == 's' ? VMT_VMA_SHARED : 0) |
	           (maps_is_recorder(l) ? VMT_VMA_RECORDER : 0);
	v->file_id = line_file_id(l);
	v->name = "";
	/* names live in a string area after the vmas */
	size_t len = strlen(l->name) + 1;
	char *names = (char *)(b->v + b->cap);
	static size_t used;
	if (b->n == 1)
		used = 0;
	if (used + len <= (size_t)b->cap * 128) {
		memcpy(names + used, l->name, len);
		v->name = names + used;
		used += len;
	}
	return 0;
}

void image_map(uint64_t seq, const struct maps_snap *m)
{
	int lines = m->lines;
	struct map_build b = { .cap = lines > 0 ? (uint32_t)lines + 64 : 1024 };
	size_t bytes = b.cap * (sizeof *b.v + 128);
	/* not zeroed: add_vma writes each entry whole, and the names it
	 * copies; zeroing would touch every page of a block used before
	 * (the PROCESS record's, just freed), each a fault for nothing */
	b.v = arena_alloc_raw(bytes);
	if (!b.v)
		return;
	maps_snap_each(m, add_vma, &b);
	struct vmt_record rec = { .type = VMT_REC_MAP };
	rec.u.map = (struct vmt_map){ .seq = seq, .pid = shim.pid, .nvma = b.n, .vmas = b.v };
	shim_write(&rec);
	arena_free(b.v, bytes);
}

/* A checkpoint's count and, where no MAP tells it (at exit, on request),
 * its layout: every VMA's range, protection, sharing, file and bracketed
 * name, in one pass over /proc/self/maps.  Names are kept inline, cut at
 * NAME_MAX_KEPT bytes (they only name VMAs in reports). */
#define NAME_MAX_KEPT 48
struct layout_vma { struct vmt_vma v; char name[NAME_MAX_KEPT]; };
struct layout_build {
	uint64_t all, recorder;
	struct layout_vma *v;       /* NULL: the count only */
	uint32_t n, cap;
};

static int layout_vma(const struct maps_line *l, void *arg)
{
	struct layout_build *b = arg;
	int mine = maps_is_recorder(l);
	b->all++;
	b->recorder += (uint64_t)mine;
	if (!b->v)
		return 0;
	if (b->n == b->cap) {
		struct layout_vma *more = arena_alloc_raw(2 * b->cap * sizeof *more);
		if (more)
			memcpy(more, b->v, b->cap * sizeof *more);
		arena_free(b->v, b->cap * sizeof *b->v);
		b->v = more;            /* NULL: no layout, the count goes on */
		b->cap *= 2;
		if (!more)
			return 0;
	}
	struct layout_vma *x = &b->v[b->n++];
	x->v = (struct vmt_vma){ .start = l->start, .end = l->end, .prot = prot_of(l->perms),
	                         .flags = (l->perms[3] == 's' ? VMT_VMA_SHARED : 0) |
	                                  (mine ? VMT_VMA_RECORDER : 0),
	                         .file_id = line_file_id(l) };
	x->name[0] = 0;
	if (l->name[0] == '[') {
		size_t n = strlen(l->name);
		n = n < NAME_MAX_KEPT - 1 ? n : NAME_MAX_KEPT - 1;
		memcpy(x->name, l->name, n);
		x->name[n] = 0;
	}
	return 0;
}

void image_checkpoint(int reason)
{
	struct maps_snap m;
	maps_read(&m);
	image_checkpoint_in(reason, &m);
	maps_release(&m);
}

void image_checkpoint_in(int reason, const struct maps_snap *m)
{
	struct layout_build b = { 0 };
	/* not zeroed: each entry is written whole before it is read, and
	 * zeroing a block used before would touch all its pages (at exit,
	 * each a fault for nothing) */
	if (reason == VMT_CK_EXIT || reason == VMT_CK_REQUEST) {
		b.cap = 256;
		b.v = arena_alloc_raw(b.cap * sizeof *b.v);
	}
	maps_snap_each(m, layout_vma, &b);
	uint64_t seq = shim_next_seq();
	struct vmt_record rec = { .type = VMT_REC_CHECKPOINT };
	rec.u.checkpoint = (struct vmt_checkpoint){
		.seq = seq, .pid = shim.pid, .reason = (uint32_t)reason,
		.vma_count = b.all, .recorder_vmas = b.recorder,
	};
	shim_write(&rec);
	if (!b.v)
		return;
	struct vmt_vma *v = arena_alloc_raw((b.n + 1) * sizeof *v);
	if (v) {
		for (uint32_t i = 0; i < b.n; i++) {
			v[i] = b.v[i].v;
			v[i].name = b.v[i].name;
		}
		rec.type = VMT_REC_LAYOUT;
		rec.u.layout = (struct vmt_map){ .seq = seq, .pid = shim.pid, .nvma = b.n, .vmas = v };
		shim_write(&rec);
		arena_free(v, (b.n + 1) * sizeof *v);
	}
	arena_free(b.v, b.cap * sizeof *b.v);
}
