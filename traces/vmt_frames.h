/* vmt_frames.h - walk the frames of a mapped trace file, checking each
 * vmrec frame's signature, version, sizes and checksum.  Internal. */
#ifndef VMT_FRAMES_H
#define VMT_FRAMES_H

#include <stddef.h>
#include <stdint.h>
#include "vmt_format.h"

enum vmt_frame_kind {
	VMT_FRAME_END,       /* clean end of file */
	VMT_FRAME_HEADER,
	VMT_FRAME_CHUNK,
	VMT_FRAME_OTHER,     /* a foreign skippable frame: ignored */
	VMT_FRAME_TRUNCATED, /* the file ends inside this frame */
	VMT_FRAME_BAD,       /* does not decode; why says how */
	VMT_FRAME_VERSION,   /* a vmrec frame of another format version */
};

struct vmt_chunk_info {
	uint32_t version;                 /* the frame's format version */
	int32_t pid, tid;
	uint64_t first_seq, last_seq;
	uint32_t nevents, nmeta, events_raw, events_frame_len;
	const uint8_t *meta, *meta_end;   /* metadata records */
	const uint8_t *events_frame;      /* the LZ4 frame, or NULL */
};

struct vmt_frame {
	int kind;
	uint64_t size;       /* bytes from the frame's start to the next frame */
	uint32_t version;    /* VMT_FRAME_VERSION */
	const char *why;     /* VMT_FRAME_BAD */
	const uint8_t *body, *body_end; /* header/chunk body after the payload head */
	struct vmt_chunk_info chunk;
};

/* Look at the frame at data[off] of a file of size bytes, all in memory:
 * sizes, signature, version, checksum. */
void vmt_frame_at(const uint8_t *data, uint64_t size, uint64_t off,
                  struct vmt_frame *f);

/* How many bytes to read for the whole frame that starts with head[0..n)
 * (n >= min(remaining, VMT_FRAME_PEEK)), `remaining` bytes before the end
 * of the file.  Sets kind (no checksum yet: a CHUNK or HEADER is only
 * provisional), size, and for a chunk first_seq. */
#define VMT_FRAME_PEEK 64u
void vmt_frame_peek(const uint8_t *head, size_t n, uint64_t remaining,
                    struct vmt_frame *f);

/* The largest frame a reader loads. */
#define VMT_FRAME_MAX ((uint64_t)VMT_META_MAX + 2 * VMT_CHUNK_MAX)

#endif
