/* The writer inside a recorded program: with its own allocator it never
 * calls malloc; a failing fd makes it record one error, drop the rest and
 * keep returning that error; records larger than a chunk still fit; a new
 * writer touches one page. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>
#include "tests/tap.h"
#include "tests/trace/gen.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
#define COUNT_MALLOC 0
#else
#define COUNT_MALLOC 1
/* Count the program's malloc calls while `counting` is set. */
extern void *__libc_malloc(size_t), *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
static int counting, mallocs;
void *malloc(size_t n) { mallocs += counting; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { mallocs += counting; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { mallocs += counting; return __libc_realloc(p, n); }
#endif

/* A bump allocator over a static arena, like the shim's. */
static uint8_t arena[8 << 20] __attribute__((aligned(64)));
static size_t arena_used, live_bytes, bad_frees;

static void *arena_alloc(size_t size, void *opaque)
{
	void *p;
	(void)opaque;
	size = (size + 63) & ~(size_t)63;
	if (arena_used + size > sizeof(arena))
		return NULL;
	p = arena + arena_used;
	arena_used += size;
	live_bytes += size;
	return p;
}

static void arena_free(void *ptr, size_t size, void *opaque)
{
	(void)opaque;
	size = (size + 63) & ~(size_t)63;
	if ((uint8_t *)ptr < arena || (uint8_t *)ptr >= arena + sizeof(arena) || size > live_bytes)
		bad_frees++;
	else
		live_bytes -= size;
}

static const struct vmt_alloc arena_allocator = { arena_alloc, arena_free, NULL };

static struct vmt_record event(uint64_t seq)
{
	struct vmt_record r = { .type = VMT_REC_EVENT };
	r.u.event = (struct vmt_event){ .seq = seq, .time_ns = seq * 1500, .latency_ns = 1400,
		.pid = 7, .tid = 7, .sys = VMT_SYS_BRK, .args = { 0x555000 + seq * 4096 },
		.result = (int64_t)(0x555000 + seq * 4096) };
	return r;
}

static void test_no_malloc(void)
{
	struct vmt_writer_prefs prefs = { .chunk_bytes = 4096, .alloc = &arena_allocator };
	char path[] = "/tmp/vmt-writer-XXXXXX";
	int fd = mkstemp(path), ret = 0;
	struct vmt_writer *w;
	struct vmt_record hdr, rec;
	struct gen_buf b;
	uint64_t want_events = 20000;

	gen_header(&hdr);
#if COUNT_MALLOC
	counting = 1;
#endif
	w = vmt_writer_fdopen(fd, 7, 7, &prefs);
	ret |= vmt_write(w, &hdr);
	for (uint64_t n = 0; n < 20000; n++) {
		rec = event(n);
		ret |= vmt_write(w, &rec);
		if (n % 1000 == 0) {
			want_events += gen_record(n, 7, 7, &rec, &b) == VMT_REC_EVENT;
			ret |= vmt_write(w, &rec);
		}
		if (n % 5000 == 0)
			ret |= vmt_writer_flush(w);
	}
	ret |= vmt_writer_close(w);
#if COUNT_MALLOC
	counting = 0;
	is_int(mallocs, 0, "with a custom allocator the writer never calls malloc");
#else
	ok(1, "# SKIP malloc is not counted under AddressSanitizer");
#endif
	is_int(ret, 0, "every write succeeded");
	is_int(live_bytes, 0, "the writer gave back all it took from the allocator");
	is_int(bad_frees, 0, "and freed only what it got, with the sizes it asked for");
	close(fd);
	{
		struct vmt_reader *r = vmt_reader_open(path, NULL, &ret);
		struct vmt_reader_stats st;
		while (r && vmt_reader_next(r, &rec) == 1)
			;
		vmt_reader_stats(r, &st);
		is_int(st.events, want_events, "and the trace reads back");
		vmt_reader_close(r);
	}
	unlink(path);
}

static void test_fd_failure(const char *name, int fd, int want_err, const char *want_msg)
{
	struct vmt_writer *w = vmt_writer_fdopen(fd, 7, 7, NULL);
	struct vmt_record rec = event(1);
	char msg[200];

	is_int(vmt_write(w, &rec), 0, "%s: a buffered write succeeds", name);
	is_int(vmt_writer_flush(w), want_err, "%s: the flush fails with %s", name, vmt_strerror(want_err));
	snprintf(msg, sizeof(msg), "trace fd %d: %s", fd, want_msg);
	is_str(vmt_writer_error(w), msg, "%s: the error line", name);
	rec = event(2);
	is_int(vmt_write(w, &rec), want_err, "%s: later writes are dropped with the same error", name);
	is_int(vmt_writer_flush(w), want_err, "%s: later flushes too", name);
	is_int(vmt_writer_close(w), want_err, "%s: close reports the first error", name);
}

static void test_big_record(void)
{
	static struct vmt_vma vmas[50000];
	char path[] = "/tmp/vmt-writer-XXXXXX";
	int fd = mkstemp(path), err;
	struct vmt_writer_prefs prefs = { .chunk_bytes = 4096 };
	struct vmt_writer *w = vmt_writer_fdopen(fd, 7, 7, &prefs);
	struct vmt_record rec, map, hdr, got;
	struct vmt_reader *r;
	int ret = 0, n = 0, same = 0;

	for (unsigned i = 0; i < 50000; i++)
		vmas[i] = (struct vmt_vma){ 0x10000ull * i, 0x10000ull * i + 4096, 0, 3, 0, 0,
			i % 2 ? "" : "/usr/lib/x86_64-linux-gnu/libc.so.6" };
	gen_header(&hdr);
	ret |= vmt_write(w, &hdr);
	rec = event(1);
	ret |= vmt_write(w, &rec);
	map = (struct vmt_record){ .type = VMT_REC_MAP };
	map.u.map = (struct vmt_map){ 2, 7, 50000, vmas };
	ret |= vmt_write(w, &map);
	rec = event(3);
	ret |= vmt_write(w, &rec);
	ret |= vmt_writer_close(w);
	is_int(ret, 0, "a map record of 50000 VMAs (far more than a chunk) is written");
	close(fd);
	r = vmt_reader_open(path, NULL, &err);
	while (r && vmt_reader_next(r, &got) == 1) {
		n++;
		if (got.type == VMT_REC_MAP)
			same = record_eq(&got, &map);
	}
	is_int(n, 3, "it reads back between its events");
	ok(same, "equal to what was written");
	vmt_reader_close(r);
	unlink(path);
}

/* A LAYOUT (format 4) reads back as written, in pages, between the
 * checkpoint it belongs to and the next event; one the coding would
 * change (an address off a page, VMAs out of order) is refused. */
static void test_layout(void)
{
	char path[] = "/tmp/vmt-writer-XXXXXX";
	int fd = mkstemp(path), err, n = 0, same = 0;
	struct vmt_writer *w = vmt_writer_fdopen(fd, 7, 7, NULL);
	struct vmt_vma v[4] = {
		{ 0x400000, 0x401000, 0, 5, 0, 3, "" },
		{ 0x7f0000000000, 0x7f0000200000, 0, 3, 0, 0, "" },
		{ 0x7f0000200000, 0x7f0000201000, 0, 3, VMT_VMA_SHARED | VMT_VMA_RECORDER, 9, "" },
		{ 0x7ffff0000000, 0x7ffff0021000, 0, 3, 0, 0, "[stack]" },
	};
	struct vmt_record hdr, ck, lay, rec, got;
	gen_header(&hdr);
	vmt_write(w, &hdr);
	ck = (struct vmt_record){ .type = VMT_REC_CHECKPOINT };
	ck.u.checkpoint = (struct vmt_checkpoint){ 2, 7, VMT_CK_EXIT, 4, 1 };
	lay = (struct vmt_record){ .type = VMT_REC_LAYOUT };
	lay.u.layout = (struct vmt_map){ 2, 7, 4, v };
	rec = event(3);
	int ret = vmt_write(w, &ck);
	ret |= vmt_write(w, &lay);
	ret |= vmt_write(w, &rec);
	is_int(ret, 0, "a layout is written");
	struct vmt_vma bad[2] = { v[1], v[0] };
	lay.u.layout = (struct vmt_map){ 2, 7, 2, bad };
	is_int(vmt_write(w, &lay), VMT_EINVAL, "a layout out of address order is refused");
	bad[0].start += 8;
	lay.u.layout = (struct vmt_map){ 2, 7, 1, bad };
	is_int(vmt_write(w, &lay), VMT_EINVAL, "a layout with an address off a page is refused");
	lay.u.layout = (struct vmt_map){ 2, 7, 4, v };
	is_int(vmt_writer_close(w), 0, "and the writer goes on");
	close(fd);
	struct vmt_reader *r = vmt_reader_open(path, NULL, &err);
	while (r && vmt_reader_next(r, &got) == 1) {
		n++;
		if (got.type == VMT_REC_LAYOUT)
			same = n == 2 && record_eq(&got, &lay);
	}
	is_int(n, 3, "it reads back with its checkpoint and the event");
	ok(same, "equal to what was written, right after its checkpoint");
	vmt_reader_close(r);
	unlink(path);
}

/* Fresh pages, each allocation on pages of its own, as the shim's arena
 * gives the writer's blocks: the pages a new writer touches are those
 * mincore finds resident. */
static uint8_t *fresh, *fresh_next;

static void *fresh_alloc(size_t size, void *opaque)
{
	(void)opaque;
	void *p = fresh_next;
	fresh_next += (size + 4095) & ~(size_t)4095;
	return p;
}

static void fresh_free(void *ptr, size_t size, void *opaque) { (void)ptr, (void)size, (void)opaque; }

/* A new writer touches one page of its own (the fields it zeroes): the
 * ~9 KiB it writes before it reads (predictor, event queue, message), its
 * buffers and its lz4 state stay untouched until it is used.  Under the
 * vmrec launcher most writers never are: their records go to the store. */
static void test_fresh_pages(void)
{
	const size_t len = 4 << 20;
	fresh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fresh == MAP_FAILED) {
		ok(0, "fresh pages mapped");
		return;
	}
	fresh_next = fresh;
	struct vmt_alloc a = { fresh_alloc, fresh_free, NULL };
	struct vmt_writer_prefs prefs = { .alloc = &a };
	int fd = open("/dev/null", O_WRONLY);
	struct vmt_writer *w = vmt_writer_fdopen(fd, 7, 7, &prefs);
	unsigned char vec[1024];
	int resident = -1;
	if (w && mincore(fresh, len, vec) == 0) {
		resident = 0;
		for (size_t i = 0; i < len / 4096; i++)
			resident += vec[i] & 1;
	}
	is_int(resident, 1, "a new writer touches one page of its memory");
	struct vmt_record rec = event(1);
	ok(w && vmt_write(w, &rec) == 0 && vmt_writer_close(w) == 0, "and works from there");
	close(fd);
	munmap(fresh, len);
}

/* A child's chunk that starts with a file record merges right before its
 * first record with a seq, not at the start of the trace. */
static void test_seqless_key(void)
{
	char path[] = "/tmp/vmt-writer-XXXXXX";
	int fd = mkstemp(path), err, n = 0;
	struct vmt_writer *a = vmt_writer_fdopen(fd, 1, 1, NULL);
	struct vmt_writer *b = vmt_writer_fdopen(fd, 2, 2, NULL);
	struct vmt_record rec, hdr;
	struct vmt_reader *r;
	char got[200] = "", *p = got;

	gen_header(&hdr);
	vmt_write(a, &hdr);
	rec = (struct vmt_record){ .type = VMT_REC_FILE };
	rec.u.file = (struct vmt_file){ 1, 2, 3, 4, 5, "/bin/true", 0 };
	vmt_write(b, &rec);
	rec = (struct vmt_record){ .type = VMT_REC_PROCESS };
	rec.u.process = (struct vmt_process){ 5, 0, 2, 1, 0, "/bin/true", "true", 0 };
	vmt_write(b, &rec);
	for (uint64_t s = 5; s < 7; s++) {
		rec = event(s);
		rec.u.event.pid = rec.u.event.tid = 2;
		vmt_write(b, &rec);
	}
	vmt_writer_close(b);
	for (uint64_t s = 0; s < 10; s++) {
		rec = event(s < 5 ? s : s + 2);
		rec.u.event.pid = rec.u.event.tid = 1;
		vmt_write(a, &rec);
		if (s == 4)
			vmt_writer_flush(a);
	}
	vmt_writer_close(a);
	close(fd);
	r = vmt_reader_open(path, NULL, &err);
	while (r && vmt_reader_next(r, &rec) == 1 && n++ < 20)
		p += sprintf(p, "%s%d", p == got ? "" : " ",
		             rec.type == VMT_REC_EVENT ? (int)rec.u.event.seq :
		             rec.type == VMT_REC_FILE ? -1 : -2);
	is_str(got, "0 1 2 3 4 -1 -2 5 6 7 8 9 10 11",
	       "seq order: file and process records of a late chunk come right before its events");
	vmt_reader_close(r);
	unlink(path);
}

static void test_discard(void)
{
	char path[] = "/tmp/vmt-writer-XXXXXX";
	int fd = mkstemp(path);
	struct vmt_writer *w = vmt_writer_fdopen(fd, 1, 1, NULL);
	struct vmt_record rec = event(1);
	struct stat st;

	vmt_write(w, &rec);
	vmt_writer_discard(w);
	fstat(fd, &st);
	is_int(st.st_size, 0, "vmt_writer_discard writes nothing");
	close(fd);
	unlink(path);
}

int main(void)
{
	int fd, err = 0;

	test_seqless_key();
	test_discard();
	test_fresh_pages();

	test_no_malloc();
	fd = open("/dev/full", O_WRONLY);
	test_fd_failure("/dev/full", fd, VMT_ENOSPC,
	                "write failed, trace data dropped: No space left on device");
	close(fd);
	fd = open("/dev/null", O_RDONLY);
	test_fd_failure("read-only fd", fd, VMT_EIO,
	                "write failed, trace data dropped: Bad file descriptor");
	close(fd);
	test_big_record();
	test_layout();

	ok(vmt_writer_open("/nonexistent/dir/t.lz4", NULL, &err) == NULL && err == VMT_EIO,
	   "vmt_writer_open in a missing directory fails with VMT_EIO");
	ok(vmt_writer_fdopen(-1, 1, 1, NULL) == NULL, "fdopen(-1) fails");
	is_int(vmt_write(NULL, NULL), VMT_EINVAL, "vmt_write(NULL) is VMT_EINVAL");
	{
		struct vmt_writer *w = vmt_writer_fdopen(1, 1, 1, NULL);
		struct vmt_record rec = { .type = 99 };
		is_int(vmt_write(w, &rec), VMT_EINVAL, "an unknown record type is VMT_EINVAL");
		is_int(vmt_writer_close(w), 0, "closing an empty writer writes nothing");
	}
	return done_testing();
}
