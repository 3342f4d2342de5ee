/* vmt_reader.c - open a trace, check its header, and return its records in
 * file order (one chunk at a time) or in global seq order (a k-way merge of
 * the chunks that overlap in seq, found through a small per-chunk index).
 * Chunks are read with pread into per-chunk buffers, so memory is bounded
 * by the chunks open at once, never by the length of the trace. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#define MSG_SIZE 512
/* Bounds on looking for good chunks after damage (see resync). */
#define RESYNC_MAX_PLACES 64
#define RESYNC_MAX_TRIES 16

struct chunk_ref {
	uint64_t off, size;
	uint64_t first_seq;
};

struct vmt_reader {
	char *path;
	int fd;
	uint64_t size;
	int order;
	struct vmt_header header;
	uint8_t *header_buf;
	struct vmt_scratch header_scratch;

	uint64_t off;              /* next frame to look at */
	uint64_t damaged;          /* bytes skipped as damaged */
	uint64_t damage_at;        /* where the first damage starts */
	unsigned damages;          /* damaged regions */
	char damage_why[96];       /* what was wrong there */
	int status;                /* 0, or the error every later call returns */
	struct vmt_reader_stats st;
	char msg[MSG_SIZE];

	/* file order */
	struct vmt_cursor one;
	int one_loaded;
	uint64_t one_size;         /* bytes of the chunk it holds */

	/* seq order */
	struct chunk_ref *index;
	size_t nindex, next_index;
	int scan_status;           /* what ended the index scan */
	uint64_t scan_lost;
	char scan_msg[MSG_SIZE];
	struct vmt_cursor **heap;  /* min-heap on (key, ordinal) */
	size_t nheap;
	struct vmt_cursor **pool;  /* finished cursors, buffers kept */
	size_t npool;
	struct vmt_cursor *last;   /* returned last time: advance it first */
};

static __thread char open_msg[MSG_SIZE];

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
	int n = snprintf(buf, MSG_SIZE, "%s: ", path);
	if (n < 0 || n >= MSG_SIZE)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(buf + n, (size_t)(MSG_SIZE - n), fmt, ap);
	va_end(ap);
	return err;
}

#define FAIL(r, err, ...) ((r)->status = set_error((r)->msg, (r)->path, (err), __VA_ARGS__))

/* ---- reading the file ------------------------------------------------ */

static int read_at(struct vmt_reader *r, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t n = pread(r->fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return set_error(r->msg, r->path, VMT_EIO, "read at byte %llu: %s",
			                 (unsigned long long)(off + done),
			                 n < 0 ? strerror(errno) : "the file shrank");
		done += (size_t)n;
	}
	return 0;
}

static int reserve(uint8_t **buf, size_t *cap, uint64_t n)
{
	uint8_t *p;
	if (n <= *cap)
		return 0;
	p = realloc(*buf, (size_t)n);
	if (!p)
		return VMT_ENOMEM;
	*buf = p;
	*cap = (size_t)n;
	return 0;
}

/* Describe frame problem f at r->off in msg; returns the error code. */
static int frame_error(struct vmt_reader *r, const struct vmt_frame *f, char *msg)
{
	switch (f->kind) {
	case VMT_FRAME_TRUNCATED:
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
	}
	return set_error(msg, r->path, VMT_ECORRUPT, "corrupt at byte %llu: %s",
	                 (unsigned long long)r->off, f->why ? f->why : "bad frame");
}

/* Look at the frame at r->off, skipping foreign skippable frames. */
static int peek(struct vmt_reader *r, struct vmt_frame *f)
{
	for (;;) {
		uint8_t head[VMT_FRAME_PEEK];
		uint64_t remaining = r->size - r->off;
		size_t n = remaining < sizeof(head) ? (size_t)remaining : sizeof(head);
		int ret = read_at(r, r->off, head, n);

		if (ret)
			return ret;
		vmt_frame_peek(head, n, remaining, f);
		if (f->kind != VMT_FRAME_OTHER)
			return 0;
		r->off += f->size;
	}
}

/* Read the chunk of size bytes at off into c and check it whole (frame
 * checksum, LZ4 frame, content checksum): 0, VMT_ECORRUPT with *why,
 * VMT_ENOMEM or VMT_EIO. */
static int try_load(struct vmt_reader *r, struct vmt_cursor *c, uint64_t off,
                    uint64_t size, uint64_t ordinal, const char **why)
{
	struct vmt_frame f;
	int ret;

	if (reserve(&c->raw, &c->raw_cap, size))
		return VMT_ENOMEM;
	if ((ret = read_at(r, off, c->raw, (size_t)size)))
		return ret;
	vmt_frame_at(c->raw, size, 0, &f);
	if (f.kind != VMT_FRAME_CHUNK || f.size != size) {
		*why = f.why ? f.why : "the chunk changed while reading";
		return VMT_ECORRUPT;
	}
	c->offset = off;
	c->size = size;
	ret = vmt_cursor_load(c, &f.chunk, ordinal);
	if (ret == VMT_ECORRUPT)
		*why = c->why ? c->why : "bad data";
	return ret;
}

