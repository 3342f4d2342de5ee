/* vmt_reader.c - open a trace, check its header, and return its records in
 * file order (one chunk at a time) or in global seq order (vmt_merge.c).
 * Chunks are read with pread into per-chunk buffers, so memory is bounded
 * by the chunks open at once, never by the length of the trace. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vmt_order.h"
#include "vmt_reader_int.h"

static __thread char open_msg[MSG_SIZE];

const char *vmt_reader_open_error(void)
{
	return open_msg;
}

const char *vmt_reader_error(const struct vmt_reader *r)
{
	return r ? r->msg : open_msg;
}

/* ---- file order ------------------------------------------------------ */

static int next_file_order(struct vmt_reader *r, struct vmt_record *rec)
{
	for (;;) {
		int ret;

		if (r->one_loaded) {
			/* straight into the caller's record: no copy */
			ret = vmt_cursor_step(&r->one, rec);
			if (ret == 1) {
				r->st.events += rec->type == VMT_REC_EVENT;
				r->st.records++;
				return 1;
			}
			if (ret < 0)
				return vmt_rd_step_error(r, ret, &r->one);
			r->one_loaded = 0;
			r->off += r->one.size;
			r->st.good_bytes += r->one.size;
		}
		ret = vmt_rd_next_chunk(r, &r->one, r->st.chunks, r->msg);
		if (ret == 1) {
			r->one_loaded = 1;
			r->st.chunks++;
			continue;
		}
		if (ret == VMT_ETRUNCATED)
			r->st.lost_bytes = r->size - r->off;
		r->st.lost_bytes += r->damaged;
		if (ret == 0 && r->damaged)
			ret = vmt_rd_damage_error(r, r->msg);
		return r->status = ret;
	}
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
		return vmt_rd_set_error(open_msg, r->path, VMT_EEMPTY, "empty file");
	if (vmt_rd_read_at(r, 0, head, n)) {
		memcpy(open_msg, r->msg, MSG_SIZE);
		return VMT_EIO;
	}
	if (n >= 4 && vmt_get32(head) == LZ4F_MAGIC)
		return vmt_rd_set_error(open_msg, r->path, VMT_EFOREIGN,
		                 "not a vmrec trace (a plain LZ4 file, no vmrec header)");
	for (size_t i = 0; i < n && i < sizeof(sig); i++)
		if ((i < 4 || i >= 8) && head[i] != sig[i])
			return vmt_rd_set_error(open_msg, r->path, VMT_EFOREIGN,
			                 "not a vmrec trace (bad magic)");
	vmt_frame_peek(head, n, r->size, &f);
	switch (f.kind) {
	case VMT_FRAME_HEADER:
		break;
	case VMT_FRAME_VERSION:
		return vmt_rd_set_error(open_msg, r->path, VMT_EVERSION,
		                 "trace format version %u is not supported (this reader reads versions %d to %d)",
		                 f.version, VMT_FORMAT_OLDEST, VMT_FORMAT_VERSION);
	case VMT_FRAME_TRUNCATED:
		return vmt_rd_set_error(open_msg, r->path, VMT_ETRUNCATED,
		                 "truncated inside the header (%llu bytes)",
		                 (unsigned long long)r->size);
	case VMT_FRAME_BAD:
		return vmt_rd_set_error(open_msg, r->path, VMT_ECORRUPT, "corrupt header: %s", f.why);
	default:
		return vmt_rd_set_error(open_msg, r->path, VMT_ECORRUPT,
		                 "corrupt header: the first frame is not the header");
	}
	if (!(r->header_buf = malloc((size_t)f.size)))
		return vmt_rd_set_error(open_msg, r->path, VMT_ENOMEM, "out of memory");
	if (vmt_rd_read_at(r, 0, r->header_buf, (size_t)f.size)) {
		memcpy(open_msg, r->msg, MSG_SIZE);
		return VMT_EIO;
	}
	vmt_frame_at(r->header_buf, f.size, 0, &f);
	if (f.kind != VMT_FRAME_HEADER)
		return vmt_rd_set_error(open_msg, r->path, VMT_ECORRUPT, "corrupt header: %s",
		                 f.why ? f.why : "bad frame");
	p = f.body;
	if (vmt_meta_decode(&p, f.body_end, &rec, &index, &r->header_scratch, NULL) ||
	    rec.type != VMT_REC_HEADER || p != f.body_end)
		return vmt_rd_set_error(open_msg, r->path, VMT_ECORRUPT,
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
		*err = vmt_rd_set_error(open_msg, "(null)", VMT_EINVAL, "no path");
		return NULL;
	}
	/* O_NONBLOCK: a FIFO is refused below, not waited for in open() */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*err = vmt_rd_set_error(open_msg, path, VMT_EIO, "%s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*err = vmt_rd_set_error(open_msg, path, VMT_EIO, "%s",
		                 S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->path = strdup(path))) {
		free(r);
		close(fd);
		*err = vmt_rd_set_error(open_msg, path, VMT_ENOMEM, "out of memory");
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
			ret = vmt_rd_set_error(open_msg, path, VMT_ENOMEM, "out of memory");
		else if ((ret = vmt_rd_build_index(r)))
			memcpy(open_msg, r->msg, MSG_SIZE);
		else if (!(r->ord = vmt_order_new(r->header.host.page_size)))
			ret = vmt_rd_set_error(open_msg, path, VMT_ENOMEM, "out of memory");
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
	if (r->order == VMT_ORDER_FILE)
		return r->status ? r->status : next_file_order(r, rec);
	/* the order hands out what waits before the merge's end or error */
	return vmt_order_next(r->ord, r, rec);
}

void vmt_reader_order_stats(const struct vmt_reader *r, struct vmt_order_stats *st)
{
	vmt_order_stats(r ? r->ord : NULL, st);
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
		free_cursor(r->heap[i].c);
	for (size_t i = 0; i < r->npool; i++)
		free_cursor(r->pool[i]);
	free(r->heap);
	free(r->pool);
	vmt_order_free(r->ord);
	free(r->index);
	free(r->header_buf);
	vmt_scratch_free(&r->header_scratch);
	if (r->fd >= 0)
		close(r->fd);
	free(r->path);
	free(r);
}
