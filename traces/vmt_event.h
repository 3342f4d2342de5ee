/* vmt_event.h - the event encoding: a tag byte, then only what the
 * predictor (vmt_format.h) did not guess; runs of fully predicted events
 * share one tag.  Inline because both hot paths (the shim's writer and the
 * reader) run it once per event. */
#ifndef VMT_EVENT_H
#define VMT_EVENT_H

#include "vmt_format.h"

/* The arguments slot s predicts for a call of sys: the slot's own, brk's
 * first one from its step contexts. */
static inline void vmt_predict_args(const struct vmt_slot *s, int sys, uint64_t args[6])
{
	memcpy(args, s->args, sizeof(s->args));
	if (sys == VMT_SYS_BRK)
		args[0] = vmt_predict_brk(s);
}

static inline void vmt_event_learn(struct vmt_predictor *pr, struct vmt_slot *s,
                                   const struct vmt_event *e)
{
	vmt_slot_update(s, e);
	pr->seq = e->seq;
	pr->end_ns = e->time_ns + e->latency_ns;
	pr->last_sys = e->sys;
	pr->pid = e->pid;
	pr->tid = e->tid;
}

/* Appends e at p (at most VMT_EVENT_MAX_BYTES); returns the new end. */
static inline uint8_t *vmt_event_encode(uint8_t *p, struct vmt_predictor *pr,
                                        const struct vmt_event *e)
{
	struct vmt_slot *s = &pr->slot[e->sys % VMT_SLOTS];
	uint64_t pred[6], seq_gap = e->seq - pr->seq - 1;
	uint64_t gap = e->time_ns - pr->end_ns;
	uint64_t lat = vmt_zigzag((int64_t)(e->latency_ns - (uint64_t)s->latency_avg));
	int64_t res_pred;
	unsigned mask = 0, tag;

	vmt_predict_args(s, e->sys, pred);
#pragma GCC unroll 6
	for (int i = 0; i < 6; i++)   /* unrolled: the bits are constants, no branch a compare */
		mask |= (unsigned)(e->args[i] != pred[i]) * vmt_f_arg(i);
	res_pred = vmt_predict_result(s, e->sys, e->err, e->args);
	if (e->result != res_pred) mask |= VMT_F_RESULT;
	if (e->err) mask |= VMT_F_ERR;
	if (e->flags != s->flags) mask |= VMT_F_FLAGS;
	if (e->stack_id) mask |= VMT_F_STACK;
	if (e->file_id) mask |= VMT_F_FILE;
	if (e->pid != pr->pid) mask |= VMT_F_PID;
	if (e->tid != pr->tid) mask |= VMT_F_TID;
	if (e->seq_end > e->seq + 1) mask |= VMT_F_SEQEND;   /* 0, seq + 1: stored as seq + 1 */
	if ((int64_t)gap < 0) {
		mask |= VMT_F_NEGGAP;
		gap = -gap;
	}

	if (!mask && !seq_gap && e->sys == pr->last_sys && pr->seq + 1 != 0) {
		if (pr->run_tag && (*pr->run_tag & VMT_RUN_MAX) < VMT_RUN_MAX) {
			(*pr->run_tag)++;
		} else {
			pr->run_tag = p;
			*p++ = VMT_TAG_RUN | 1;
		}
		p = vmt_put_varint(p, gap);
		p = vmt_put_varint(p, lat);
		vmt_event_learn(pr, s, e);
		return p;
	}
	pr->run_tag = NULL;
	tag = e->sys < VMT_TAG_SYS_ESC ? e->sys : VMT_TAG_SYS_ESC;
	if (mask) tag |= VMT_TAG_MASK;
	if (seq_gap) tag |= VMT_TAG_SEQ;
	*p++ = (uint8_t)tag;
	if ((tag & VMT_TAG_SYS) == VMT_TAG_SYS_ESC)
		p = vmt_put_varint(p, e->sys);
	if (mask)
		p = vmt_put_varint(p, mask);
	if (seq_gap)
		p = vmt_put_varint(p, seq_gap);
	p = vmt_put_varint(p, gap);
	p = vmt_put_varint(p, lat);
	if (mask) {
		for (int i = 0; i < 6; i++)
			if (mask & vmt_f_arg(i))
				p = vmt_put_delta(p, e->args[i] - pred[i]);
		if (mask & VMT_F_ERR)
			p = vmt_put_varint(p, vmt_zigzag(e->err));
		if (mask & VMT_F_RESULT)
			p = vmt_put_delta(p, (uint64_t)e->result - (uint64_t)res_pred);
		if (mask & VMT_F_FLAGS)
			p = vmt_put_varint(p, e->flags);
		if (mask & VMT_F_STACK)
			p = vmt_put_varint(p, e->stack_id);
		if (mask & VMT_F_FILE)
			p = vmt_put_varint(p, e->file_id);
		if (mask & VMT_F_PID)
			p = vmt_put_varint(p, vmt_zigzag((int64_t)e->pid - pr->pid));
		if (mask & VMT_F_TID)
			p = vmt_put_varint(p, vmt_zigzag((int64_t)e->tid - pr->tid));
		if (mask & VMT_F_SEQEND)
			p = vmt_put_varint(p, e->seq_end - e->seq - 2);
	}
	vmt_event_learn(pr, s, e);
	return p;
}

