/* vmt_cursor.c - see vmt_cursor.h.  Metadata record k carries the number of
 * events written before it, so records come back in write order; a record
 * without its own seq (file, module, stack) keeps the key of the record
 * before it in the chunk, so it comes out no later than the records that
 * refer to it. */
#include <stdlib.h>
#include <string.h>
#include "vmt_cursor.h"
#include "vmt_event.h"
#include "vmt_lz4frame.h"

static int corrupt(struct vmt_cursor *c, const char *why)
{
	c->why = why;
	return VMT_ECORRUPT;
}

/* The event count stored before the next metadata record, without
 * decoding it; 0 if it does not decode (so the next step reports it). */
static uint64_t meta_due(const struct vmt_cursor *c)
{
	uint64_t index;

	if (!c->meta_left)
		return UINT64_MAX;
	if (vmt_meta_index(c->meta, c->meta_end, &c->mctx, &index))
		return 0;
	return index;
}

int vmt_cursor_load(struct vmt_cursor *c, const struct vmt_chunk_info *ci,
                    uint64_t ordinal)
{
	c->meta = ci->meta;
	c->meta_end = ci->meta_end;
	c->meta_left = ci->nmeta;
	c->ev_left = ci->nevents;
	c->events_done = 0;
	c->ordinal = ordinal;
	c->key = ci->first_seq;
	c->last_seq = ci->last_seq;
	c->why = NULL;
	memset(&c->mctx, 0, sizeof(c->mctx));
	c->mctx.version = ci->version;
	vmt_predictor_init(&c->pred, ci->first_seq, ci->pid, ci->tid);
	c->pred.seq_end = ci->version >= 4;
	c->meta_at = meta_due(c);
	/* the decoder may read VMT_EVENT_MAX_READ bytes past the events */
	if (ci->events_raw + VMT_EVENT_MAX_READ > c->ev_cap) {
		size_t cap = ci->events_raw + VMT_EVENT_MAX_READ;
		uint8_t *ev = realloc(c->ev, cap);
		if (!ev)
			return VMT_ENOMEM;
		c->ev = ev;
		c->ev_cap = cap;
	}
	c->ev_p = c->ev_end = c->ev;
	memset(c->ev + ci->events_raw, 0, VMT_EVENT_MAX_READ);
	if (ci->nevents) {
		long n = vmt_lz4f_read(ci->events_frame, ci->events_frame_len,
		                       c->ev, ci->events_raw, &c->why);
		if (n < 0)
			return (int)n;
		if ((uint64_t)n != ci->events_raw)
			return corrupt(c, "chunk event bytes differ from their declared size");
		c->ev_end = c->ev + n;
	}
	return 0;
}

static int step_meta(struct vmt_cursor *c, struct vmt_record *out)
{
	uint64_t index;
	int ret;

	if (vmt_meta_index(c->meta, c->meta_end, &c->mctx, &index))
		return corrupt(c, "a metadata record does not decode");
	ret = vmt_meta_decode(&c->meta, c->meta_end, out, &index, &c->scratch, &c->mctx);
	if (ret)
		return ret == VMT_ECORRUPT ?
		       corrupt(c, "a metadata record does not decode") : ret;
	if (out->type == VMT_REC_HEADER)
		return corrupt(c, "a header record inside a chunk");
	c->meta_left--;
	c->meta_at = meta_due(c);
	vmt_meta_seq(out, &c->key);
	return 1;
}

int vmt_cursor_step_slow(struct vmt_cursor *c, struct vmt_record *out)
{
	if (c->meta_at <= c->events_done || (!c->ev_left && c->meta_left))
		return step_meta(c, out);
	if (c->ev_left) {
		c->ev_p = vmt_event_decode(c->ev_p, c->ev_end, &c->pred, &out->u.event);
		if (!c->ev_p)
			return corrupt(c, "an event does not decode");
		out->type = VMT_REC_EVENT;
		c->key = out->u.event.seq;
		c->events_done++;
		if (--c->ev_left == 0 && c->ev_p != c->ev_end)
			return corrupt(c, "bytes after the chunk's last event");
		return 1;
	}
	if (c->meta != c->meta_end)
		return corrupt(c, "bytes after the chunk's last metadata record");
	return 0;
}

void vmt_cursor_free(struct vmt_cursor *c)
{
	free(c->raw);
	c->raw = NULL;
	c->raw_cap = 0;
	free(c->ev);
	vmt_scratch_free(&c->scratch);
	c->ev = NULL;
	c->ev_cap = 0;
}
