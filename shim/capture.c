/* capture.c - see capture.h.  Plain C over the caller's buffers: it links
 * into libvmrec.so and into the vmrec launcher alike. */
#include "capture.h"

#include <string.h>

#define MAP_ANONYMOUS_ 0x20u      /* x86-64 values, whatever the headers */
#define AT_FDCWD_ (-100)
#define IOVEC_BATCH 64             /* struct iovec read at once */

/* The table's `file` column says where a call names its file. */
int capture_file(int sys, const uint64_t a[6], struct capture_file *f)
{
	memset(f, 0, sizeof *f);
	switch (vmt_sys_file(sys)) {
	case VMT_FILE_FD:
		if ((a[3] & MAP_ANONYMOUS_) || (int)a[4] < 0)
			return 0;
		*f = (struct capture_file){ CAPTURE_FILE_FD, (int)a[4], 0, 0 };
		return 1;
	case VMT_FILE_SHMID:
		*f = (struct capture_file){ CAPTURE_FILE_SYSV, (int)a[0], 0, 0 };
		return 1;
	case VMT_FILE_PATH:
		*f = (struct capture_file){ CAPTURE_FILE_PATH, AT_FDCWD_, a[0], 0 };
		return 1;
	case VMT_FILE_PATH_AT:
		*f = (struct capture_file){ CAPTURE_FILE_PATH, (int)a[0], a[1], (int)a[4] };
		return 1;
	}
	return 0;
}

long capture_str(char *dst, size_t cap, uint64_t addr, const struct capture_mem *m)
{
	if (!addr || !cap)
		return -1;
	size_t n = m->read(m->opaque, dst, addr, cap - 1, 1);
	char *nul = memchr(dst, 0, n);
	return nul ? nul - dst : -1;
}

uint64_t capture_envc(uint64_t envp, uint32_t *end, const struct capture_mem *m)
{
	uint64_t buf[128], n = 0;
	*end = VMT_ARGV_FAULT;
	if (!envp)
		return 0;
	for (;;) {
		size_t got = m->read(m->opaque, buf, envp + n * 8, sizeof buf, 8) / 8;
		for (size_t i = 0; i < got; i++)
			if (!buf[i]) {
				*end = VMT_ARGV_NULL;
				return n + i;
			}
		n += got;
		if (got < sizeof buf / sizeof buf[0])
			return n;
	}
}

static void heads(const struct capture_mem *m, char *dst, size_t each, const uint64_t *ptrs,
                  size_t n, uint32_t *got)
{
	if (m->heads) {
		m->heads(m->opaque, dst, each, ptrs, n, got);
		return;
	}
	for (size_t i = 0; i < n; i++)
		got[i] = (uint32_t)m->read(m->opaque, dst + i * each, ptrs[i], each, 1);
}

/* argv's elements: like strace, a string is cut when no NUL comes within
 * CAPTURE_ARG_BYTES + 1 bytes, and unreadable when it cannot be read to one. */
void capture_argv(struct vmt_argv *a, struct capture_argv_buf *b, uint64_t argv,
                  const struct capture_mem *m)
{
	a->argc = 0;
	a->argv_end = VMT_ARGV_FAULT;       /* NULL or unreadable: not read */
	a->args = b->args;
	if (!argv)
		return;
	size_t slots = m->read(m->opaque, b->ptrs, argv, sizeof b->ptrs, 8) / 8;
	uint32_t n = 0;
	for (;; n++) {
		if (n == slots)
			break;                  /* stays FAULT */
		if (!b->ptrs[n]) {
			a->argv_end = VMT_ARGV_NULL;
			break;
		}
		if (n == CAPTURE_ARG_MAX) {
			a->argv_end = VMT_ARGV_MORE;
			break;
		}
	}
	heads(m, &b->text[0][0], CAPTURE_ARG_BYTES + 1, b->ptrs, n, b->got);
	for (uint32_t i = 0; i < n; i++) {
		struct vmt_arg *e = &b->args[i];
		char *t = b->text[i];
		if (memchr(t, 0, b->got[i])) {
			*e = (struct vmt_arg){ VMT_ARG_STR, t, 0 };
		} else if (b->got[i] == CAPTURE_ARG_BYTES + 1) {
			t[CAPTURE_ARG_BYTES] = '\0';
			*e = (struct vmt_arg){ VMT_ARG_CUT, t, 0 };
		} else {
			*e = (struct vmt_arg){ VMT_ARG_FAULT, NULL, b->ptrs[i] };
		}
	}
	a->argc = n;
}