/* ---- decoding ----------------------------------------------------------
 * The decoder reads without bounds checks: the caller guarantees
 * VMT_EVENT_MAX_READ readable bytes after `end`, no event can span more, and
 * an event that ends past `end` is refused afterwards.  Bytes past the
 * stream's end are then never taken for data, as with checked reads. */

/* Eight stream bytes as a little-endian word. */
static inline uint64_t vmt_load64(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* A byte sequence ending at the first byte with bit 7 clear: its length
 * (1..8), and its low 7 bits per byte packed into *bits; 0 if none of the
 * eight bytes ends it.  Varint lengths vary from event to event, so the
 * common lengths (up to 4 bytes) take no branch on the length; 32-bit
 * masks keep the immediates short. */
static inline unsigned vmt_rd_group8(const uint8_t *p, uint64_t *bits)
{
	uint64_t w = vmt_load64(p);
	uint64_t stops = ~w & 0x8080808080808080ull;
	unsigned n = stops ? (unsigned)__builtin_ctzll(stops) / 8 + 1 : 0;

	if (__builtin_expect(n - 1 < 4, 1)) {
		uint32_t x = (uint32_t)w & (uint32_t)(stops ^ (stops - 1));
		*bits = (x & 0x7Fu) | (x >> 1 & 0x3F80u) | (x >> 2 & 0x1FC000u) |
		        (x >> 3 & 0xFE00000u);
		return n;
	}
	*bits = 0;
	for (unsigned i = 0; i < (n ? n : 8); i++)
		*bits |= (uint64_t)(p[i] & 0x7F) << (7 * i);
	return n;
}

/* A varint of at most 10 bytes, or NULL. */
static inline const uint8_t *vmt_rd_varint(const uint8_t *p, uint64_t *out)
{
	unsigned n = vmt_rd_group8(p, out);

	if (__builtin_expect(n != 0, 1))
		return p + n;
	for (unsigned i = 8; i < 10; i++) {   /* 9 and 10 bytes: very rare */
		*out |= (uint64_t)(p[i] & 0x7F) << (7 * i);
		if (p[i] < 0x80)
			return p + i + 1;
	}
	return NULL;
}

/* A varint that is nearly always one byte (a mask, a small seq gap): the
 * branch on that is well predicted and lets the CPU run ahead of the
 * load, where computing the length would make it wait. */
static inline const uint8_t *vmt_rd_varint1(const uint8_t *p, uint64_t *out)
{
	if (__builtin_expect(p[0] < 0x80, 1)) {
		*out = p[0];
		return p + 1;
	}
	return vmt_rd_varint(p, out);
}

/* An address or length delta (vmt_put_delta), or NULL.  Its first byte
 * holds the aligned bit and 6 value bits and continues like a varint. */
static inline const uint8_t *vmt_rd_delta(const uint8_t *p, uint64_t *out)
{
	uint64_t v, rest;
	unsigned n = vmt_rd_group8(p, &v);
	int aligned = p[0] & 1;

	if (__builtin_expect(n != 0, 1)) {
		p += n;
		v >>= 1;
	} else {
		if (!(p = vmt_rd_varint(p + 1, &rest)) || rest >> 58)
			return NULL;
		v = (v >> 1 & 0x3F) | rest << 6;
	}
	*out = (uint64_t)vmt_unzigzag(v) << (aligned * 12);
	return p;
}

static inline const uint8_t *vmt_rd_i32(const uint8_t *p, int32_t base, int32_t *out)
{
	uint64_t v;
	int64_t x;

	if (!(p = vmt_rd_varint(p, &v)))
		return NULL;
	x = (int64_t)base + vmt_unzigzag(v);
	if (x < INT32_MIN || x > INT32_MAX)
		return NULL;
	*out = (int32_t)x;
	return p;
}

/* A non-zero 32-bit id. */
static inline const uint8_t *vmt_rd_id(const uint8_t *p, uint32_t *out)
{
	uint64_t v;

	if (!(p = vmt_rd_varint(p, &v)) || v == 0 || v > UINT32_MAX)
		return NULL;
	*out = (uint32_t)v;
	return p;
}

/* Everything but seq, sys, time and latency as predicted for slot s. */
static inline void vmt_fill_predicted(const struct vmt_predictor *pr,
                                      const struct vmt_slot *s, struct vmt_event *e)
{
	e->err = 0;
	e->flags = s->flags;
	e->stack_id = e->file_id = 0;
	e->pid = pr->pid;
	e->tid = pr->tid;
	vmt_predict_args(s, e->sys, e->args);
}

/* A repeat event of a run: only the time gap and the latency are stored. */
static inline const uint8_t *vmt_decode_repeat(const uint8_t *p, const uint8_t *end,
                                               struct vmt_predictor *pr,
                                               struct vmt_event *e)
{
	struct vmt_slot *s = &pr->slot[pr->last_sys % VMT_SLOTS];
	uint64_t gap, lat;

	/* repeats are short calls in a loop: their gaps mostly fit a byte */
	if (!(p = vmt_rd_varint1(p, &gap)) || !(p = vmt_rd_varint(p, &lat)) || p > end)
		return NULL;
	pr->run_left--;
	e->sys = pr->last_sys;
	e->seq = pr->seq + 1;
	e->seq_end = pr->seq_end ? e->seq + 1 : 0;
	e->time_ns = pr->end_ns + gap;
	e->latency_ns = (uint64_t)s->latency_avg + (uint64_t)vmt_unzigzag(lat);
	vmt_fill_predicted(pr, s, e);
	e->result = vmt_predict_result(s, e->sys, 0, e->args);
	vmt_event_learn(pr, s, e);
	return p;
}

/* Reads one event from [p, end), with VMT_EVENT_MAX_READ readable bytes
 * after end; NULL if the bytes do not decode. */
static inline const uint8_t *vmt_event_decode(const uint8_t *p, const uint8_t *end,
                                              struct vmt_predictor *pr,
                                              struct vmt_event *e)
{
	/* mask bit -> args index, for the bits in VMT_F_ARGS */
	static const uint8_t arg_of_bit[8] = { 0, 1, 0, 0, 2, 3, 4, 5 };
	struct vmt_slot *s;
	uint64_t v, mask = 0, gap, lat;
	unsigned tag, bits;

	if (pr->run_left)
		return vmt_decode_repeat(p, end, pr, e);
	if (p >= end)
		return NULL;
	tag = *p++;
	if (tag & VMT_TAG_RUN) {
		pr->run_left = tag & VMT_RUN_MAX;
		if (!pr->run_left || pr->seq + 1 == 0)
			return NULL;
		return vmt_decode_repeat(p, end, pr, e);
	}

	v = tag & VMT_TAG_SYS;
	if (v == VMT_TAG_SYS_ESC && (!(p = vmt_rd_varint(p, &v)) || v > UINT16_MAX))
		return NULL;
	e->sys = (uint16_t)v;
	s = &pr->slot[v % VMT_SLOTS];
	if ((tag & VMT_TAG_MASK) && (!(p = vmt_rd_varint1(p, &mask)) || mask > VMT_F_ALL))
		return NULL;
	v = 0;
	if ((tag & VMT_TAG_SEQ) && !(p = vmt_rd_varint1(p, &v)))
		return NULL;
	e->seq = pr->seq + 1 + v;
	e->seq_end = pr->seq_end ? e->seq + 1 : 0;
	if (!(p = vmt_rd_varint(p, &gap)) || !(p = vmt_rd_varint(p, &lat)))
		return NULL;
	e->time_ns = (mask & VMT_F_NEGGAP) ? pr->end_ns - gap : pr->end_ns + gap;
	e->latency_ns = (uint64_t)s->latency_avg + (uint64_t)vmt_unzigzag(lat);
	vmt_fill_predicted(pr, s, e);
	for (bits = mask & VMT_F_ARGS; bits; bits &= bits - 1) {
		if (!(p = vmt_rd_delta(p, &v)))
			return NULL;
		e->args[arg_of_bit[__builtin_ctz(bits)]] += v;
	}
	if ((mask & VMT_F_ERR) && (!(p = vmt_rd_i32(p, 0, &e->err)) || e->err == 0))
		return NULL;
	e->result = vmt_predict_result(s, e->sys, e->err, e->args);
	if (mask & VMT_F_RESULT) {
		if (!(p = vmt_rd_delta(p, &v)))
			return NULL;
		e->result = (int64_t)((uint64_t)e->result + v);
	}
	if (mask & VMT_F_FLAGS) {
		if (!(p = vmt_rd_varint(p, &v)) || v > UINT16_MAX)
			return NULL;
		e->flags = (uint16_t)v;
	}
	if ((mask & VMT_F_STACK) && !(p = vmt_rd_id(p, &e->stack_id)))
		return NULL;
	if (mask & (VMT_F_FILE | VMT_F_PID | VMT_F_TID | VMT_F_SEQEND)) {
		if ((mask & VMT_F_FILE) && !(p = vmt_rd_id(p, &e->file_id)))
			return NULL;
		if ((mask & VMT_F_PID) && !(p = vmt_rd_i32(p, pr->pid, &e->pid)))
			return NULL;
		if ((mask & VMT_F_TID) && !(p = vmt_rd_i32(p, pr->tid, &e->tid)))
			return NULL;
		if (mask & VMT_F_SEQEND) {
			/* not in a chunk before format 4; never wraps */
			if (!pr->seq_end || !(p = vmt_rd_varint(p, &v)) || e->seq + 2 + v < e->seq)
				return NULL;
			e->seq_end = e->seq + 2 + v;
		}
	}
	if (p > end)
		return NULL;
	vmt_event_learn(pr, s, e);
	return p;
}

#endif
