/* gen.h - test records that are a pure function of their seq, so a reader
 * test can check any record it gets back without keeping what was written.
 *
 * Record n: events most of the time, otherwise one metadata type in turn.
 * Records without a seq of their own (file, module, stack) carry n in an id
 * field (id = n + 1, module start = n << 12). */
#ifndef TRACE_GEN_H
#define TRACE_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "vmt.h"

static inline uint64_t gen_hash(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

/* Storage the pointers of a generated record point into. */
struct gen_buf {
	char s1[96], s2[200];
	struct vmt_vma vmas[5];
	char names[5][32];
	uint64_t ips[40];
	uint8_t bits[64];
};

static const int gen_meta_types[] = {
	VMT_REC_PROCESS, VMT_REC_MAP, VMT_REC_CHECKPOINT, VMT_REC_FILE,
	VMT_REC_MODULE, VMT_REC_STACK, VMT_REC_RESIDENCY,
};

/* A value that is sometimes small, sometimes huge, sometimes negative. */
static inline uint64_t gen_value(uint64_t h)
{
	switch (h & 3) {
	case 0: return h >> 40;
	case 1: return h;
	case 2: return (uint64_t)-(int64_t)(h >> 50);
	default: return 0x7f0000000000ull + ((h >> 20) & ~0xfffull);
	}
}

/* The record numbered n for the stream of pid/tid; returns its type. */
static inline int gen_record(uint64_t n, int32_t pid, int32_t tid,
                             struct vmt_record *r, struct gen_buf *b)
{
	uint64_t h = gen_hash(n), h2 = gen_hash(n ^ 0xABCDEF);
	memset(r, 0, sizeof(*r));
	if (h % 100 < 88) {
		struct vmt_event *e = &r->u.event;
		r->type = VMT_REC_EVENT;
		e->seq = n;
		e->seq_end = n + 1;   /* a point: seq order stays the order written */
		e->time_ns = 1000000000ull + n * 1500 + (h2 & 0x3ff);
		e->latency_ns = 1400 + ((h2 >> 10) & 0xff);
		e->pid = pid;
		e->tid = tid;
		e->sys = (uint16_t)(1 + (h >> 8) % (VMT_SYS_COUNT - 1));
		if ((h >> 16) % 50 == 0)
			e->sys = (uint16_t)(31 + (h >> 20) % 40); /* beyond the table */
		if ((h >> 24) % 5 < 2) {      /* predictable: constant fields */
			for (int i = 0; i < 6; i++)
				e->args[i] = (uint64_t)i * 4096;
			e->result = 0;
			if (e->sys == VMT_SYS_BRK || e->sys == VMT_SYS_MREMAP)
				e->result = 0;
		} else {
			for (int i = 0; i < vmt_sys_nargs(e->sys) || (i < 6 && e->sys > 30); i++)
				e->args[i] = gen_value(gen_hash(n * 7 + (uint64_t)i));
			e->result = (int64_t)gen_value(h2 >> 3);
			if (h2 % 7 == 0) {
				e->err = 12 + (int32_t)(h2 % 3);
				e->result = h2 % 14 == 0 ? -1 : -(int64_t)(h2 >> 40);
			}
			if (h2 % 5 == 0) e->flags = (uint16_t)(h2 >> 20);
			if (h2 % 3 == 0) e->stack_id = 1 + (uint32_t)(h2 >> 33);
			if (h2 % 4 == 0) e->file_id = 1 + (uint32_t)(h2 >> 44);
			if (h2 % 11 == 0) e->tid = tid + 1 + (int32_t)(h2 >> 60);
			if (h2 % 13 == 0) e->pid = -(int32_t)(h2 >> 49);
		}
		return r->type;
	}
	r->type = gen_meta_types[(h >> 8) % 7];
	switch (r->type) {
	case VMT_REC_PROCESS:
		r->u.process = (struct vmt_process){ n, n * 1500, pid, pid - 1,
			(uint32_t)(h2 % 3), b->s1, b->s2, (uint32_t)(h2 >> 8) % 8 };
		snprintf(b->s1, sizeof(b->s1), "/usr/bin/prog%llu", (unsigned long long)n);
		snprintf(b->s2, sizeof(b->s2), "prog %llu --flag \"quoted\" \xc3\xa9", (unsigned long long)h2);
		break;
	case VMT_REC_MAP: {
		uint32_t nv = (uint32_t)(h2 % 6);
		uint64_t at = 0x400000;
		r->u.map = (struct vmt_map){ n, pid, nv, b->vmas };
		for (uint32_t i = 0; i < nv; i++) {
			uint64_t len = 4096 * (1 + gen_hash(n + i) % 100);
			if (i < 2)
				strcpy(b->names[i], i == 0 ? "[heap]" : "");
			else
				snprintf(b->names[i], sizeof(b->names[i]), "/lib/x%u.so", i);
			b->vmas[i] = (struct vmt_vma){ at, at + len, i * 4096ull, i % 8, i % 4,
				i, b->names[i] };
			at += len + 4096 * (gen_hash(n * i) % 3);
		}
		break;
	}
	case VMT_REC_CHECKPOINT:
		r->u.checkpoint = (struct vmt_checkpoint){ n, pid, 1 + (uint32_t)(h2 % 5),
			h2 % 70000, h2 % 7 };
		break;
	case VMT_REC_FILE:
		snprintf(b->s1, sizeof(b->s1), "/data/file-%llu", (unsigned long long)h2);
		r->u.file = (struct vmt_file){ (uint32_t)n + 1, pid, h2 >> 32, h2, h2 >> 20, b->s1, h2 >> 40 };
		break;
	case VMT_REC_MODULE: {
		struct vmt_module *m = &r->u.module;
		m->pid = pid;
		m->start = n << 12;
		m->end = m->start + (h2 & 0xffff000);
		m->offset = h2 & 0xf000;
		m->load_bias = m->start - m->offset;
		m->build_id_len = (uint32_t)(h2 % 21);
		for (uint32_t i = 0; i < m->build_id_len; i++)
			m->build_id[i] = (uint8_t)(h2 >> i);
		snprintf(b->s1, sizeof(b->s1), "/lib/libm%llu.so.6", (unsigned long long)(h2 % 100));
		m->path = b->s1;
		break;
	}
	case VMT_REC_STACK: {
		uint32_t depth = (uint32_t)(h2 % 41);
		for (uint32_t i = 0; i < depth; i++)
			b->ips[i] = gen_value(gen_hash(n + 100 * i));
		r->u.stack = (struct vmt_stack){ (uint32_t)n + 1, pid, depth, b->ips };
		break;
	}
	case VMT_REC_RESIDENCY: {
		uint64_t np = h2 % 500;
		for (unsigned i = 0; i < sizeof(b->bits); i++)
			b->bits[i] = (uint8_t)gen_hash(n + i);
		if (np % 8)
			b->bits[np / 8] &= (uint8_t)((1u << (np % 8)) - 1);
		r->u.residency = (struct vmt_residency){ n, pid, 0x7f0000000000ull, np, b->bits, 0, NULL };
		break;
	}
	}
	return r->type;
}

/* The seq a generated record was made from. */
static inline uint64_t gen_seq_of(const struct vmt_record *r)
{
	switch (r->type) {
	case VMT_REC_EVENT: return r->u.event.seq;
	case VMT_REC_PROCESS: return r->u.process.seq;
	case VMT_REC_MAP: return r->u.map.seq;
	case VMT_REC_CHECKPOINT: return r->u.checkpoint.seq;
	case VMT_REC_FILE: return r->u.file.id - 1u;
	case VMT_REC_MODULE: return r->u.module.start >> 12;
	case VMT_REC_STACK: return r->u.stack.id - 1u;
	case VMT_REC_RESIDENCY: return r->u.residency.seq;
	}
	return UINT64_MAX;
}

static inline int str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Deep equality of two records (strings and arrays compared by value). */
static inline int record_eq(const struct vmt_record *a, const struct vmt_record *b)
{
	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case VMT_REC_EVENT:
		return memcmp(&a->u.event, &b->u.event, sizeof(a->u.event)) == 0;
	case VMT_REC_PROCESS: {
		const struct vmt_process *x = &a->u.process, *y = &b->u.process;
		return x->seq == y->seq && x->time_ns == y->time_ns && x->pid == y->pid &&
		       x->ppid == y->ppid && x->image == y->image &&
		       str_eq(x->exe, y->exe) && str_eq(x->cmdline, y->cmdline) &&
		       x->origin == y->origin;
	}
	case VMT_REC_MAP:
	case VMT_REC_LAYOUT: {
		const struct vmt_map *x = &a->u.map, *y = &b->u.map;
		if (x->seq != y->seq || x->pid != y->pid || x->nvma != y->nvma)
			return 0;
		for (uint32_t i = 0; i < x->nvma; i++) {
			const struct vmt_vma *v = &x->vmas[i], *w = &y->vmas[i];
			if (v->start != w->start || v->end != w->end || v->offset != w->offset ||
			    v->prot != w->prot || v->flags != w->flags ||
			    v->file_id != w->file_id || !str_eq(v->name, w->name))
				return 0;
		}
		return 1;
	}
	case VMT_REC_CHECKPOINT:
		return memcmp(&a->u.checkpoint, &b->u.checkpoint, sizeof(a->u.checkpoint)) == 0;
	case VMT_REC_FILE: {
		const struct vmt_file *x = &a->u.file, *y = &b->u.file;
		return x->id == y->id && x->pid == y->pid && x->dev == y->dev &&
		       x->ino == y->ino && x->size == y->size && str_eq(x->path, y->path) &&
		       x->fs_type == y->fs_type;
	}
	case VMT_REC_MODULE: {
		const struct vmt_module *x = &a->u.module, *y = &b->u.module;
		return x->pid == y->pid && x->start == y->start && x->end == y->end &&
		       x->offset == y->offset && x->load_bias == y->load_bias &&
		       x->build_id_len == y->build_id_len &&
		       memcmp(x->build_id, y->build_id, x->build_id_len) == 0 &&
		       str_eq(x->path, y->path);
	}
	case VMT_REC_STACK: {
		const struct vmt_stack *x = &a->u.stack, *y = &b->u.stack;
		return x->id == y->id && x->pid == y->pid && x->depth == y->depth &&
		       (!x->depth || memcmp(x->ips, y->ips, x->depth * sizeof(*x->ips)) == 0);
	}
	case VMT_REC_RESIDENCY: {
		const struct vmt_residency *x = &a->u.residency, *y = &b->u.residency;
		return x->seq == y->seq && x->pid == y->pid && x->start == y->start &&
		       x->npages == y->npages &&
		       (!x->npages || memcmp(x->bits, y->bits, (x->npages + 7) / 8) == 0);
	}
	}
	return 0;
}

/* A header with every field set. */
static inline void gen_header(struct vmt_record *r)
{
	memset(r, 0, sizeof(*r));
	r->type = VMT_REC_HEADER;
	r->u.header.version = VMT_FORMAT_VERSION;
	r->u.header.start_realtime_ns = 1795000000123456789ull;
	vmt_host_probe(&r->u.header.host);
	r->u.header.cmdline = "vmrec -o t.lz4 ./prog arg";
}

#endif
