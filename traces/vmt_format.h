/* vmt_format.h - byte-level constants and helpers shared by the writer and
 * the reader.  Internal: tools include vmt.h only.  Every constant here is
 * part of format version 1 (docs/trace-format.md). */
#ifndef VMT_FORMAT_H
#define VMT_FORMAT_H

#include <stdint.h>
#include <string.h>
#include "vmt.h"

/* LZ4 frame format (lz4_Frame_format.md). */
#define LZ4F_MAGIC          0x184D2204u
#define LZ4F_SKIP_MAGIC     0x184D2A5Eu /* the skippable magic vmrec uses */
#define LZ4F_SKIP_MASK      0xFFFFFFF0u
#define LZ4F_SKIP_BASE      0x184D2A50u

/* vmrec skippable payload: "VMRC", u32 version, u8 kind, 3 zero bytes,
 * u32 xxh32 of the body, body. */
#define VMT_SIGNATURE       "VMRC"
#define VMT_KIND_HEADER     'H'
#define VMT_KIND_CHUNK      'C'
#define VMT_SKIP_HDR        8u   /* magic + size */
#define VMT_PAYLOAD_HDR     16u
#define VMT_CHUNK_FIXED     40u  /* the fixed chunk header in the body */
#define VMT_CHUNK_PREFIX    (VMT_SKIP_HDR + VMT_PAYLOAD_HDR + VMT_CHUNK_FIXED)

#define VMT_CHUNK_DEFAULT   (64u << 10)
#define VMT_CHUNK_MIN       (4u << 10)
#define VMT_CHUNK_MAX       (4u << 20)   /* the largest LZ4 block */
#define VMT_META_MAX        (64u << 20)  /* largest metadata body a reader accepts */
#define VMT_EVENT_MAX_BYTES 160u         /* bound on one encoded event */
/* Bound on the bytes one event can span when decoding, counting every
 * varint at its 10-byte maximum (non-canonical ones too).  The reader keeps
 * this many readable bytes after an event stream, so the decoder checks
 * the stream's end once per event instead of once per byte. */
#define VMT_EVENT_MAX_READ  192u

/* Event tag byte.  0x80 set: a run tag, the low 7 bits count the "repeat"
 * events that follow (same sys as the event before, every field as
 * predicted, seq + 1, time gap >= 0: only the gap and the latency are
 * stored).  0x80 clear: one full event. */
#define VMT_TAG_RUN         0x80u
#define VMT_RUN_MAX         0x7Fu
#define VMT_TAG_SEQ         0x40u   /* a seq-gap varint follows */
#define VMT_TAG_MASK        0x20u   /* a field-mask varint follows */
#define VMT_TAG_SYS         0x1Fu
#define VMT_TAG_SYS_ESC     0x1Fu   /* sys >= 31: a varint follows */

/* Field mask bits, most frequent first: a set bit means the field differs
 * from its prediction and its encoding follows (stream order: args 0-5,
 * err, result, flags, stack, file, pid, tid). */
enum {
	VMT_F_ARG0 = 1u << 0,
	VMT_F_ARG1 = 1u << 1,
	VMT_F_RESULT = 1u << 2,
	VMT_F_STACK = 1u << 3,
	VMT_F_ARG2 = 1u << 4, /* .. VMT_F_ARG5 = 1u << 7 */
	VMT_F_ERR = 1u << 8,
	VMT_F_FLAGS = 1u << 9,
	VMT_F_FILE = 1u << 10,
	VMT_F_PID = 1u << 11,
	VMT_F_TID = 1u << 12,
	VMT_F_NEGGAP = 1u << 13, /* the time gap is negative */
	VMT_F_SEQEND = 1u << 14, /* format 4: seq_end is not seq + 1 */
	VMT_F_ALL = (1u << 15) - 1,
	VMT_F_ARGS = 0xF3u,
};

