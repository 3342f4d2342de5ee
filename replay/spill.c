/* spill.c - see spill.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "replay/spill.h"
#include "vmt.h"
#include "lib/compat.h"

void rp_spill_init(struct rp_spill *s, int shared)
{
	memset(s, 0, sizeof(*s));
	s->fd = -1;
	s->shared = shared;
}

/* An unlinked file in $TMPDIR: O_TMPFILE, else a named one removed at once. */
static int spill_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	char path[4096];
	size_t n = strlen(dir);
	if (n + sizeof("/vmreplay-spill.XXXXXX") > sizeof(path))
		return -1;
	memcpy(path, dir, n);
	memcpy(path + n, "/vmreplay-spill.XXXXXX", sizeof("/vmreplay-spill.XXXXXX"));
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* An anonymous mapping of nb bytes: private and on huge pages where THP
 * allows, or shared (MAP_SHARED: seen by forked replayers). */
static void *anon_map(const struct rp_spill *s, size_t nb)
{
	void *p = mmap(NULL, nb, PROT_READ | PROT_WRITE,
	               (s->shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED && !s->shared)
		madvise(p, nb, MADV_HUGEPAGE);   /* a hint: refused where THP is off */
	return p;
}

/* The array moves into a file of nb bytes: 0, or -1 (it stays as it is). */
static int to_file(struct rp_spill *s, size_t nb)
{
	const char *no = getenv("VMREPLAY_NO_SPILL");
	if (no && *no && strcmp(no, "0") != 0)
		return -1;
	int fd = spill_file();
	if (fd < 0)
		return -1;
	/* the blocks reserved now: a page written through the mapping on a
	 * full disk would be a SIGBUS */
	void *p = MAP_FAILED;
	if (fallocate(fd, 0, 0, (off_t)nb) == 0)
		p = mmap(NULL, nb, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -1;
	}
	/* no readahead: its large folios would stay resident beyond the window */
	madvise(p, nb, MADV_RANDOM);
	if (s->p) {
		memcpy(p, s->p, s->bytes);
		munmap(s->p, s->bytes);
	}
	s->p = p;
	s->bytes = nb;
	s->fd = fd;
	s->anon = 0;
	return 0;
}

int rp_spill_grow(struct rp_spill *s, size_t need)
{
	if (need <= s->bytes)
		return 0;
	size_t nb = s->bytes ? s->bytes * 2 : (size_t)2 << 20;
	while (nb < need)
		nb *= 2;
	if (s->p && !s->anon) {   /* a file already: more blocks, a longer mapping */
		if (s->fd < 0 || fallocate(s->fd, 0, 0, (off_t)nb) < 0)
			return -1;
		void *p = mremap(s->p, s->bytes, nb, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			return -1;
		s->p = p;
		s->bytes = nb;
		return 0;
	}
	if (nb > RP_SPILL_ANON_MAX && !s->no_file && to_file(s, nb) == 0)
		return 0;
	if (nb > RP_SPILL_ANON_MAX)
		s->no_file = 1;   /* no file to be had: memory, as resident as it is large */
	void *p = s->p ? mremap(s->p, s->bytes, nb, MREMAP_MAYMOVE) : anon_map(s, nb);
	if (p == MAP_FAILED)
		return -1;
	if (s->p && !s->shared)
		madvise(p, nb, MADV_HUGEPAGE);
	s->p = p;
	s->bytes = nb;
	s->anon = 1;
	return 0;
}

void rp_spill_seal(struct rp_spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

void rp_spill_free(struct rp_spill *s)
{
	if (s->p)
		munmap(s->p, s->bytes);
	rp_spill_seal(s);
	rp_spill_init(s, s->shared);
}

void rp_spill_drop(const struct rp_spill *s)
{
	if (s->p && !s->anon)
		madvise(s->p, s->bytes, MADV_DONTNEED);
}

void rp_spill_populate(const struct rp_spill *s, size_t off, size_t len, int write)
{
	if (!s->p || off >= s->bytes)
		return;
	if (len > s->bytes - off)
		len = s->bytes - off;
	const size_t mask = VMT_PAGE - 1;
	size_t start = off & ~mask, end = (off + len + mask) & ~mask;
	if (end > s->bytes)
		end = s->bytes;
	int saved = errno;
	madvise((char *)s->p + start, end - start, write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
	errno = saved;
}

void rp_spill_zero(const struct rp_spill *s)
{
	if (!s->p)
		return;
	/* zeros in the file, its blocks kept; else cleared a window at a time */
	if (!s->anon && s->fd >= 0 &&
	    fallocate(s->fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, 0, (off_t)s->bytes) == 0)
		return;
	for (size_t at = 0; at < s->bytes; at += (size_t)1 << 20) {
		size_t n = s->bytes - at < ((size_t)1 << 20) ? s->bytes - at : (size_t)1 << 20;
		memset((char *)s->p + at, 0, n);
		if (!s->anon)
			madvise((char *)s->p + at, n, MADV_DONTNEED);
	}
}