/* The bytes [r->off, ...) do not hold a good chunk: find the next one that
 * does (a chunk cut short by a killed writer or a full disk, with other
 * writers' chunks after it), or the end of the file. */
static int resync(struct vmt_reader *r, struct vmt_cursor *c, const char *why)
{
	static const uint8_t sig[12] = { 'V', 'M', 'R', 'C', 1, 0, 0, 0, VMT_KIND_CHUNK, 0, 0, 0 };
	uint8_t win[65536];
	uint64_t bad = r->off, pos = r->off + 1;
	int tries = 0;

	if (!r->damages++) {
		r->damage_at = bad;
		snprintf(r->damage_why, sizeof(r->damage_why), "%s", why);
	}
	/* real damage is rare and the signature is 16 bytes: a file that needs
	 * more looking than this was made to, and the rest counts as damaged */
	if (r->damages > RESYNC_MAX_PLACES)
		pos = r->size;
	while (pos + VMT_CHUNK_PREFIX <= r->size && tries < RESYNC_MAX_TRIES) {
		size_t n = r->size - pos < sizeof(win) ? (size_t)(r->size - pos) : sizeof(win);
		int ret = read_at(r, pos, win, n);
		if (ret)
			return ret;
		for (size_t i = 0; i + VMT_SKIP_HDR + sizeof(sig) <= n; i++) {
			struct vmt_frame f;
			const char *w;
			if (win[i] != 0x5E || memcmp(win + i + VMT_SKIP_HDR, sig, sizeof(sig)) ||
			    vmt_get32(win + i) != LZ4F_SKIP_MAGIC)
				continue;
			if (++tries > RESYNC_MAX_TRIES)
				break;
			r->off = pos + i;
			if ((ret = peek(r, &f)))
				return ret;
			if (f.kind == VMT_FRAME_TRUNCATED ||
			    (f.kind == VMT_FRAME_CHUNK &&
			     (ret = try_load(r, c, r->off, f.size, 0, &w)) != VMT_ECORRUPT)) {
				if (ret && ret != VMT_ECORRUPT)
					return ret;
				r->damaged += r->off - bad;
				return 0;
			}
		}
		pos += n - (VMT_SKIP_HDR + sizeof(sig) - 1);
	}
	r->off = r->size;
	r->damaged += r->size - bad;
	return 0;
}

/* Find the next good chunk from r->off on and load it into c: 1, 0 at the
 * end, or an error described in msg.  Damaged stretches are skipped and
 * counted; the caller reports them at the end. */
static int next_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t ordinal,
                      char *msg)
{
	for (;;) {
		struct vmt_frame f;
		const char *why = NULL;
		int ret = peek(r, &f);

		if (!ret) {
			switch (f.kind) {
			case VMT_FRAME_END:
				return 0;
			case VMT_FRAME_CHUNK:
				ret = try_load(r, c, r->off, f.size, ordinal, &why);
				if (!ret)
					return 1;
				break;
			case VMT_FRAME_BAD:
				ret = VMT_ECORRUPT;
				why = f.why;
				break;
			default:
				return frame_error(r, &f, msg);
			}
		}
		if (ret == VMT_ECORRUPT)
			ret = resync(r, c, why);
		if (ret == VMT_ENOMEM)
			return set_error(msg, r->path, ret, "out of memory for the chunk at byte %llu",
			                 (unsigned long long)r->off);
		if (ret) {
			memcpy(msg, r->msg, MSG_SIZE);
			return ret;
		}
	}
}

/* The end of a trace with damaged stretches in it. */
static int damage_error(struct vmt_reader *r, char *msg)
{
	return set_error(msg, r->path, VMT_ECORRUPT,
	                 "corrupt at byte %llu: %s (%llu damaged bytes in %u place%s skipped, the rest read)",
	                 (unsigned long long)r->damage_at, r->damage_why,
	                 (unsigned long long)r->damaged, r->damages, r->damages == 1 ? "" : "s");
}

/* Read the chunk at off, already checked by the index scan, into c. */
static int load_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t off,
                      uint64_t size, uint64_t ordinal)
{
	const char *why = NULL;
	int ret = try_load(r, c, off, size, ordinal, &why);

	if (ret == VMT_ENOMEM)
		return FAIL(r, ret, "out of memory for the chunk at byte %llu",
		            (unsigned long long)off);
	if (ret == VMT_ECORRUPT)
		return FAIL(r, ret, "corrupt chunk at byte %llu: %s", (unsigned long long)off, why);
	if (ret)
		return r->status = ret;
	r->st.chunks++;
	return 0;
}

