/* maps.c - parse /proc/self/maps from a buffer grown in the arena. */
#include "maps.h"
#include "arena.h"
#include "raw.h"
#include "record.h"

#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

/* The caller's string, kept (env_self.c's, for the process's life): a
 * copy here would be a page of .bss more touched in every process. */
static const char *self_path = "";

void maps_set_self_path(const char *path)
{
	self_path = path;
}

/* Lines come in address order: the anonymous VMA right after libvmrec.so's
 * last mapping is its .bss. */
static uint64_t self_end;

/* Mappings the recorder's own libraries made through the hooks while
 * shim_self.internal was set (libunwind's memory pools): not recorded, so
 * not the program's either.  A VMA that merged with a program's mapping
 * extends past its range and stays the program's. */
#define OWNED 64
static struct { uint64_t start, end; } owned[OWNED];
static volatile int owned_lock;
static int owned_ever;       /* none yet: no page of the table read */

static void lock_owned(void)
{
	while (__atomic_exchange_n(&owned_lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void unlock_owned(void) { __atomic_store_n(&owned_lock, 0, __ATOMIC_RELEASE); }

/* Adjacent ranges are joined: two pools mapped side by side are one VMA. */
void maps_own(uint64_t start, uint64_t end)
{
	int free_slot = -1;
	lock_owned();
	for (int i = 0; i < OWNED; i++) {
		if (owned[i].start == owned[i].end) {
			if (free_slot < 0)
				free_slot = i;
		} else if (owned[i].end == start) {
			owned[i].end = end;
			free_slot = -2;
			break;
		} else if (owned[i].start == end) {
			owned[i].start = start;
			free_slot = -2;
			break;
		}
	}
	if (free_slot >= 0) {
		owned[free_slot].start = start;
		owned[free_slot].end = end;
	}
	__atomic_store_n(&owned_ever, 1, __ATOMIC_RELEASE);
	unlock_owned();
}

void maps_disown(uint64_t start, uint64_t end)
{
	if (!__atomic_load_n(&owned_ever, __ATOMIC_ACQUIRE))
		return;
	lock_owned();
	for (int i = 0; i < OWNED; i++) {
		if (owned[i].end <= start || owned[i].start >= end)
			continue;
		if (owned[i].start >= start && owned[i].end <= end)
			owned[i].start = owned[i].end = 0;
		else if (owned[i].start < start)
			owned[i].end = start;       /* a hole in the middle keeps the lower part */
		else
			owned[i].start = end;
	}
	unlock_owned();
}

static int is_owned(uint64_t start, uint64_t end)
{
	int found = 0;
	if (!__atomic_load_n(&owned_ever, __ATOMIC_ACQUIRE))
		return 0;
	lock_owned();
	for (int i = 0; i < OWNED && !found; i++)
		found = owned[i].start < owned[i].end && start >= owned[i].start && end <= owned[i].end;
	unlock_owned();
	return found;
}

int maps_is_recorder(const struct maps_line *l)
{
	if (arena_contains(l->start, l->end) || is_owned(l->start, l->end))
		return 1;
	if (shim.seq && l->start == shim_page_down((uint64_t)shim.seq))
		return 1;
	if (self_path[0] && strcmp(l->name, self_path) == 0) {
		self_end = l->end;
		return 1;
	}
	/* under the launcher: its trampoline page */
	if (shim.tramp && l->start == shim.tramp)
		return 1;
	/* libvmrec's bss, unless the program's memory merged into it (ld.so
	 * places its own small mappings right after the last library): then
	 * the VMA is the program's too, and counts as the program's */
	extern char _end[] __attribute__((visibility("hidden")));
	return !l->name[0] && l->start == self_end && l->start &&
	       l->end <= shim_page_up((uint64_t)(uintptr_t)_end);
}

static uint64_t hex(const char **p)
{
	uint64_t v = 0;
	for (;; (*p)++) {
		char c = **p;
		if (c >= '0' && c <= '9') v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f') v = v * 16 + (uint64_t)(c - 'a' + 10);
		else return v;
	}
}

static uint64_t dec(const char **p)
{
	uint64_t v = 0;
	while (**p >= '0' && **p <= '9')
		v = v * 10 + (uint64_t)(*(*p)++ - '0');
	return v;
}

/* "start-end perms offset maj:min ino   name" */
static int parse(const char *s, struct maps_line *l)
{
	const char *p = s;
	l->start = hex(&p);
	if (*p++ != '-') return -1;
	l->end = hex(&p);
	if (*p++ != ' ') return -1;
	memcpy(l->perms, p, 4);
	l->perms[4] = 0;
	p += 5;
	l->offset = hex(&p);
	p++;
	l->dev_major = (uint32_t)hex(&p);
	p++;
	l->dev_minor = (uint32_t)hex(&p);
	p++;
	l->ino = dec(&p);
	while (*p == ' ')
		p++;
	l->name = p;
	return 0;
}

/* The whole file into recorder memory, its lines NUL-terminated. */
int maps_read(struct maps_snap *m)
{
	size_t cap = 64 << 10, len = 0;
	char *buf = arena_alloc_raw(cap);
	long fd = raw3(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
	m->buf = NULL;
	m->len = m->cap = 0;
	m->lines = 0;
	if (!buf || raw_failed(fd)) {
		arena_free(buf, cap);
		if (!raw_failed(fd))
			raw1(SYS_close, fd);
		return raw_failed(fd) ? (int)fd : -12;
	}
	for (;;) {
		if (len + 4096 >= cap) {
			char *bigger = arena_alloc_raw(cap * 2);
			if (!bigger)
				break;
			memcpy(bigger, buf, len);
			arena_free(buf, cap);
			buf = bigger;
			cap *= 2;
		}
		long r = raw3(SYS_read, fd, buf + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	raw1(SYS_close, fd);
	buf[len] = 0;
	for (char *nl = buf; (nl = memchr(nl, '\n', len - (size_t)(nl - buf))); *nl++ = 0)
		m->lines++;
	if (len && buf[len - 1])
		m->lines++;
	m->buf = buf;
	m->len = len;
	m->cap = cap;
	return 0;
}

int maps_snap_each(const struct maps_snap *m, int (*fn)(const struct maps_line *l, void *arg),
                   void *arg)
{
	int n = 0;
	for (size_t at = 0; m->buf && at < m->len; at += strlen(m->buf + at) + 1) {
		struct maps_line l;
		/* parse reads the line only: the snapshot can be walked again */
		if (parse(m->buf + at, &l) == 0) {
			n++;
			if (fn && fn(&l, arg))
				break;
		}
	}
	return n;
}

void maps_release(struct maps_snap *m)
{
	arena_free(m->buf, m->cap);
	m->buf = NULL;
}

int maps_each(int (*fn)(const struct maps_line *l, void *arg), void *arg)
{
	struct maps_snap m;
	int err = maps_read(&m);
	if (err < 0)
		return err;
	int n = maps_snap_each(&m, fn, arg);
	maps_release(&m);
	return n;
}