static inline unsigned vmt_f_arg(int i)
{
	return i < 2 ? VMT_F_ARG0 << i : VMT_F_ARG2 << (i - 2);
}

#define VMT_SLOTS 32u  /* predictor state slots, indexed by sys % 32 */
#define VMT_BRK_CTX 4u

/* Per-system-call prediction state.  The writer and the reader update it
 * identically after every event, so only mispredicted fields are stored. */
struct vmt_slot {
	uint64_t args[6];
	int64_t result;
	int64_t latency_avg;
	uint16_t flags;
	/* brk: the last step of args[0], how many times in a row it was taken,
	 * and the steps that broke such runs before (AIM9's 16 x +4 KiB then
	 * -64 KiB is then predicted exactly) */
	uint64_t step;
	uint32_t run;
	uint64_t ctx_step[VMT_BRK_CTX], ctx_next[VMT_BRK_CTX];
	uint32_t ctx_run[VMT_BRK_CTX];
};

struct vmt_predictor {
	uint64_t seq;         /* last event's seq */
	uint64_t end_ns;      /* last event's time + latency */
	int32_t pid, tid;     /* the last event's (the chunk's at first) */
	uint16_t last_sys;
	uint32_t run_left;    /* reader: repeat events still to come */
	uint8_t seq_end;      /* reader: the chunk codes seq_end (format 4) */
	uint8_t *run_tag;     /* writer: the open run tag, or NULL */
	struct vmt_slot slot[VMT_SLOTS];
};

static inline void vmt_predictor_init(struct vmt_predictor *p, uint64_t first_seq,
                                      int32_t pid, int32_t tid)
{
	memset(p, 0, sizeof(*p));
	p->seq = first_seq - 1;
	p->pid = pid;
	p->tid = tid;
}

static inline uint64_t vmt_predict_brk(const struct vmt_slot *s)
{
	for (unsigned i = 0; i < VMT_BRK_CTX; i++)
		if (s->ctx_run[i] && s->ctx_step[i] == s->step && s->ctx_run[i] == s->run)
			return s->args[0] + s->ctx_next[i];
	return s->args[0] + s->step;
}

static inline void vmt_learn_brk(struct vmt_slot *s, uint64_t arg0)
{
	uint64_t step = arg0 - s->args[0];
	unsigned i;

	if (step == s->step) {
		if (s->run < UINT32_MAX)
			s->run++;
		return;
	}
	/* remember what broke this run, replacing the same context or the
	 * oldest (the last entry) */
	for (i = 0; i < VMT_BRK_CTX - 1; i++)
		if (s->ctx_step[i] == s->step && s->ctx_run[i] == s->run)
			break;
	for (; i > 0; i--) {
		s->ctx_step[i] = s->ctx_step[i - 1];
		s->ctx_run[i] = s->ctx_run[i - 1];
		s->ctx_next[i] = s->ctx_next[i - 1];
	}
	s->ctx_step[0] = s->step;
	s->ctx_run[0] = s->run;
	s->ctx_next[0] = step;
	s->step = step;
	s->run = 1;
}

/* How the result of a successful call is predicted, per system call. */
enum { VMT_RES_SLOT, VMT_RES_ARG0, VMT_RES_MMAP, VMT_RES_ZERO };
static const uint8_t vmt_result_rule[VMT_SYS_COUNT] = {
#define SYSCALL(id, name, nr, nargs, predict, ...) [VMT_SYS_##id] = VMT_RES_##predict,
#include "vmt_syscalls.def"
#undef SYSCALL
};

static inline int64_t vmt_predict_result(const struct vmt_slot *s, int sys,
                                         int32_t err, const uint64_t *args)
{
	if (err)
		return -1;
	switch ((unsigned)sys < VMT_SYS_COUNT ? vmt_result_rule[sys] : VMT_RES_SLOT) {
	case VMT_RES_ARG0:
		return (int64_t)args[0];
	case VMT_RES_MMAP:
		return (int64_t)((uint64_t)s->result - ((args[1] + VMT_PAGE - 1) & ~(uint64_t)(VMT_PAGE - 1)));
	case VMT_RES_ZERO:
		return 0;
	}
	return s->result;
}

