/* vmt_event.h - the event encoding: a tag byte, then only what the
 * predictor (vmt_format.h) did not guess.  Inline because both hot paths
 * (the shim's writer and the reader) run it once per event. */
#ifndef VMT_EVENT_H
#define VMT_EVENT_H

#include "vmt_format.h"

/* Writes at most VMT_EVENT_MAX_BYTES. */
static inline uint8_t *vmt_event_encode(uint8_t *p, struct vmt_predictor *pr,
                                        const struct vmt_event *e)
{
	struct vmt_slot *s = &pr->slot[e->sys % VMT_SLOTS];
	uint64_t pred[6], seq_gap = e->seq - pr->seq - 1;
	uint64_t gap = e->time_ns - pr->end_ns;
	int64_t res_pred;
	unsigned mask = 0, tag = e->sys < VMT_TAG_SYS_ESC ? e->sys : VMT_TAG_SYS_ESC;

	for (int i = 0; i < 6; i++) {
		pred[i] = vmt_predict_arg(s, e->sys, i);
		if (e->args[i] != pred[i])
			mask |= VMT_F_ARG0 << i;
	}
	res_pred = vmt_predict_result(s, e->sys, e->err, e->args);
	if (e->result != res_pred) mask |= VMT_F_RESULT;
	if (e->err) mask |= VMT_F_ERR;
	if (e->flags != s->flags) mask |= VMT_F_FLAGS;
	if (e->stack_id) mask |= VMT_F_STACK;
	if (e->file_id) mask |= VMT_F_FILE;
	if (e->pid != pr->pid) mask |= VMT_F_PID;
	if (e->tid != pr->tid) mask |= VMT_F_TID;
	if (mask) tag |= VMT_TAG_MASK;
	if (seq_gap) tag |= VMT_TAG_SEQ;
	if ((int64_t)gap < 0) {
		tag |= VMT_TAG_NEGGAP;
		gap = -gap;
	}

	*p++ = (uint8_t)tag;
	if ((tag & VMT_TAG_SYS) == VMT_TAG_SYS_ESC)
		p = vmt_put_varint(p, e->sys);
	if (mask)
		p = vmt_put_varint(p, mask);
	if (seq_gap)
		p = vmt_put_varint(p, seq_gap);
	p = vmt_put_varint(p, gap);
	p = vmt_put_varint(p, vmt_zigzag((int64_t)(e->latency_ns - (uint64_t)s->latency_avg)));
	if (mask) {
		for (int i = 0; i < 6; i++)
			if (mask & (VMT_F_ARG0 << i))
				p = vmt_put_varint(p, vmt_zigzag((int64_t)(e->args[i] - pred[i])));
		if (mask & VMT_F_RESULT)
			p = vmt_put_varint(p, vmt_zigzag((int64_t)((uint64_t)e->result - (uint64_t)res_pred)));
		if (mask & VMT_F_ERR)
			p = vmt_put_varint(p, vmt_zigzag(e->err));
		if (mask & VMT_F_FLAGS)
			p = vmt_put_varint(p, e->flags);
		if (mask & VMT_F_STACK) {
			p = vmt_put_varint(p, vmt_zigzag((int64_t)e->stack_id - (int64_t)pr->stack_id));
			pr->stack_id = e->stack_id;
		}
		if (mask & VMT_F_FILE)
			p = vmt_put_varint(p, e->file_id);
		if (mask & VMT_F_PID)
			p = vmt_put_varint(p, vmt_zigzag((int64_t)e->pid - pr->pid));
		if (mask & VMT_F_TID)
			p = vmt_put_varint(p, vmt_zigzag((int64_t)e->tid - pr->tid));
	}
	vmt_slot_update(s, e);
	pr->seq = e->seq;
	pr->end_ns = e->time_ns + e->latency_ns;
	return p;
}

/* Reads one event; NULL if the bytes do not decode. */
static inline const uint8_t *vmt_event_decode(const uint8_t *p, const uint8_t *end,
                                              struct vmt_predictor *pr,
                                              struct vmt_event *e)
{
	struct vmt_slot *s;
	uint64_t v, mask = 0;
	unsigned tag;

	if (p >= end)
		return NULL;
	tag = *p++;
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
	if (!(p = vmt_get_varint(p, end, &v)))
		return NULL;
	e->time_ns = (tag & VMT_TAG_NEGGAP) ? pr->end_ns - v : pr->end_ns + v;
	if (!(p = vmt_get_varint(p, end, &v)))
		return NULL;
	e->latency_ns = (uint64_t)s->latency_avg + (uint64_t)vmt_unzigzag(v);
	e->err = 0;
	e->flags = s->flags;
	e->stack_id = 0;
	e->file_id = 0;
	e->pid = pr->pid;
	e->tid = pr->tid;
	if (!mask) {
		for (int i = 0; i < 6; i++)
			e->args[i] = vmt_predict_arg(s, e->sys, i);
		e->result = vmt_predict_result(s, e->sys, 0, e->args);
	} else {
		for (int i = 0; i < 6; i++) {
			e->args[i] = vmt_predict_arg(s, e->sys, i);
			if (mask & (VMT_F_ARG0 << i)) {
				if (!(p = vmt_get_varint(p, end, &v)))
					return NULL;
				e->args[i] += (uint64_t)vmt_unzigzag(v);
			}
		}
		uint64_t res_delta = 0;
		if ((mask & VMT_F_RESULT) && !(p = vmt_get_varint(p, end, &res_delta)))
			return NULL;
		if (mask & VMT_F_ERR) {
			if (!(p = vmt_get_varint(p, end, &v)))
				return NULL;
			int64_t err = vmt_unzigzag(v);
			if (err == 0 || err < INT32_MIN || err > INT32_MAX)
				return NULL;
			e->err = (int32_t)err;
		}
		e->result = (int64_t)((uint64_t)vmt_predict_result(s, e->sys, e->err, e->args) +
		                      (uint64_t)vmt_unzigzag(res_delta));
		if (mask & VMT_F_FLAGS) {
			if (!(p = vmt_get_varint(p, end, &v)) || v > UINT16_MAX)
				return NULL;
			e->flags = (uint16_t)v;
		}
		if (mask & VMT_F_STACK) {
			if (!(p = vmt_get_varint(p, end, &v)))
				return NULL;
			int64_t id = (int64_t)pr->stack_id + vmt_unzigzag(v);
			if (id <= 0 || id > UINT32_MAX)
				return NULL;
			e->stack_id = pr->stack_id = (uint32_t)id;
		}
		if (mask & VMT_F_FILE) {
			if (!(p = vmt_get_varint(p, end, &v)) || v == 0 || v > UINT32_MAX)
				return NULL;
			e->file_id = (uint32_t)v;
		}
		if (mask & VMT_F_PID) {
			if (!(p = vmt_get_varint(p, end, &v)))
				return NULL;
			int64_t id = (int64_t)pr->pid + vmt_unzigzag(v);
			if (id < INT32_MIN || id > INT32_MAX)
				return NULL;
			e->pid = (int32_t)id;
		}
		if (mask & VMT_F_TID) {
			if (!(p = vmt_get_varint(p, end, &v)))
				return NULL;
			int64_t id = (int64_t)pr->tid + vmt_unzigzag(v);
			if (id < INT32_MIN || id > INT32_MAX)
				return NULL;
			e->tid = (int32_t)id;
		}
	}
	vmt_slot_update(s, e);
	pr->seq = e->seq;
	pr->end_ns = e->time_ns + e->latency_ns;
	return p;
}

#endif
