/* vmt_reader.c - open a trace, check its header, and return its records in
 * file order (one chunk at a time) or in global seq order (a k-way merge of
 * the chunks that overlap in seq, found through a small per-chunk index). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vmt_cursor.h"
#include "vmt_format.h"
#include "vmt_frames.h"
#include "vmt_meta.h"

/* Seq order keeps every chunk whose seq range is open; refuse traces that
 * would need more than this many at once (a sane trace has about one per
 * recorded thread). */
#define VMT_MAX_OPEN_CHUNKS 4096
#define DONTNEED_STEP ((uint64_t)64 << 20)

struct chunk_ref {
	uint64_t off;
	uint64_t first_seq;
};

struct vmt_reader {
	char *path;
	const uint8_t *data;
	uint64_t size;
	int order;
	struct vmt_header header;
	struct vmt_scratch header_scratch;

	uint64_t off;              /* next frame to look at */
	uint64_t released;         /* file order: mapping dropped below this */
	int status;                /* 0, or the error every later call returns */
	int done;
	struct vmt_reader_stats st;
	char msg[512];

	/* file order */
	struct vmt_cursor one;
	int one_loaded;
	uint64_t one_size;         /* bytes of the chunk it holds */

	/* seq order */
	struct chunk_ref *index;
	size_t nindex, next_index;
	int scan_status;           /* what ended the index scan */
	char scan_msg[512];
	struct vmt_cursor **heap;  /* min-heap on (key, ordinal) */
	size_t nheap;
	struct vmt_cursor **pool;  /* finished cursors, buffers kept */
	size_t npool;
	struct vmt_cursor *last;   /* returned last time: advance it first */
};

static __thread char open_msg[512];

const char *vmt_reader_open_error(void)
{
	return open_msg;
}

const char *vmt_reader_error(const struct vmt_reader *r)
{
	return r ? r->msg : open_msg;
}

__attribute__((format(printf, 4, 5)))
static int set_error(char *buf, const char *path, int err, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, 512, "%s: ", path);
	va_start(ap, fmt);
	vsnprintf(buf + n, (size_t)(512 - n), fmt, ap);
	va_end(ap);
	return err;
}

static int reader_fail(struct vmt_reader *r, int err, const char *fmt, const char *why,
                       uint64_t off)
{
	set_error(r->msg, r->path, err, fmt, why, (unsigned long long)off);
	r->status = err;
	return err;
}

/* ---- frame walking shared by both orders ----------------------------- */

/* Advance r->off to the next chunk; 1 with *f filled, 0 at the end, or an
 * error with msg set. */
static int next_chunk(struct vmt_reader *r, struct vmt_frame *f, char *msg)
{
	for (;;) {
		vmt_frame_at(r->data, r->size, r->off, f);
		switch (f->kind) {
		case VMT_FRAME_END:
			return 0;
		case VMT_FRAME_CHUNK:
			return 1;
		case VMT_FRAME_OTHER:
			r->off += f->size;
			continue;
		case VMT_FRAME_TRUNCATED:
			r->st.lost_bytes = r->size - r->off;
			return set_error(msg, r->path, VMT_ETRUNCATED,
			                 "truncated: the last %llu bytes (an incomplete chunk at byte %llu) were lost",
			                 (unsigned long long)(r->size - r->off),
			                 (unsigned long long)r->off);
		case VMT_FRAME_HEADER:
			return set_error(msg, r->path, VMT_ECORRUPT,
			                 "a second header at byte %llu (concatenated traces?)",
			                 (unsigned long long)r->off);
		case VMT_FRAME_VERSION:
			return set_error(msg, r->path, VMT_EVERSION,
			                 "a frame of format version %u at byte %llu (this reader reads version %d)",
			                 f->version, (unsigned long long)r->off, VMT_FORMAT_VERSION);
		default:
			return set_error(msg, r->path, VMT_ECORRUPT, "corrupt at byte %llu: %s",
			                 (unsigned long long)r->off, f->why);
		}
	}
}

