/* vmt_frames.c - see vmt_frames.h; layouts in docs/trace-format.md. */
#include <string.h>
#include "vmt_format.h"
#include "vmt_frames.h"

static int bad(struct vmt_frame *f, const char *why)
{
	f->kind = VMT_FRAME_BAD;
	f->why = why;
	return 0;
}

static void parse_chunk(const uint8_t *data, uint64_t size, uint64_t off,
                        struct vmt_frame *f)
{
	struct vmt_chunk_info *c = &f->chunk;
	const uint8_t *b = f->body;

	if (f->body_end - b < VMT_CHUNK_FIXED) {
		bad(f, "chunk header too short");
		return;
	}
	c->version = f->version;
	c->pid = (int32_t)vmt_get32(b);
	c->tid = (int32_t)vmt_get32(b + 4);
	c->first_seq = vmt_get64(b + 8);
	c->last_seq = vmt_get64(b + 16);
	c->nevents = vmt_get32(b + 24);
	c->nmeta = vmt_get32(b + 28);
	c->events_raw = vmt_get32(b + 32);
	c->events_frame_len = vmt_get32(b + 36);
	c->meta = b + VMT_CHUNK_FIXED;
	c->meta_end = f->body_end;
	c->events_frame = NULL;
	if (c->events_raw > VMT_CHUNK_MAX)
		bad(f, "chunk larger than 4 MiB");
	else if ((c->nevents == 0) != (c->events_frame_len == 0) ||
	         (c->nevents == 0) != (c->events_raw == 0) ||
	         c->nevents > c->events_raw)
		bad(f, "chunk event counts disagree");
	else if ((uint64_t)(c->meta_end - c->meta) < (uint64_t)c->nmeta * 2)
		bad(f, "chunk metadata count larger than its bytes");
	else if (c->events_frame_len > size - off - f->size)
		f->kind = VMT_FRAME_TRUNCATED;
	else {
		c->events_frame = c->events_frame_len ? data + off + f->size : NULL;
		f->size += c->events_frame_len;
	}
	if (f->kind == VMT_FRAME_TRUNCATED)
		f->size = size - off;
}

/* The checks both parsers make on a frame's first VMT_SKIP_HDR +
 * VMT_PAYLOAD_HDR bytes (n of them at p, remaining in the file): 1 for a
 * vmrec frame of this version (f->size its skippable part), else 0 with
 * f->kind set. */
static int check_head(const uint8_t *p, size_t n, uint64_t remaining,
                      struct vmt_frame *f)
{
	uint32_t magic = vmt_get32(p);

	if (magic == LZ4F_MAGIC)
		return bad(f, "an LZ4 frame outside a chunk");
	if ((magic & LZ4F_SKIP_MASK) != LZ4F_SKIP_BASE)
		return bad(f, "bad frame magic");
	f->size = VMT_SKIP_HDR + (uint64_t)vmt_get32(p + 4);
	if (f->size > remaining) {
		f->kind = VMT_FRAME_TRUNCATED;
		f->size = remaining;
		return 0;
	}
	if (f->size < VMT_SKIP_HDR + VMT_PAYLOAD_HDR || n < VMT_SKIP_HDR + VMT_PAYLOAD_HDR ||
	    memcmp(p + 8, VMT_SIGNATURE, 4) != 0) {
		f->kind = VMT_FRAME_OTHER;
		return 0;
	}
	if (magic != LZ4F_SKIP_MAGIC)
		return bad(f, "bad frame magic");
	f->version = vmt_get32(p + 12);
	if (f->version < VMT_FORMAT_OLDEST || f->version > VMT_FORMAT_VERSION) {
		f->kind = VMT_FRAME_VERSION;
		return 0;
	}
	return 1;
}

void vmt_frame_at(const uint8_t *data, uint64_t size, uint64_t off,
                  struct vmt_frame *f)
{
	const uint8_t *p = data + off;

	memset(f, 0, sizeof(*f));
	if (off >= size) {
		f->kind = VMT_FRAME_END;
		return;
	}
	if (size - off < VMT_SKIP_HDR) {
		f->kind = VMT_FRAME_TRUNCATED;
		f->size = size - off;
		return;
	}
	if (!check_head(p, (size_t)(size - off), size - off, f))
		return;
	if (p[17] || p[18] || p[19]) {
		bad(f, "reserved bytes are not zero");
		return;
	}
	f->body = p + VMT_SKIP_HDR + VMT_PAYLOAD_HDR;
	f->body_end = p + f->size;
	if (!vmt_checksum_ok(vmt_get32(p + 20),
	                     vmt_xxh32(f->body, (size_t)(f->body_end - f->body), 0))) {
		bad(f, "frame checksum mismatch");
		return;
	}
	switch (p[16]) {
	case VMT_KIND_HEADER:
		f->kind = VMT_FRAME_HEADER;
		break;
	case VMT_KIND_CHUNK:
		f->kind = VMT_FRAME_CHUNK;
		parse_chunk(data, size, off, f);
		break;
	default:
		bad(f, "unknown frame kind");
	}
}

void vmt_frame_peek(const uint8_t *head, size_t n, uint64_t remaining,
                    struct vmt_frame *f)
{
	memset(f, 0, sizeof(*f));
	if (remaining == 0) {
		f->kind = VMT_FRAME_END;
		return;
	}
	f->size = remaining;
	if (remaining < VMT_SKIP_HDR || n < VMT_SKIP_HDR) {
		f->kind = VMT_FRAME_TRUNCATED;
		return;
	}
	if (!check_head(head, n, remaining, f))
		return;
	if (head[16] == VMT_KIND_HEADER) {
		f->kind = VMT_FRAME_HEADER;
	} else if (head[16] == VMT_KIND_CHUNK) {
		if (f->size < VMT_CHUNK_PREFIX || n < VMT_CHUNK_PREFIX) {
			bad(f, "chunk header too short");
			return;
		}
		f->kind = VMT_FRAME_CHUNK;
		f->chunk.first_seq = vmt_get64(head + 32);
		f->size += vmt_get32(head + 60);
		if (f->size > remaining) {
			f->kind = VMT_FRAME_TRUNCATED;
			f->size = remaining;
			return;
		}
	} else {
		bad(f, "unknown frame kind");
		return;
	}
	if (f->size > VMT_FRAME_MAX)
		bad(f, "frame larger than any writer makes");
}
