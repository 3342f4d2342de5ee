/* vmt_writer.c - buffer one thread's records and append them as whole
 * chunks with one write(2) each.  Runs inside the recorded program (the
 * shim): with a custom allocator it calls no malloc, stdio or locks, and the
 * flush path is only computation plus write(2). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include "vmt_event.h"
#include "vmt_format.h"
#include "vmt_lz4frame.h"
#include "vmt_meta.h"

/* Events wait here as they came and are encoded QUEUE at a time: the
 * encoder (a few hundred instructions and the predictor's state) then runs
 * warm, where the shim otherwise ran it cold after every system call.
 * Every other record, a flush and a close encode them first, so the
 * stream is byte for byte what encoding each event at once would give. */
#define QUEUE 32

struct vmt_writer {
	int fd, owns_fd;
	struct vmt_output *output;   /* vmt_writer_open's: renamed into place at close */
	struct vmt_sink sink;        /* put.NULL: write(2) to fd */
	int32_t pid, tid;
	struct vmt_alloc alloc;
	int level;

	uint8_t *ev;                 /* encoded events of the open chunk */
	size_t ev_len, ev_cap;
	uint8_t *out;                /* [chunk prefix][metadata][LZ4 frame] */
	size_t out_cap, meta_len, meta_cap;
	void *lz4_state;
	size_t lz4_state_size;

	struct vmt_meta_ctx mctx;    /* the open chunk's metadata coding state */
	unsigned nqueued;
	int chunk_open;              /* a record is buffered */
	int chunk_has_seq;           /* ... and one of them has a seq */
	uint32_t nevents, nmeta;
	uint64_t first_seq, last_seq, next_seq;

	int err;                     /* first error, VMT_E* */
	uint64_t dropped;            /* records refused after it */
	char msg[200];

	/* written before they are read: a new writer leaves their ~9 KiB
	 * untouched (under the vmrec launcher its records go to the store's
	 * slab, and most writers never use them) */
	struct vmt_predictor pred;
	struct vmt_event queue[QUEUE];
};

/* vmt_writer_fdopen zeroes the fields before msg: those after it are
 * written before they are read, and only the zeroed ones (one page) are
 * touched when a writer is made */
_Static_assert(offsetof(struct vmt_writer, msg) < 4096 - 200 &&
               offsetof(struct vmt_writer, pred) > offsetof(struct vmt_writer, msg) &&
               offsetof(struct vmt_writer, queue) > offsetof(struct vmt_writer, msg),
               "vmt_writer's layout");

static void *default_alloc(size_t size, void *opaque)
{
	(void)opaque;
	return malloc(size);
}

static void default_free(void *ptr, size_t size, void *opaque)
{
	(void)size, (void)opaque;
	free(ptr);
}

static const struct vmt_alloc malloc_alloc = { default_alloc, default_free, NULL };

/* ---- error messages without stdio ---------------------------------- */
static char *append(char *p, char *end, const char *s)
{
	while (*s && p < end - 1)
		*p++ = *s++;
	*p = 0;
	return p;
}

static char *append_u(char *p, char *end, uint64_t v)
{
	char digits[24], *d = digits + sizeof(digits) - 1;
	*d = 0;
	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	return append(p, end, d);
}

static int fail(struct vmt_writer *w, int err, const char *what, int sys_errno)
{
	char *p = w->msg, *end = w->msg + sizeof(w->msg);
	const char *desc = sys_errno ? strerrordesc_np(sys_errno) : NULL;

	if (w->err)
		return w->err;
	w->err = err;
	if (w->sink.put) {
		p = append(p, end, "trace store: ");
	} else {
		p = append(p, end, "trace fd ");
		p = append_u(p, end, (uint64_t)w->fd);
		p = append(p, end, ": ");
	}
	p = append(p, end, what);
	if (desc) {
		p = append(p, end, ": ");
		append(p, end, desc);
	}
	return err;
}

const char *vmt_writer_error(const struct vmt_writer *w)
{
	return w ? w->msg : "no writer";
}

/* ---- buffers --------------------------------------------------------- */
static int alloc_buffers(struct vmt_writer *w, size_t meta_cap)
{
	size_t out_cap = VMT_CHUNK_PREFIX + meta_cap + vmt_lz4f_bound(w->ev_cap);
	uint8_t *out = w->alloc.alloc(out_cap, w->alloc.opaque);

	if (!out)
		return VMT_ENOMEM;
	if (w->out) {
		memcpy(out, w->out, VMT_CHUNK_PREFIX + w->meta_len);
		w->alloc.free(w->out, w->out_cap, w->alloc.opaque);
	}
	w->out = out;
	w->out_cap = out_cap;
	w->meta_cap = meta_cap;
	return 0;
}

