/* vmt_event.h - the event encoding: a tag byte, then only what the
 * predictor (vmt_format.h) did not guess; runs of fully predicted events
 * share one tag.  Inline because both hot paths (the shim's writer and the
 * reader) run it once per event. */
#ifndef VMT_EVENT_H
#define VMT_EVENT_H

#include "vmt_format.h"

static inline void vmt_predict_args(const struct vmt_slot *s, struct vmt_event *e)
{
	memcpy(e->args, s->args, sizeof(e->args));
	if (e->sys == VMT_SYS_BRK)
		e->args[0] = vmt_predict_brk(s);
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

	for (int i = 0; i < 6; i++) {
		pred[i] = vmt_predict_arg(s, e->sys, i);
		if (e->args[i] != pred[i])
			mask |= vmt_f_arg(i);
	}
	res_pred = vmt_predict_result(s, e->sys, e->err, e->args);
	if (e->result != res_pred) mask |= VMT_F_RESULT;
	if (e->err) mask |= VMT_F_ERR;
	if (e->flags != s->flags) mask |= VMT_F_FLAGS;
	if (e->stack_id) mask |= VMT_F_STACK;
	if (e->file_id) mask |= VMT_F_FILE;
	if (e->pid != pr->pid) mask |= VMT_F_PID;
	if (e->tid != pr->tid) mask |= VMT_F_TID;
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
	}
	vmt_event_learn(pr, s, e);
	return p;
}

static inline const uint8_t *vmt_get_i32(const uint8_t *p, const uint8_t *end,
                                         int32_t base, int32_t *out)
{
	uint64_t v;
	int64_t x;

	if (!(p = vmt_get_varint(p, end, &v)))
		return NULL;
	x = (int64_t)base + vmt_unzigzag(v);
	if (x < INT32_MIN || x > INT32_MAX)
		return NULL;
	*out = (int32_t)x;
	return p;
}

static inline const uint8_t *vmt_get_u32(const uint8_t *p, const uint8_t *end,
                                         uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (!(p = vmt_get_varint(p, end, &v)) || v == 0 || v > max)
		return NULL;
	*out = (uint32_t)v;
	return p;
}

/* Reads one event; NULL if the bytes do not decode. */
static inline const uint8_t *vmt_event_decode(const uint8_t *p, const uint8_t *end,
                                              struct vmt_predictor *pr,
                                              struct vmt_event *e)
{
	struct vmt_slot *s;
	uint64_t v, mask = 0, gap;
	unsigned tag;

	if (!pr->run_left) {
		if (p >= end)
			return NULL;
		tag = *p++;
		if (tag & VMT_TAG_RUN) {
			pr->run_left = tag & VMT_RUN_MAX;
			if (!pr->run_left || pr->seq + 1 == 0)
				return NULL;
		}
	} else {
		tag = VMT_TAG_RUN;
	}
	if (tag & VMT_TAG_RUN) {
		pr->run_left--;
		s = &pr->slot[pr->last_sys % VMT_SLOTS];
		e->sys = pr->last_sys;
		e->seq = pr->seq + 1;
		if (!(p = vmt_get_varint(p, end, &gap)) || !(p = vmt_get_varint(p, end, &v)))
			return NULL;
		e->time_ns = pr->end_ns + gap;
		e->latency_ns = (uint64_t)s->latency_avg + (uint64_t)vmt_unzigzag(v);
		e->err = 0;
		e->flags = s->flags;
		e->stack_id = e->file_id = 0;
		e->pid = pr->pid;
		e->tid = pr->tid;
		vmt_predict_args(s, e);
		e->result = vmt_predict_result(s, e->sys, 0, e->args);
		vmt_event_learn(pr, s, e);
		return p;
	}

	v = tag & VMT_TAG_SYS;
	if (v == VMT_TAG_SYS_ESC && (!(p = vmt_get_varint(p, end, &v)) || v > UINT16_MAX))
		return NULL;
	e->sys = (uint16_t)v;
	s = &pr->slot[v % VMT_SLOTS];
	if ((tag & VMT_TAG_MASK) &&
	    (!(p = vmt_get_varint(p, end, &mask)) || mask > VMT_F_ALL))
		return NULL;
	v = 0;
	if ((tag & VMT_TAG_SEQ) && !(p = vmt_get_varint(p, end, &v)))
		return NULL;
	e->seq = pr->seq + 1 + v;
	if (!(p = vmt_get_varint(p, end, &gap)) || !(p = vmt_get_varint(p, end, &v)))
		return NULL;
	e->time_ns = (mask & VMT_F_NEGGAP) ? pr->end_ns - gap : pr->end_ns + gap;
	e->latency_ns = (uint64_t)s->latency_avg + (uint64_t)vmt_unzigzag(v);
	e->err = 0;
	e->flags = s->flags;
	e->stack_id = e->file_id = 0;
	e->pid = pr->pid;
	e->tid = pr->tid;
	vmt_predict_args(s, e);
	for (int i = 0; (mask & VMT_F_ARGS) && i < 6; i++) {
		if (mask & vmt_f_arg(i)) {
			if (!(p = vmt_get_delta(p, end, &v)))
				return NULL;
			e->args[i] += v;
		}
	}
	if (mask & VMT_F_ERR) {
		int32_t err;
		if (!(p = vmt_get_i32(p, end, 0, &err)) || err == 0)
			return NULL;
		e->err = err;
	}
	e->result = vmt_predict_result(s, e->sys, e->err, e->args);
	if (mask & VMT_F_RESULT) {
		if (!(p = vmt_get_delta(p, end, &v)))
			return NULL;
		e->result = (int64_t)((uint64_t)e->result + v);
	}
	if (mask & VMT_F_FLAGS) {
		if (!(p = vmt_get_varint(p, end, &v)) || v > UINT16_MAX)
			return NULL;
		e->flags = (uint16_t)v;
	}
	if ((mask & VMT_F_STACK) && !(p = vmt_get_u32(p, end, UINT32_MAX, &e->stack_id)))
		return NULL;
	if ((mask & VMT_F_FILE) && !(p = vmt_get_u32(p, end, UINT32_MAX, &e->file_id)))
		return NULL;
	if ((mask & VMT_F_PID) && !(p = vmt_get_i32(p, end, pr->pid, &e->pid)))
		return NULL;
	if ((mask & VMT_F_TID) && !(p = vmt_get_i32(p, end, pr->tid, &e->tid)))
		return NULL;
	vmt_event_learn(pr, s, e);
	return p;
}

#endif