static inline void vmt_slot_update(struct vmt_slot *s, const struct vmt_event *e)
{
	if (e->sys == VMT_SYS_BRK)
		vmt_learn_brk(s, e->args[0]);
	memcpy(s->args, e->args, sizeof(s->args));
	s->result = e->result;
	/* avg += (latency - avg) / 8, arithmetic shift, modulo 2^64 */
	s->latency_avg = (int64_t)((uint64_t)s->latency_avg +
	                 (uint64_t)((int64_t)(e->latency_ns - (uint64_t)s->latency_avg) >> 3));
	s->flags = e->flags;
}

/* ---- little-endian and varints -------------------------------------- */
static inline void vmt_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}
static inline void vmt_put64(uint8_t *p, uint64_t v)
{
	vmt_put32(p, (uint32_t)v);
	vmt_put32(p + 4, (uint32_t)(v >> 32));
}
static inline uint32_t vmt_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline uint64_t vmt_get64(const uint8_t *p)
{
	return vmt_get32(p) | (uint64_t)vmt_get32(p + 4) << 32;
}

static inline uint64_t vmt_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t vmt_unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* LEB128: 7 bits per byte, low first, high bit = more.  At most 10 bytes. */
static inline uint8_t *vmt_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Returns the position after the varint, or NULL if it runs past end or
 * is longer than 10 bytes. */
static inline const uint8_t *vmt_get_varint(const uint8_t *p, const uint8_t *end,
                                            uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;
	if (end - p >= 2) {   /* the common lengths, unrolled */
		if (p[0] < 0x80) {
			*out = p[0];
			return p + 1;
		}
		if (p[1] < 0x80) {
			*out = (uint64_t)(p[0] & 0x7F) | (uint64_t)p[1] << 7;
			return p + 2;
		}
	}
	while (p < end && shift < 64) {
		uint8_t b = *p++;
		v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return p;
		}
		shift += 7;
	}
	return NULL;
}

/* A delta of an address or a length: page-aligned deltas (the common case)
 * drop their 12 zero bits.  First byte: bit 0 = aligned, bit 7 = more,
 * bits 1-6 = the low 6 bits of zigzag(aligned ? delta >> VMT_PAGE_SHIFT : delta); the
 * rest follows as a varint. */
static inline uint8_t *vmt_put_delta(uint8_t *p, uint64_t d)
{
	int aligned = (d & (VMT_PAGE - 1)) == 0;
	uint64_t v = vmt_zigzag(aligned ? (int64_t)d >> VMT_PAGE_SHIFT : (int64_t)d);

	*p = (uint8_t)(aligned | (v & 0x3F) << 1);
	if (v < 0x40)
		return p + 1;
	*p++ |= 0x80;
	return vmt_put_varint(p, v >> 6);
}

static inline const uint8_t *vmt_get_delta(const uint8_t *p, const uint8_t *end,
                                           uint64_t *out)
{
	uint64_t v, rest = 0;
	uint8_t b;

	if (p >= end)
		return NULL;
	b = *p++;
	v = (b >> 1) & 0x3F;
	if (b & 0x80) {
		if (!(p = vmt_get_varint(p, end, &rest)) || rest >> 58)
			return NULL;
		v |= rest << 6;
	}
	*out = (uint64_t)vmt_unzigzag(v) << ((b & 1) ? 12 : 0);
	return p;
}

uint32_t vmt_xxh32(const void *data, size_t len, uint32_t seed);

/* Set only by the fuzz harness, so it can reach the decoders behind the
 * checksums; never set in tools. */
extern int vmt_ignore_checksums;

static inline int vmt_checksum_ok(uint32_t stored, uint32_t computed)
{
	return stored == computed || vmt_ignore_checksums;
}

#endif