/* x86-64 layouts: struct iovec { base, len }, struct uffdio_range
 * { start, len }, struct uffdio_register { range, mode, ioctls }. */
static int read_words(const struct capture_mem *m, uint64_t *dst, uint64_t addr, size_t words)
{
	return m->read(m->opaque, dst, addr, words * 8, 0) == words * 8;
}

static int read_iovec(struct capture_ranges *c, uint64_t addr, uint64_t n,
                      struct vmt_range *buf, size_t cap, const struct capture_mem *m)
{
	if (n == 0 || n > VMT_RANGES_MAX)
		return 0;                       /* the kernel's EINVAL: nothing to read */
	if (n > cap) {
		c->need = (uint32_t)n;
		return 0;
	}
	for (uint64_t i = 0; i < n; i += IOVEC_BATCH) {
		uint64_t k = n - i < IOVEC_BATCH ? n - i : IOVEC_BATCH;
		if (!read_words(m, (uint64_t *)(void *)(buf + i), addr + i * 16, k * 2))
			return 0;
	}
	c->r.n = (uint32_t)n;
	c->r.ranges = buf;
	return 1;
}

int capture_ranges(struct capture_ranges *c, int sys, const uint64_t a[6],
                   struct vmt_range *buf, size_t cap, const struct capture_mem *m)
{
	int kind = vmt_sys_ranges(sys);
	uint64_t w[4];
	memset(&c->r, 0, sizeof c->r);
	c->need = 0;
	c->r.kind = (uint32_t)kind;
	switch (kind) {
	case VMT_RANGES_IOVEC:
		return read_iovec(c, a[1], a[2], buf, cap, m);
	case VMT_RANGES_UFFDIO_REGISTER:
	case VMT_RANGES_UFFDIO_RANGE: {
		int reg = kind == VMT_RANGES_UFFDIO_REGISTER;
		if (!a[2] || !read_words(m, w, a[2], reg ? 3 : 2))
			return 0;
		c->one = (struct vmt_range){ w[0], w[1] };
		c->r.n = 1;
		c->r.ranges = &c->one;
		c->r.mode = reg ? w[2] : 0;
		return 1;
	}
	case VMT_RANGES_NODEMASK: {
		/* get_nodes: maxnode - 1 bits, in whole longs; a NULL mask (or
		 * none to read) is in the registers already */
		uint64_t bits = a[4] ? a[4] - 1 : 0, words = (bits + 63) / 64;
		if (words > VMT_NODEMASK_WORDS)
			words = VMT_NODEMASK_WORDS;
		if (!a[3] || !words || !read_words(m, c->r.nodes, a[3], words))
			return 0;
		if (bits % 64 && words * 64 > bits)   /* the bits past maxnode - 1 the kernel ignores */
			c->r.nodes[words - 1] &= ~0ull >> (64 - bits % 64);
		c->r.nwords = (uint32_t)words;
		return 1;
	}
	case VMT_RANGES_VMA_NAME:
		if (!a[4]) {
			c->r.name_how = VMT_NAME_NULL;
		} else if (capture_str(c->name, sizeof c->name, a[4], m) >= 0) {
			c->r.name_how = VMT_NAME_STR;
			c->r.name = c->name;
		} else {
			c->r.name_how = VMT_NAME_FAULT;
		}
		return 1;
	}
	return 0;
}

void capture_ranges_after(struct capture_ranges *c, const uint64_t a[6], long ret,
                          const struct capture_mem *m)
{
	uint64_t ioctls;
	if (c->r.kind == VMT_RANGES_UFFDIO_REGISTER && !vmt_raw_failed(ret) &&
	    read_words(m, &ioctls, a[2] + 24, 1))
		c->r.ioctls = ioctls;
}
