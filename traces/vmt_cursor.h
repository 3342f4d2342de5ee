/* vmt_cursor.h - step through the records of one chunk in the order they
 * were written, each with its merge key.  Internal to the reader. */
#ifndef VMT_CURSOR_H
#define VMT_CURSOR_H

#include "vmt_format.h"
#include "vmt_frames.h"
#include "vmt_event.h"
#include "vmt_meta.h"

struct vmt_cursor {
	uint8_t *raw;                /* the chunk's bytes as read from the file */
	size_t raw_cap;
	const uint8_t *meta, *meta_end;
	uint32_t meta_left;
	uint64_t meta_at;            /* events before the next metadata record */
	uint8_t *ev;                 /* decompressed events (owned) */
	size_t ev_cap;
	const uint8_t *ev_p, *ev_end;
	uint32_t ev_left;
	uint64_t events_done;
	struct vmt_predictor pred;
	struct vmt_scratch scratch;
	struct vmt_meta_ctx mctx;    /* the chunk's metadata coding state */

	struct vmt_record cur;       /* the record the cursor is at */
	uint64_t key;                /* its seq, for merging */
	uint64_t last_seq;           /* the chunk's last seq, as its header says */
	uint64_t ordinal;            /* orders chunks of equal keys (file offset) */
	uint64_t offset, size;       /* where the chunk is in the file */
	const char *why;             /* what did not decode */
};

/* Decompress the chunk's events: 0 or a VMT_E* code (c->why says why). */
int vmt_cursor_load(struct vmt_cursor *c, const struct vmt_chunk_info *ci,
                    uint64_t ordinal);
int vmt_cursor_step_slow(struct vmt_cursor *c, struct vmt_record *out);

/* Move to the next record and decode it into *out (c->cur for merging,
 * the caller's record in file order): 1, 0 at the chunk's end, or a VMT_E*
 * code.  Inline for the common case, an event that is not the chunk's
 * last, so the readers' loops make no call per event. */
static inline int vmt_cursor_step(struct vmt_cursor *c, struct vmt_record *out)
{
	const uint8_t *p;

	if (__builtin_expect(c->meta_at <= c->events_done || c->ev_left <= 1, 0))
		return vmt_cursor_step_slow(c, out);
	p = vmt_event_decode(c->ev_p, c->ev_end, &c->pred, &out->u.event);
	if (__builtin_expect(!p, 0)) {
		c->why = "an event does not decode";
		return VMT_ECORRUPT;
	}
	c->ev_p = p;
	out->type = VMT_REC_EVENT;
	c->key = out->u.event.seq;
	c->events_done++;
	c->ev_left--;
	return 1;
}
void vmt_cursor_free(struct vmt_cursor *c);

#endif
