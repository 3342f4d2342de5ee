/* vmt_reader_int.h - the reader's state, shared by vmt_reader.c (open,
 * file order), vmt_chunks.c (finding and checking chunks), vmt_merge.c
 * (seq order) and vmt_reader_msg.c (their error messages).  Internal to
 * the trace library. */
#ifndef VMT_READER_INT_H
#define VMT_READER_INT_H

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

/* A merge heap entry: the cursor's key and ordinal copied beside it, so
 * comparing two entries touches one array, not two cursors. */
struct heap_ent {
	uint64_t key, ordinal;
	struct vmt_cursor *c;
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

	/* seq order */
	struct chunk_ref *index;
	size_t nindex, next_index;
	int scan_status;           /* what ended the index scan */
	uint64_t scan_lost;
	char scan_msg[MSG_SIZE];
	uint64_t next_first;       /* first seq of index[next_index], or ~0 */
	struct heap_ent *heap;     /* min-heap on (key, ordinal) */
	size_t nheap;
	struct vmt_cursor **pool;  /* finished cursors, buffers kept */
	size_t npool;
	struct vmt_cursor *last;   /* returned last time: advance it first */
	struct vmt_order *ord;     /* the order calls overlapping in time get (vmt_order.c) */
};

/* vmt_reader_msg.c: "PATH: " and the message into buf (MSG_SIZE bytes);
 * returns err. */
__attribute__((format(printf, 4, 5)))
int vmt_rd_set_error(char *buf, const char *path, int err, const char *fmt, ...);
#define FAIL(r, err, ...) ((r)->status = vmt_rd_set_error((r)->msg, (r)->path, (err), __VA_ARGS__))

/* vmt_chunks.c */
int vmt_rd_read_at(struct vmt_reader *r, uint64_t off, void *buf, size_t len);
int vmt_rd_next_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t ordinal,
                      char *msg);
int vmt_rd_damage_error(struct vmt_reader *r, char *msg);
int vmt_rd_load_chunk(struct vmt_reader *r, struct vmt_cursor *c, uint64_t off,
                      uint64_t size, uint64_t ordinal);
int vmt_rd_step_error(struct vmt_reader *r, int err, const struct vmt_cursor *c);

/* The record without copying the whole union (it is mostly events). */
static inline void vmt_rd_deliver(struct vmt_reader *r, struct vmt_record *dst,
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

/* vmt_merge.c */
int vmt_rd_build_index(struct vmt_reader *r);
int vmt_rd_next_seq_order(struct vmt_reader *r, struct vmt_record *rec);
/* The merge key of the record vmt_rd_next_seq_order returned last. */
static inline uint64_t vmt_rd_key(const struct vmt_reader *r)
{
	return r->last ? r->last->key : 0;
}

#endif