static void free_all(struct vmt_writer *w)
{
	const struct vmt_alloc a = w->alloc;
	if (w->out)
		a.free(w->out, w->out_cap, a.opaque);
	if (w->ev)
		a.free(w->ev, w->ev_cap, a.opaque);
	if (w->lz4_state)
		a.free(w->lz4_state, w->lz4_state_size, a.opaque);
	a.free(w, sizeof(*w), a.opaque);
}

struct vmt_writer *vmt_writer_fdopen(int fd, int32_t pid, int32_t tid,
                                     const struct vmt_writer_prefs *prefs)
{
	static const struct vmt_writer_prefs defaults;
	const struct vmt_alloc *a;
	struct vmt_writer *w;
	size_t chunk;

	if (!prefs)
		prefs = &defaults;
	a = prefs->alloc ? prefs->alloc : &malloc_alloc;
	chunk = prefs->chunk_bytes ? prefs->chunk_bytes : VMT_CHUNK_DEFAULT;
	if (chunk < VMT_CHUNK_MIN)
		chunk = VMT_CHUNK_MIN;
	if (chunk > VMT_CHUNK_MAX)
		chunk = VMT_CHUNK_MAX;
	if ((fd < 0 && !prefs->sink) || !a->alloc || !a->free)
		return NULL;
	w = a->alloc(sizeof(*w), a->opaque);
	if (!w)
		return NULL;
	/* every field but the ~9 KiB that are written before they are read:
	 * the predictor (note_seq sets it up at each chunk's first seq), the
	 * queue and the message; the recorder's fresh pages after the first
	 * stay untouched */
	memset(w, 0, offsetof(struct vmt_writer, msg));
	w->msg[0] = 0;
	w->fd = fd;
	if (prefs->sink)
		w->sink = *prefs->sink;
	w->pid = pid;
	w->tid = tid;
	w->alloc = *a;
	w->level = prefs->compression_level;
	w->ev_cap = chunk;
	w->lz4_state_size = vmt_lz4f_state_size(w->level);
	w->ev = a->alloc(w->ev_cap, a->opaque);
	w->lz4_state = a->alloc(w->lz4_state_size, a->opaque);
	if (!w->ev || !w->lz4_state || alloc_buffers(w, chunk)) {
		free_all(w);
		return NULL;
	}
	return w;
}

/* not thread-local: this file is linked into the recorder, whose TLS would
 * grow every recorded thread */
static char open_msg[PATH_MAX + 64];

const char *vmt_writer_open_error(void)
{
	return open_msg;
}

struct vmt_writer *vmt_writer_open(const char *path,
                                   const struct vmt_writer_prefs *prefs,
                                   int *err)
{
	struct vmt_output *o = malloc(sizeof(*o));
	int fd = o ? vmt_output_open(o, path, VMT_OUTPUT_MODE_PRIVATE) : -ENOMEM;
	int e = VMT_ENOMEM;
	struct vmt_writer *w = NULL;

	if (fd < 0) {
		e = fd == -ENOSPC || fd == -EDQUOT ? VMT_ENOSPC : fd == -ENOMEM ? VMT_ENOMEM : VMT_EIO;
		snprintf(open_msg, sizeof(open_msg), "%s: cannot write: %s", path ? path : "",
		         vmt_output_error(fd));
	} else if (!(w = vmt_writer_fdopen(fd, getpid(), gettid(), prefs))) {
		vmt_output_abort(o);
		snprintf(open_msg, sizeof(open_msg), "%s: cannot write: %s", path, vmt_strerror(e));
	}
	if (!w) {
		free(o);
		if (err)
			*err = e;
		return NULL;
	}
	w->output = o;
	open_msg[0] = 0;
	if (err)
		*err = 0;
	return w;
}

