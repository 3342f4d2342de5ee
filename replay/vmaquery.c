/* PROCMAP_QUERY is not in Debian 12's headers: the struct below is the
 * kernel's uapi layout (include/uapi/linux/fs.h, 104 bytes). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "vmt.h"
#include "replay/vmaquery.h"

struct procmap_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
_Static_assert(sizeof(struct procmap_query) == 104, "procmap_query layout");

#define PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define PQ_READABLE 1u
#define PQ_WRITABLE 2u
#define PQ_EXECUTABLE 4u
#define PQ_SHARED 8u
#define PQ_COVERING_OR_NEXT 0x10u

static int maps_fd = -1;
static int use_ioctl;

int vq_open(void)
{
	if (maps_fd >= 0)
		return 0;
	maps_fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (maps_fd < 0)
		return -1;
	struct procmap_query q = { .size = sizeof(q), .query_flags = PQ_COVERING_OR_NEXT };
	use_ioctl = !getenv("VMREPLAY_NO_PROCMAP_QUERY") &&   /* tests of the fallback */
	            (ioctl(maps_fd, PROCMAP_QUERY, &q) == 0 || errno == ENOENT);
	return 0;
}

void vq_close(void)
{
	if (maps_fd >= 0)
		close(maps_fd);
	maps_fd = -1;
}

int vq_has_procmap_query(void) { return use_ioctl; }

/* The first VMA with end > addr: 1, 0 (none), -1. */
static int next_ioctl(uint64_t addr, struct vq_vma *v)
{
	struct procmap_query q = {
		.size = sizeof(q), .query_flags = PQ_COVERING_OR_NEXT, .query_addr = addr,
	};
	if (ioctl(maps_fd, PROCMAP_QUERY, &q) < 0)
		return errno == ENOENT ? 0 : -1;
	v->start = q.vma_start;
	v->end = q.vma_end;
	v->prot = (q.vma_flags & PQ_READABLE ? VMT_PROT_READ : 0) |
	          (q.vma_flags & PQ_WRITABLE ? VMT_PROT_WRITE : 0) |
	          (q.vma_flags & PQ_EXECUTABLE ? VMT_PROT_EXEC : 0);
	v->shared = !!(q.vma_flags & PQ_SHARED);
	v->inode = q.inode;
	return 1;
}

/* Fallback: the whole maps file is read again for every question (slow, but
 * only kernels before 6.11 take this path).  Reads with pread into a static
 * buffer: no allocation, the replayer's memory must stay put. */
static char maps_buf[1 << 20];

typedef int (*vma_cb)(const struct vq_vma *v, void *arg); /* nonzero: stop */

static int walk_maps(vma_cb cb, void *arg)
{
	size_t len = 0;
	ssize_t got;
	while ((got = pread(maps_fd, maps_buf + len, sizeof(maps_buf) - 1 - len, (off_t)len)) > 0)
		len += (size_t)got;
	if (got < 0)
		return -1;
	maps_buf[len] = 0;
	for (char *line = maps_buf; *line; ) {
		char *nl = strchr(line, '\n');
		unsigned long long s, e, off, ino = 0;
		char perms[5];
		unsigned dmaj, dmin;
		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu", &s, &e, perms, &off,
		           &dmaj, &dmin, &ino) >= 3) {
			struct vq_vma v = {
				.start = s, .end = e,
				.prot = (perms[0] == 'r' ? VMT_PROT_READ : 0) |
				        (perms[1] == 'w' ? VMT_PROT_WRITE : 0) |
				        (perms[2] == 'x' ? VMT_PROT_EXEC : 0),
				.shared = perms[3] == 's',
				.inode = ino,
			};
			if (cb(&v, arg))
				return 0;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	return 0;
}

struct around_arg { uint64_t lo, hi; struct vq_list *out; };

static int around_cb(const struct vq_vma *v, void *p)
{
	struct around_arg *a = p;
	if (v->start > a->hi)
		return 1;
	if (v->end >= a->lo) {
		if (a->out->n < VQ_MAX)
			a->out->v[a->out->n] = *v;
		a->out->n++;
	}
	return 0;
}

int vq_around(uint64_t lo, uint64_t hi, struct vq_list *out)
{
	out->n = 0;
	if (maps_fd < 0 && vq_open())
		return -1;
	if (!use_ioctl) {
		struct around_arg a = { lo, hi, out };
		return walk_maps(around_cb, &a);
	}
	uint64_t at = lo ? lo - 1 : 0;
	struct vq_vma v;
	int r;
	while ((r = next_ioctl(at, &v)) == 1 && v.start <= hi) {
		if (out->n < VQ_MAX)
			out->v[out->n] = v;
		out->n++;
		at = v.end;
	}
	return r < 0 ? -1 : 0;
}

int vq_intersecting(uint64_t lo, uint64_t hi, struct vq_list *out)
{
	out->n = 0;
	if (maps_fd < 0 && vq_open())
		return -1;
	if (!use_ioctl) {
		struct vq_list all;
		if (vq_around(lo + 1, hi - 1, &all) < 0)
			return -1;
		for (size_t i = 0; i < all.n && i < VQ_MAX; i++)
			if (all.v[i].start < hi && all.v[i].end > lo)
				out->v[out->n++] = all.v[i];
		return 0;
	}
	uint64_t at = lo;
	struct vq_vma v;
	int r = 0;
	while (at < hi && (r = next_ioctl(at, &v)) == 1 && v.start < hi) {
		if (out->n < VQ_MAX)
			out->v[out->n] = v;
		out->n++;
		at = v.end;
	}
	return r < 0 ? -1 : 0;
}

int vq_covering(uint64_t addr, struct vq_vma *v)
{
	if (maps_fd < 0 && vq_open())
		return -1;
	if (use_ioctl) {
		int r = next_ioctl(addr, v);
		return r <= 0 ? r : v->start <= addr;
	}
	struct vq_list l;
	if (vq_around(addr + 1, addr, &l) < 0)
		return -1;
	for (size_t i = 0; i < l.n && i < VQ_MAX; i++)
		if (l.v[i].start <= addr && addr < l.v[i].end) {
			*v = l.v[i];
			return 1;
		}
	return 0;
}

struct count_arg { const uint64_t (*r)[2]; size_t n, i; int64_t count; };

static int count_cb(const struct vq_vma *v, void *p)
{
	struct count_arg *a = p;
	while (a->i < a->n && a->r[a->i][1] <= v->start)
		a->i++;
	if (a->i == a->n)
		return 1;
	if (v->end > a->r[a->i][0])
		a->count++;
	return 0;
}

int64_t vq_count_in(const uint64_t (*ranges)[2], size_t n)
{
	if (maps_fd < 0 && vq_open())
		return -1;
	if (!use_ioctl) {
		struct count_arg a = { ranges, n, 0, 0 };
		return walk_maps(count_cb, &a) < 0 ? -1 : a.count;
	}
	int64_t count = 0;
	uint64_t last_end = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t at = ranges[i][0] > last_end ? ranges[i][0] : last_end;
		struct vq_vma v;
		int r = 0;
		while (at < ranges[i][1] && (r = next_ioctl(at, &v)) == 1 && v.start < ranges[i][1]) {
			count++;
			at = last_end = v.end;
		}
		if (r < 0)
			return -1;
	}
	return count;
}