static int step_error(struct vmt_reader *r, int err, const struct vmt_cursor *c)
{
	if (err == VMT_ENOMEM)
		return FAIL(r, err, "out of memory");
	return FAIL(r, err, "corrupt chunk at byte %llu: %s", (unsigned long long)c->offset,
	            c->why ? c->why : "bad data");
}

/* The record without copying the whole union (it is mostly events). */
static void deliver(struct vmt_reader *r, struct vmt_record *dst,
                    const struct vmt_record *src)
{
	if (src->type == VMT_REC_EVENT) {
		dst->type = VMT_REC_EVENT;
		dst->u.event = src->u.event;
		r->st.events++;
	} else {
		*dst = *src;
	}
	r->st.records++;
}

/* ---- file order ------------------------------------------------------ */

static int next_file_order(struct vmt_reader *r, struct vmt_record *rec)
{
	for (;;) {
		int ret;

		if (r->one_loaded) {
			ret = vmt_cursor_step(&r->one);
			if (ret == 1) {
				deliver(r, rec, &r->one.cur);
				return 1;
			}
			if (ret < 0)
				return step_error(r, ret, &r->one);
			r->one_loaded = 0;
			r->off += r->one.size;
			r->st.good_bytes += r->one.size;
		}
		ret = next_chunk(r, &r->one, r->st.chunks, r->msg);
		if (ret == 1) {
			r->one_loaded = 1;
			r->st.chunks++;
			continue;
		}
		if (ret == VMT_ETRUNCATED)
			r->st.lost_bytes = r->size - r->off;
		r->st.lost_bytes += r->damaged;
		if (ret == 0 && r->damaged)
			ret = damage_error(r, r->msg);
		return r->status = ret;
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

/* Index every good chunk: offset, size and first seq, 24 bytes per chunk
 * (a 64 KiB chunk holds thousands of events).  Every chunk is checked
 * whole here, so damage is skipped the same way as in file order. */
static int build_index(struct vmt_reader *r)
{
	struct vmt_cursor *c = &r->one;
	size_t cap = 0;
	int ret;

	while ((ret = next_chunk(r, c, 0, r->scan_msg)) == 1) {
		if (r->nindex == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct chunk_ref *n = realloc(r->index, ncap * sizeof(*n));
			if (!n)
				return FAIL(r, VMT_ENOMEM, "out of memory for the chunk index");
			r->index = n;
			cap = ncap;
		}
		r->index[r->nindex].off = r->off;
		r->index[r->nindex].size = c->size;
		r->index[r->nindex].first_seq = c->key;
		r->nindex++;
		r->off += c->size;
		r->st.good_bytes += c->size;
	}
	vmt_cursor_free(c);
	if (ret == VMT_EIO || ret == VMT_ENOMEM) {
		memcpy(r->msg, r->scan_msg, MSG_SIZE);
		return r->status = ret;
	}
	if (ret == VMT_ETRUNCATED)
		r->scan_lost = r->size - r->off;
	r->scan_lost += r->damaged;
	if (ret == 0 && r->damaged)
		ret = damage_error(r, r->scan_msg);
	r->scan_status = ret;
	if (r->nindex)
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
		struct vmt_cursor *t;
		if (l < r->nheap && before(r->heap[l], r->heap[m]))
			m = l;
		if (l + 1 < r->nheap && before(r->heap[l + 1], r->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		t = r->heap[i];
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
	r->pool[r->npool++] = r->heap[0];
	r->heap[0] = r->heap[--r->nheap];
	sift_down(r, 0);
}

/* Load the next indexed chunk and put it on the heap. */
static int open_next_chunk(struct vmt_reader *r)
{
	const struct chunk_ref *ref = &r->index[r->next_index++];
	struct vmt_cursor *c;
	int ret;

	if (r->nheap >= VMT_MAX_OPEN_CHUNKS)
		return FAIL(r, VMT_ECORRUPT,
		            "more than %d chunks overlap in seq at byte %llu; read it in file order",
		            VMT_MAX_OPEN_CHUNKS, (unsigned long long)ref->off);
	if (r->npool) {
		c = r->pool[--r->npool];
	} else if (!(c = calloc(1, sizeof(*c)))) {
		return FAIL(r, VMT_ENOMEM, "out of memory");
	}
	ret = load_chunk(r, c, ref->off, ref->size, ref->off);
	if (ret == 0 && (ret = vmt_cursor_step(c)) < 0)
		step_error(r, ret, c);
	if (ret <= 0) {
		r->pool[r->npool++] = c;
		return ret;
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
			return step_error(r, ret, r->last);
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
		if (r->scan_status) {
			memcpy(r->msg, r->scan_msg, MSG_SIZE);
			r->st.lost_bytes = r->scan_lost;
		}
		return r->status = r->scan_status;
	}
	r->last = r->heap[0];
	deliver(r, rec, &r->last->cur);
	return 1;
}

/* ---- open / close ---------------------------------------------------- */

static int check_header(struct vmt_reader *r)
{
	static const uint8_t sig[12] = { 0x5E, 0x2A, 0x4D, 0x18, 0, 0, 0, 0, 'V', 'M', 'R', 'C' };
	uint8_t head[VMT_FRAME_PEEK];
	size_t n = r->size < sizeof(head) ? (size_t)r->size : sizeof(head);
	struct vmt_frame f;
	struct vmt_record rec;
	const uint8_t *p;
	uint64_t index;

	if (r->size == 0)
		return set_error(open_msg, r->path, VMT_EEMPTY, "empty file");
	if (read_at(r, 0, head, n)) {
		memcpy(open_msg, r->msg, MSG_SIZE);
		return VMT_EIO;
	}
	if (n >= 4 && vmt_get32(head) == LZ4F_MAGIC)
		return set_error(open_msg, r->path, VMT_EFOREIGN,
		                 "not a vmrec trace (a plain LZ4 file, no vmrec header)");
	for (size_t i = 0; i < n && i < sizeof(sig); i++)
		if ((i < 4 || i >= 8) && head[i] != sig[i])
			return set_error(open_msg, r->path, VMT_EFOREIGN,
			                 "not a vmrec trace (bad magic)");
	vmt_frame_peek(head, n, r->size, &f);
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
	if (!(r->header_buf = malloc((size_t)f.size)))
		return set_error(open_msg, r->path, VMT_ENOMEM, "out of memory");
	if (read_at(r, 0, r->header_buf, (size_t)f.size)) {
		memcpy(open_msg, r->msg, MSG_SIZE);
		return VMT_EIO;
	}
	vmt_frame_at(r->header_buf, f.size, 0, &f);
	if (f.kind != VMT_FRAME_HEADER)
		return set_error(open_msg, r->path, VMT_ECORRUPT, "corrupt header: %s",
		                 f.why ? f.why : "bad frame");
	p = f.body;
	if (vmt_meta_decode(&p, f.body_end, &rec, &index, &r->header_scratch) ||
	    rec.type != VMT_REC_HEADER || p != f.body_end)
		return set_error(open_msg, r->path, VMT_ECORRUPT,
		                 "corrupt header: the header record does not decode");
	r->header = rec.u.header;
	r->off = f.size;
	r->st.good_bytes = f.size;
	return 0;
}

struct vmt_reader *vmt_reader_open(const char *path,
                                   const struct vmt_reader_prefs *prefs,
                                   int *err)
{
	static int ignored;
	struct vmt_reader *r;
	struct stat st;
	int fd, ret;

	if (!err)
		err = &ignored;
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
	r->fd = fd;
	r->order = prefs ? prefs->order : VMT_ORDER_SEQ;
	r->size = (uint64_t)st.st_size;
	r->st.file_bytes = r->size;
	if (r->order == VMT_ORDER_FILE)
		posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	ret = check_header(r);
	if (!ret && r->order != VMT_ORDER_FILE) {
		r->heap = calloc(VMT_MAX_OPEN_CHUNKS, sizeof(*r->heap));
		r->pool = calloc(VMT_MAX_OPEN_CHUNKS + 1, sizeof(*r->pool));
		if (!r->heap || !r->pool)
			ret = set_error(open_msg, path, VMT_ENOMEM, "out of memory");
		else if ((ret = build_index(r)))
			memcpy(open_msg, r->msg, MSG_SIZE);
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
	if (r->order != VMT_ORDER_FILE)
		st->lost_bytes = r->scan_lost;
}

static void free_cursor(struct vmt_cursor *c)
{
	vmt_cursor_free(c);
	free(c);
}

void vmt_reader_close(struct vmt_reader *r)
{
	if (!r)
		return;
	vmt_cursor_free(&r->one);
	for (size_t i = 0; i < r->nheap; i++)
		free_cursor(r->heap[i]);
	for (size_t i = 0; i < r->npool; i++)
		free_cursor(r->pool[i]);
	free(r->heap);
	free(r->pool);
	free(r->index);
	free(r->header_buf);
	vmt_scratch_free(&r->header_scratch);
	if (r->fd >= 0)
		close(r->fd);
	free(r->path);
	free(r);
}