static int cursor_error(struct vmt_reader *r, int err, const struct vmt_cursor *c,
                        uint64_t off)
{
	if (err == VMT_ENOMEM)
		return reader_fail(r, err, "out of memory%s at byte %llu", "", off);
	return reader_fail(r, err, "corrupt chunk: %s (at byte %llu)",
	                   c->why ? c->why : "bad data", off);
}

static void count(struct vmt_reader *r, const struct vmt_record *rec)
{
	r->st.records++;
	if (rec->type == VMT_REC_EVENT)
		r->st.events++;
}

/* ---- file order ------------------------------------------------------ */

/* Give back the pages already read so resident memory stays flat. */
static void release_behind(struct vmt_reader *r)
{
	uint64_t upto = r->off & ~(DONTNEED_STEP - 1);
	if (upto > r->released + DONTNEED_STEP) {
		madvise((void *)(r->data + r->released), upto - r->released, MADV_DONTNEED);
		r->released = upto;
	}
}

static int next_file_order(struct vmt_reader *r, struct vmt_record *rec)
{
	for (;;) {
		struct vmt_frame f;
		int ret;

		if (r->one_loaded) {
			ret = vmt_cursor_step(&r->one);
			if (ret == 1) {
				*rec = r->one.cur;
				count(r, rec);
				return 1;
			}
			if (ret < 0)
				return cursor_error(r, ret, &r->one, r->off);
			r->one_loaded = 0;
			r->off += r->one_size;
			r->st.good_bytes = r->off;
			release_behind(r);
		}
		ret = next_chunk(r, &f, r->msg);
		if (ret <= 0) {
			r->status = ret;
			return ret;
		}
		r->st.chunks++;
		ret = vmt_cursor_load(&r->one, &f.chunk, r->st.chunks);
		if (ret < 0)
			return cursor_error(r, ret, &r->one, r->off);
		r->one_loaded = 1;
		r->one_size = f.size;
	}
}

/* ---- seq order ------------------------------------------------------- */