/* ---- output ---------------------------------------------------------- */
static int write_out(struct vmt_writer *w, const uint8_t *buf, size_t len, uint32_t nrecords)
{
	if (w->sink.put) {
		int ret = w->sink.put(w->sink.opaque, buf, len, nrecords);
		return ret ? fail(w, ret, "the trace store is full, trace data dropped", 0) : 0;
	}
	while (len) {
		ssize_t n = write(w->fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;
			int code = (e == ENOSPC || e == EDQUOT || e == EFBIG) ? VMT_ENOSPC : VMT_EIO;
			return fail(w, code, "write failed, trace data dropped", e);
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The skippable frame head: magic, size, "VMRC", version, kind, checksum. */
static void put_skip_head(uint8_t *p, int kind, size_t body_len)
{
	vmt_put32(p, LZ4F_SKIP_MAGIC);
	vmt_put32(p + 4, (uint32_t)(VMT_PAYLOAD_HDR + body_len));
	memcpy(p + 8, VMT_SIGNATURE, 4);
	vmt_put32(p + 12, VMT_FORMAT_VERSION);
	p[16] = (uint8_t)kind;
	p[17] = p[18] = p[19] = 0;
	vmt_put32(p + 20, vmt_xxh32(p + 24, body_len, 0));
}

static void reset_chunk(struct vmt_writer *w)
{
	w->chunk_open = w->chunk_has_seq = 0;
	w->ev_len = w->meta_len = 0;
	w->nevents = w->nmeta = 0;
	memset(&w->mctx, 0, sizeof(w->mctx));
}

static int drain(struct vmt_writer *w);

int vmt_writer_flush(struct vmt_writer *w)
{
	uint8_t *body, *frame;
	size_t frame_len = 0;
	int ret;

	if (!w)
		return VMT_EINVAL;
	if ((ret = drain(w)))
		return ret;
	if (!w->chunk_open || w->err) {
		reset_chunk(w);
		return w->err;
	}
	if (!w->chunk_has_seq)
		w->first_seq = w->last_seq = w->next_seq;
	body = w->out + VMT_SKIP_HDR + VMT_PAYLOAD_HDR;
	frame = w->out + VMT_CHUNK_PREFIX + w->meta_len;
	if (w->nevents)
		frame_len = vmt_lz4f_write(frame, w->ev, w->ev_len, w->lz4_state, w->level);
	vmt_put32(body, (uint32_t)w->pid);
	vmt_put32(body + 4, (uint32_t)w->tid);
	vmt_put64(body + 8, w->first_seq);
	vmt_put64(body + 16, w->last_seq);
	vmt_put32(body + 24, w->nevents);
	vmt_put32(body + 28, w->nmeta);
	vmt_put32(body + 32, (uint32_t)w->ev_len);
	vmt_put32(body + 36, (uint32_t)frame_len);
	put_skip_head(w->out, VMT_KIND_CHUNK, VMT_CHUNK_FIXED + w->meta_len);
	ret = write_out(w, w->out, VMT_CHUNK_PREFIX + w->meta_len + frame_len,
	                w->nevents + w->nmeta);
	reset_chunk(w);
	return ret;
}

/* ---- records ----------------------------------------------------- */
/* The chunk's first_seq is the seq of its first record that has one, so
 * records without a seq at its start (files, stacks) merge right before
 * it; the event predictor counts from there. */
static void note_seq(struct vmt_writer *w, uint64_t seq)
{
	if (!w->chunk_has_seq) {
		w->chunk_has_seq = 1;
		w->first_seq = w->last_seq = seq;
		vmt_predictor_init(&w->pred, seq, w->pid, w->tid);
	} else if (seq > w->last_seq) {
		w->last_seq = seq;
	}
}

static int encode_event(struct vmt_writer *w, const struct vmt_event *e)
{
	if (w->ev_len + VMT_EVENT_MAX_BYTES > w->ev_cap || w->nevents == UINT32_MAX) {
		int ret = vmt_writer_flush(w);
		if (ret)
			return ret;
	}
	w->chunk_open = 1;
	note_seq(w, e->seq);
	w->ev_len = (size_t)(vmt_event_encode(w->ev + w->ev_len, &w->pred, e) - w->ev);
	w->nevents++;
	w->next_seq = e->seq + 1;
	return 0;
}

/* Encodes the queue; on an error what is left of it counts as dropped. */
static int drain(struct vmt_writer *w)
{
	unsigned n = w->nqueued;
	w->nqueued = 0;   /* first: a flush inside encode_event drains again */
	for (unsigned i = 0; i < n; i++) {
		int ret = w->err ? w->err : encode_event(w, &w->queue[i]);
		if (ret) {
			w->dropped += n - i;
			return ret;
		}
	}
	return 0;
}

__attribute__((hot)) static int write_event(struct vmt_writer *w, const struct vmt_event *e)
{
	if (w->nqueued == QUEUE) {
		int ret = drain(w);
		if (ret) {
			w->dropped++;
			return ret;
		}
	}
	w->queue[w->nqueued++] = *e;
	return 0;
}

static int write_header(struct vmt_writer *w, const struct vmt_record *rec)
{
	size_t bound = vmt_meta_bound(rec);
	uint8_t *end;
	int ret = vmt_writer_flush(w);

	if (ret)
		return ret;
	if (bound > w->meta_cap && alloc_buffers(w, bound))
		return fail(w, VMT_ENOMEM, "out of memory for the header", 0);
	end = vmt_meta_encode(w->out + VMT_SKIP_HDR + VMT_PAYLOAD_HDR, rec, 0, NULL);
	put_skip_head(w->out, VMT_KIND_HEADER,
	              (size_t)(end - w->out) - VMT_SKIP_HDR - VMT_PAYLOAD_HDR);
	return write_out(w, w->out, (size_t)(end - w->out), 0);
}

static int write_meta(struct vmt_writer *w, const struct vmt_record *rec)
{
	size_t bound = vmt_meta_bound(rec);
	uint64_t seq;
	uint8_t *end;
	int queued = drain(w);   /* the events before it first */

	if (queued)
		return queued;
	if (w->meta_len + bound > w->meta_cap || w->nmeta == UINT32_MAX) {
		int ret = vmt_writer_flush(w);
		if (ret)
			return ret;
		if (bound > VMT_META_MAX)
			return VMT_EINVAL;
		if (bound > w->meta_cap && alloc_buffers(w, bound))
			return fail(w, VMT_ENOMEM, "out of memory for a metadata record", 0);
	}
	w->chunk_open = 1;
	if (vmt_meta_seq(rec, &seq))
		note_seq(w, seq);
	end = vmt_meta_encode(w->out + VMT_CHUNK_PREFIX + w->meta_len, rec, w->nevents, &w->mctx);
	w->meta_len = (size_t)(end - (w->out + VMT_CHUNK_PREFIX));
	w->nmeta++;
	return 0;
}

__attribute__((hot)) int vmt_write(struct vmt_writer *w, const struct vmt_record *rec)
{
	if (!w || !rec)
		return VMT_EINVAL;
	if (w->err) {
		w->dropped++;
		return w->err;
	}
	switch (rec->type) {
	case VMT_REC_EVENT:
		return write_event(w, &rec->u.event);
	case VMT_REC_HEADER:
		return write_header(w, rec);
	case VMT_REC_PROCESS: case VMT_REC_MAP: case VMT_REC_CHECKPOINT:
	case VMT_REC_FILE: case VMT_REC_MODULE: case VMT_REC_STACK:
	case VMT_REC_RESIDENCY: case VMT_REC_END: case VMT_REC_ARGV:
		return write_meta(w, rec);
	case VMT_REC_RANGES:
		if (rec->u.ranges.n > VMT_RANGES_MAX || (rec->u.ranges.n && !rec->u.ranges.ranges))
			return VMT_EINVAL;
		return write_meta(w, rec);
	case VMT_REC_LAYOUT:
		/* stored in pages: addresses the coding would change are refused */
		for (uint32_t i = 0; i < rec->u.layout.nvma; i++) {
			const struct vmt_vma *v = &rec->u.layout.vmas[i];
			if ((v->start | v->end) & (VMT_PAGE - 1) || v->end <= v->start ||
			    (i && v->start < rec->u.layout.vmas[i - 1].end))
				return VMT_EINVAL;
		}
		return write_meta(w, rec);
	}
	return VMT_EINVAL;
}

void vmt_writer_discard(struct vmt_writer *w)
{
	if (!w)
		return;
	if (w->owns_fd)
		close(w->fd);
	if (w->output) {
		vmt_output_abort(w->output);
		free(w->output);
	}
	free_all(w);
}

int vmt_writer_close(struct vmt_writer *w)
{
	int ret;

	if (!w)
		return VMT_EINVAL;
	vmt_writer_flush(w);
	ret = w->err;
	if (w->owns_fd && close(w->fd) < 0 && !ret)
		ret = VMT_EIO;
	if (w->output) {
		/* a trace that could not be written whole replaces nothing */
		int r = 0;
		if (ret)
			vmt_output_abort(w->output);
		else
			r = vmt_output_commit(w->output);
		if (r < 0)
			ret = r == -ENOSPC || r == -EDQUOT ? VMT_ENOSPC : VMT_EIO;
		free(w->output);
	}
	free_all(w);
	return ret;
}
