/* maps.c - parse /proc/self/maps from a buffer grown in the arena. */
#include "maps.h"
#include "arena.h"
#include "raw.h"
#include "record.h"

#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

static char self_path[4096];

void maps_set_self_path(const char *path)
{
	size_t n = strlen(path);
	if (n < sizeof self_path)
		memcpy(self_path, path, n + 1);
}

/* Lines come in address order: the anonymous VMA right after libvmrec.so's
 * last mapping is its .bss. */
static uint64_t self_end;

int maps_is_recorder(const struct maps_line *l)
{
	if (arena_contains(l->start, l->end))
		return 1;
	if (shim.seq && l->start == ((uint64_t)shim.seq & ~4095UL))
		return 1;
	if (self_path[0] && strcmp(l->name, self_path) == 0) {
		self_end = l->end;
		return 1;
	}
	return !l->name[0] && l->start == self_end && l->start;
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
static int parse(char *s, struct maps_line *l)
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

int maps_each(int (*fn)(const struct maps_line *l, void *arg), void *arg)
{
	size_t cap = 64 << 10, len = 0;
	char *buf = arena_alloc(cap);
	long fd = raw3(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
	int n = 0;
	if (!buf || raw_failed(fd)) {
		arena_free(buf, cap);
		return raw_failed(fd) ? (int)fd : -12;
	}
	for (;;) {
		if (len + 4096 >= cap) {
			char *bigger = arena_alloc(cap * 2);
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
	for (char *line = buf; *line; ) {
		char *nl = strchr(line, '\n');
		struct maps_line l;
		if (nl)
			*nl = 0;
		if (parse(line, &l) == 0) {
			n++;
			if (fn && fn(&l, arg))
				break;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	arena_free(buf, cap);
	return n;
}