static int cmp_ref(const void *a, const void *b)
{
	const struct chunk_ref *x = a, *y = b;
	if (x->first_seq != y->first_seq)
		return x->first_seq < y->first_seq ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Index every complete chunk: offset and first seq, 16 bytes per chunk. */
static int build_index(struct vmt_reader *r)
{
	size_t cap = 0;
	struct vmt_frame f;
	int ret;

	while ((ret = next_chunk(r, &f, r->scan_msg)) == 1) {
		if (r->nindex == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct chunk_ref *n = realloc(r->index, ncap * sizeof(*n));
			if (!n)
				return reader_fail(r, VMT_ENOMEM, "out of memory%s for the chunk index at byte %llu", "", r->off);
			r->index = n;
			cap = ncap;
		}
		r->index[r->nindex].off = r->off;
		r->index[r->nindex].first_seq = f.chunk.first_seq;
		r->nindex++;
		r->off += f.size;
	}
	r->st.good_bytes = r->off;
	r->scan_status = ret;
	qsort(r->index, r->nindex, sizeof(*r->index), cmp_ref);
	return 0;
}

static int before(const struct vmt_cursor *a, const struct vmt_cursor *b)
{
	return a->key < b->key || (a->key == b->key && a->ordinal < b->ordinal);
}

static void sift_down(struct vmt_reader *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < r->nheap && before(r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && before(r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		struct vmt_cursor *t = r->heap[i];
		r->heap[i] = r->heap[m];
		r->heap[m] = t;
		i = m;
	}
}

static void sift_up(struct vmt_reader *r, size_t i)
{
	while (i && before(r->heap[i], r->heap[(i - 1) / 2])) {
		struct vmt_cursor *t = r->heap[i];
		r->heap[i] = r->heap[(i - 1) / 2];
		r->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void heap_pop(struct vmt_reader *r)
{
	struct vmt_cursor *c = r->heap[0];
	r->heap[0] = r->heap[--r->nheap];
	sift_down(r, 0);
	r->pool[r->npool++] = c;
}

/* Load the next indexed chunk and put it on the heap. */
static int open_next_chunk(struct vmt_reader *r)
{
	const struct chunk_ref *ref = &r->index[r->next_index++];
	struct vmt_cursor *c;
	struct vmt_frame f;
	int ret;

	if (r->nheap >= VMT_MAX_OPEN_CHUNKS)
		return reader_fail(r, VMT_ECORRUPT,
		                   "more than 4096 chunks overlap in seq%s at byte %llu; read it in file order",
		                   "", ref->off);
	if (r->npool) {
		c = r->pool[--r->npool];
	} else if (!(c = calloc(1, sizeof(*c)))) {
		return reader_fail(r, VMT_ENOMEM, "out of memory%s at byte %llu", "", ref->off);
	}
	vmt_frame_at(r->data, r->size, ref->off, &f);
	r->st.chunks++;
	ret = vmt_cursor_load(c, &f.chunk, ref->off);
	if (ret == 0)
		ret = vmt_cursor_step(c);
	if (ret <= 0) {
		r->pool[r->npool++] = c;
		return ret < 0 ? cursor_error(r, ret, c, ref->off) : 0;
	}
	r->heap[r->nheap++] = c;
	sift_up(r, r->nheap - 1);
	return 0;
}

static int next_seq_order(struct vmt_reader *r, struct vmt_record *rec)
{
	if (r->last) {
		int ret = vmt_cursor_step(r->last);
		if (ret < 0)
			return cursor_error(r, ret, r->last, r->last->ordinal);
		if (ret == 0)
			heap_pop(r);
		else
			sift_down(r, 0);
		r->last = NULL;
	}
	while (r->next_index < r->nindex &&
	       (!r->nheap || r->index[r->next_index].first_seq <= r->heap[0]->key)) {
		int ret = open_next_chunk(r);
		if (ret < 0)
			return ret;
	}
	if (!r->nheap) {
		r->status = r->scan_status;
		if (r->status)
			memcpy(r->msg, r->scan_msg, sizeof(r->msg));
		return r->status;
	}
	r->last = r->heap[0];
	*rec = r->last->cur;
	count(r, rec);
	return 1;
}

/* ---- open / close ---------------------------------------------------- */

static int check_header(struct vmt_reader *r)
{
	struct vmt_frame f;
	uint64_t index;
	struct vmt_record rec;
	const uint8_t *p;

	if (r->size == 0)
		return set_error(open_msg, r->path, VMT_EEMPTY, "empty file");
	if (r->size >= 4 && vmt_get32(r->data) == LZ4F_MAGIC)
		return set_error(open_msg, r->path, VMT_EFOREIGN,
		                 "not a vmrec trace (a plain LZ4 file, no vmrec header)");
	if (r->size < 12) {
		static const uint8_t sig[12] = { 0x5E, 0x2A, 0x4D, 0x18, 0, 0, 0, 0, 'V', 'M', 'R', 'C' };
		for (uint64_t i = 0; i < r->size; i++)
			if (i < 4 || i >= 8 ? r->data[i] != sig[i] : 0)
				return set_error(open_msg, r->path, VMT_EFOREIGN,
				                 "not a vmrec trace (bad magic)");
		return set_error(open_msg, r->path, VMT_ETRUNCATED,
		                 "truncated inside the header (%llu bytes)",
		                 (unsigned long long)r->size);
	}
	if (vmt_get32(r->data) != LZ4F_SKIP_MAGIC || memcmp(r->data + 8, VMT_SIGNATURE, 4))
		return set_error(open_msg, r->path, VMT_EFOREIGN, "not a vmrec trace (bad magic)");
	vmt_frame_at(r->data, r->size, 0, &f);
	switch (f.kind) {
	case VMT_FRAME_HEADER:
		break;
	case VMT_FRAME_VERSION:
		return set_error(open_msg, r->path, VMT_EVERSION,
		                 "trace format version %u is not supported (this reader reads version %d)",
		                 f.version, VMT_FORMAT_VERSION);
	case VMT_FRAME_TRUNCATED:
		return set_error(open_msg, r->path, VMT_ETRUNCATED,
		                 "truncated inside the header (%llu bytes)",
		                 (unsigned long long)r->size);
	case VMT_FRAME_BAD:
		return set_error(open_msg, r->path, VMT_ECORRUPT, "corrupt header: %s", f.why);
	default:
		return set_error(open_msg, r->path, VMT_ECORRUPT,
		                 "corrupt header: the first frame is not the header");
	}
	p = f.body;
	if (vmt_meta_decode(&p, f.body_end, &rec, &index, &r->header_scratch) ||
	    rec.type != VMT_REC_HEADER || p != f.body_end)
		return set_error(open_msg, r->path, VMT_ECORRUPT,
		                 "corrupt header: the header record does not decode");
	r->header = rec.u.header;
	r->off = f.size;
	r->st.good_bytes = r->off;
	return 0;
}

struct vmt_reader *vmt_reader_open(const char *path,
                                   const struct vmt_reader_prefs *prefs,
                                   int *err)
{
	struct vmt_reader *r;
	struct stat st;
	int fd, ret;

	if (!err) {
		static int ignored;
		err = &ignored;
	}
	if (!path) {
		*err = set_error(open_msg, "(null)", VMT_EINVAL, "no path");
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = set_error(open_msg, path, VMT_EIO, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = set_error(open_msg, path, VMT_EIO, "%s",
		                 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		close(fd);
		*err = set_error(open_msg, path, VMT_ENOMEM, "out of memory");
		return NULL;
	}
	r->order = prefs ? prefs->order : VMT_ORDER_SEQ;
	r->size = (uint64_t)st.st_size;
	r->st.file_bytes = r->size;
	if (r->size) {
		void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED) {
			*err = set_error(open_msg, path, VMT_EIO, "mmap: %s", strerror(errno));
			close(fd);
			vmt_reader_close(r);
			return NULL;
		}
		r->data = m;
		if (r->order == VMT_ORDER_FILE)
			madvise(m, r->size, MADV_SEQUENTIAL);
	}
	close(fd);
	ret = check_header(r);
	if (!ret && r->order != VMT_ORDER_FILE) {
		ret = build_index(r);
		r->heap = calloc(VMT_MAX_OPEN_CHUNKS, sizeof(*r->heap));
		r->pool = calloc(VMT_MAX_OPEN_CHUNKS + 1, sizeof(*r->pool));
		if (!ret && (!r->heap || !r->pool))
			ret = set_error(open_msg, path, VMT_ENOMEM, "out of memory");
		else if (ret)
			memcpy(open_msg, r->msg, sizeof(open_msg));
	}
	if (ret) {
		*err = ret;
		vmt_reader_close(r);
		return NULL;
	}
	*err = 0;
	return r;
}

const struct vmt_header *vmt_reader_header(const struct vmt_reader *r)
{
	return r ? &r->header : NULL;
}

int vmt_reader_next(struct vmt_reader *r, struct vmt_record *rec)
{
	if (!r || !rec)
		return VMT_EINVAL;
	if (r->status)
		return r->status;
	if (r->order == VMT_ORDER_FILE)
		return next_file_order(r, rec);
	return next_seq_order(r, rec);
}

void vmt_reader_stats(const struct vmt_reader *r, struct vmt_reader_stats *st)
{
	if (!r) {
		memset(st, 0, sizeof(*st));
		return;
	}
	*st = r->st;
	if (r->status == VMT_ETRUNCATED || r->scan_status == VMT_ETRUNCATED)
		st->lost_bytes = r->size - st->good_bytes;
}

void vmt_reader_close(struct vmt_reader *r)
{
	if (!r)
		return;
	vmt_cursor_free(&r->one);
	for (size_t i = 0; i < r->nheap; i++) {
		vmt_cursor_free(r->heap[i]);
		free(r->heap[i]);
	}
	for (size_t i = 0; i < r->npool; i++) {
		vmt_cursor_free(r->pool[i]);
		free(r->pool[i]);
	}
	free(r->heap);
	free(r->pool);
	free(r->index);
	vmt_scratch_free(&r->header_scratch);
	if (r->data)
		munmap((void *)r->data, r->size);
	free(r->path);
	free(r);
}
