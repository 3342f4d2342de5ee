/* vmt_meta.c - encode and decode metadata records: a type byte, the number
 * of events of the chunk written before the record, then the fields as
 * varints (zigzag for signed ones) and strings as varint length + bytes +
 * NUL, in the order of docs/trace-format.md. */
#include <stdlib.h>
#include <string.h>
#include "vmt_format.h"
#include "vmt_meta.h"
#include "vmt_scratch.h"

#define VARINT_MAX 10u

static size_t slen(const char *s)
{
	return s ? strlen(s) : 0;
}

static size_t str_bound(const char *s)
{
	return VARINT_MAX + slen(s) + 1;
}

size_t vmt_meta_bound(const struct vmt_record *rec)
{
	size_t n = 2 + VARINT_MAX + 16 * VARINT_MAX;

	switch (rec->type) {
	case VMT_REC_HEADER: {
		const struct vmt_host *h = &rec->u.header.host;
		n += str_bound(rec->u.header.cmdline) + sizeof(*h) + 6 * VARINT_MAX;
		break;
	}
	case VMT_REC_PROCESS:
		n += str_bound(rec->u.process.exe) + str_bound(rec->u.process.cmdline);
		break;
	case VMT_REC_MAP:
		for (uint32_t i = 0; i < rec->u.map.nvma; i++)
			n += 6 * VARINT_MAX + str_bound(rec->u.map.vmas[i].name);
		break;
	case VMT_REC_LAYOUT:
		for (uint32_t i = 0; i < rec->u.layout.nvma; i++)
			n += 4 * VARINT_MAX + str_bound(rec->u.layout.vmas[i].name);
		break;
	case VMT_REC_FILE:
		n += str_bound(rec->u.file.path);
		break;
	case VMT_REC_MODULE:
		n += 20 + str_bound(rec->u.module.path);
		break;
	case VMT_REC_STACK:
		n += (size_t)rec->u.stack.depth * VARINT_MAX;
		break;
	case VMT_REC_RESIDENCY:
		n += vmt_res_bound(&rec->u.residency);
		break;
	case VMT_REC_RANGES:
		n += (size_t)rec->u.ranges.n * 2 * VARINT_MAX + (VMT_NODEMASK_WORDS + 4) * VARINT_MAX +
		     (rec->u.ranges.name_how == VMT_NAME_STR ? str_bound(rec->u.ranges.name) : 0);
		break;
	case VMT_REC_ARGV:
		for (uint32_t i = 0; i < rec->u.argv.argc; i++)
			n += VARINT_MAX + (rec->u.argv.args[i].kind == VMT_ARG_FAULT
			                   ? VARINT_MAX : str_bound(rec->u.argv.args[i].str));
		break;
	}
	return n;
}

static uint8_t *put_str(uint8_t *p, const char *s)
{
	size_t n = slen(s);
	p = vmt_put_varint(p, n);
	if (n)
		memcpy(p, s, n);
	p[n] = 0;
	return p + n + 1;
}

static uint8_t *put_i(uint8_t *p, int64_t v)
{
	return vmt_put_varint(p, vmt_zigzag(v));
}

#define U(v) (p = vmt_put_varint(p, (uint64_t)(v)))
#define I(v) (p = put_i(p, (v)))
#define S(v) (p = put_str(p, (v)))

uint8_t *vmt_meta_encode(uint8_t *p, const struct vmt_record *rec,
                         uint64_t event_index, struct vmt_meta_ctx *ctx)
{
	if (rec->type == VMT_REC_RESIDENCY) {
		*p++ = VMT_WIRE_RESIDENCY_RUNS;
		return vmt_res_encode(p, &rec->u.residency, event_index, ctx);
	}
	*p++ = (uint8_t)rec->type;
	U(event_index);
	switch (rec->type) {
	case VMT_REC_HEADER: {
		const struct vmt_header *h = &rec->u.header;
		U(h->version); U(h->start_realtime_ns); S(h->cmdline);
		S(h->host.kernel); S(h->host.machine); S(h->host.cpu);
		S(h->host.glibc); S(h->host.thp_enabled); S(h->host.thp_defrag);
		U(h->host.page_size); U(h->host.cores); U(h->host.memory_bytes);
		U(h->host.hpage_pmd_size); U(h->host.max_map_count);
		U(h->host.mmap_min_addr);
		break;
	}
	case VMT_REC_PROCESS: {
		const struct vmt_process *x = &rec->u.process;
		U(x->seq); U(x->time_ns); I(x->pid); I(x->ppid); U(x->image);
		S(x->exe); S(x->cmdline); U(x->origin);
		break;
	}
	case VMT_REC_MAP: {
		const struct vmt_map *x = &rec->u.map;
		uint64_t prev_end = 0;
		U(x->seq); I(x->pid); U(x->nvma);
		for (uint32_t i = 0; i < x->nvma; i++) {
			const struct vmt_vma *v = &x->vmas[i];
			U(v->start - prev_end); U(v->end - v->start); U(v->offset);
			U(v->prot); U(v->flags); U(v->file_id); S(v->name);
			prev_end = v->end;
		}
		break;
	}
	case VMT_REC_CHECKPOINT: {
		const struct vmt_checkpoint *x = &rec->u.checkpoint;
		U(x->seq); I(x->pid); U(x->reason); U(x->vma_count);
		U(x->recorder_vmas);
		break;
	}
	case VMT_REC_LAYOUT: {
		/* in pages (VMT_PAGE); what each VMA is, in one varint */
		const struct vmt_map *x = &rec->u.layout;
		uint64_t prev_end = 0;
		U(x->seq); I(x->pid); U(x->nvma);
		for (uint32_t i = 0; i < x->nvma; i++) {
			const struct vmt_vma *v = &x->vmas[i];
			int named = v->name && v->name[0];
			U((v->start - prev_end) >> VMT_PAGE_SHIFT); U((v->end - v->start) >> VMT_PAGE_SHIFT);
			U((v->prot & 7) | (v->flags & VMT_VMA_SHARED ? VMT_LAYOUT_SHARED : 0) |
			  (v->flags & VMT_VMA_RECORDER ? VMT_LAYOUT_RECORDER : 0) |
			  (v->file_id ? VMT_LAYOUT_FILE : 0) | (named ? VMT_LAYOUT_NAME : 0));
			if (v->file_id)
				U(v->file_id);
			if (named)
				S(v->name);
			prev_end = v->end;
		}
		break;
	}
	case VMT_REC_FILE: {
		const struct vmt_file *x = &rec->u.file;
		U(x->id); I(x->pid); U(x->dev); U(x->ino); U(x->size); S(x->path);
		U(x->fs_type);
		break;
	}
	case VMT_REC_MODULE: {
		const struct vmt_module *x = &rec->u.module;
		uint32_t n = x->build_id_len > 20 ? 20 : x->build_id_len;
		I(x->pid); U(x->start); U(x->end - x->start); U(x->offset);
		U(x->load_bias); U(n);
		memcpy(p, x->build_id, n);
		p += n;
		S(x->path);
		break;
	}
	case VMT_REC_STACK: {
		const struct vmt_stack *x = &rec->u.stack;
		uint64_t prev = 0;
		U(x->id); I(x->pid); U(x->depth);
		for (uint32_t i = 0; i < x->depth; i++) {
			I((int64_t)(x->ips[i] - prev));
			prev = x->ips[i];
		}
		break;
	}
	case VMT_REC_END: {
		const struct vmt_end *x = &rec->u.end;
		U(x->seq); I(x->pid); U(x->how); I(x->status); U(x->lost);
		break;
	}
	case VMT_REC_ARGV: {
		const struct vmt_argv *x = &rec->u.argv;
		U(x->seq); I(x->pid); U(x->argc);
		for (uint32_t i = 0; i < x->argc; i++) {
			const struct vmt_arg *a = &x->args[i];
			U(a->kind);
			if (a->kind == VMT_ARG_FAULT)
				U(a->addr);
			else
				S(a->str);
		}
		U(x->argv_end); U(x->envc); U(x->envp_end);
		break;
	}
	case VMT_REC_RANGES: {
		const struct vmt_ranges *x = &rec->u.ranges;
		U(x->seq); I(x->pid); U(x->n);
		for (uint32_t i = 0; i < x->n; i++) {
			U(x->ranges[i].start); U(x->ranges[i].len);
		}
		U(x->kind);
		if (x->kind == VMT_RANGES_IOVEC) {
			I(x->target);
		} else if (x->kind == VMT_RANGES_UFFDIO_REGISTER) {
			U(x->mode); U(x->ioctls);
		} else if (x->kind == VMT_RANGES_VMA_NAME) {
			U(x->name_how);
			if (x->name_how == VMT_NAME_STR)
				S(x->name);
		} else if (x->kind == VMT_RANGES_NODEMASK) {
			uint32_t n = x->nwords < VMT_NODEMASK_WORDS ? x->nwords : VMT_NODEMASK_WORDS;
			U(n);
			for (uint32_t i = 0; i < n; i++)
				U(x->nodes[i]);
		}
		break;
	}
	}
	return p;
}

#undef U
#undef I
#undef S

/* ---- decoding -------------------------------------------------------- */

struct in {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get_u(struct in *in)
{
	uint64_t v = 0;
	const uint8_t *q = in->bad ? NULL : vmt_get_varint(in->p, in->end, &v);
	if (!q) {
		in->bad = 1;
		return 0;
	}
	in->p = q;
	return v;
}

static uint32_t get_u32(struct in *in)
{
	uint64_t v = get_u(in);
	if (v > UINT32_MAX)
		in->bad = 1;
	return (uint32_t)v;
}

static int32_t get_i32(struct in *in)
{
	int64_t v = vmt_unzigzag(get_u(in));
	if (v < INT32_MIN || v > INT32_MAX)
		in->bad = 1;
	return (int32_t)v;
}

static const char *get_str(struct in *in)
{
	uint64_t n = get_u(in);
	const char *s;
	if (in->bad || n >= (uint64_t)(in->end - in->p) || in->p[n] != 0) {
		in->bad = 1;
		return "";
	}
	s = (const char *)in->p;
	in->p += n + 1;
	return s;
}

static void get_fixed_str(struct in *in, char *dst, size_t size)
{
	const char *s = get_str(in);
	size_t n = strlen(s);
	if (n >= size)
		in->bad = 1;
	else
		memcpy(dst, s, n + 1);
}

static const uint8_t *get_bytes(struct in *in, uint64_t n)
{
	const uint8_t *b = in->p;
	if (in->bad || n > (uint64_t)(in->end - in->p)) {
		in->bad = 1;
		return NULL;
	}
	in->p += n;
	return b;
}

/* Grow *arr to hold n elements; n was already checked against the input
 * size, so this is bounded by the frame. */
static int reserve(const struct vmt_scratch *s, void **arr, size_t *cap, size_t n, size_t elem)
{
	return vmt_scratch_grow(arr, cap, n, elem, s->alloc);
}

void vmt_scratch_free(struct vmt_scratch *s)
{
	const struct vmt_alloc *a = s->alloc;
	vmt_scratch_release(s->vmas, s->nvmas, sizeof(*s->vmas), a);
	vmt_scratch_release(s->ips, s->nips, sizeof(*s->ips), a);
	vmt_scratch_release(s->args, s->nargs, sizeof(*s->args), a);
	vmt_scratch_release(s->ranges, s->nranges, sizeof(*s->ranges), a);
	vmt_res_scratch_free(&s->res);
	memset(s, 0, sizeof(*s));
	s->alloc = a;
}

int vmt_meta_index(const uint8_t *p, const uint8_t *end,
                   const struct vmt_meta_ctx *ctx, uint64_t *index)
{
	if (end - p < 2)
		return -1;
	if (*p == VMT_WIRE_RESIDENCY_RUNS)
		return vmt_res_index(p + 1, end, ctx, index);
	return vmt_get_varint(p + 1, end, index) ? 0 : -1;
}

int vmt_meta_decode(const uint8_t **pp, const uint8_t *end,
                    struct vmt_record *rec, uint64_t *event_index,
                    struct vmt_scratch *s, struct vmt_meta_ctx *ctx)
{
	struct in in = { *pp, end, 0 };
	int type;

	s->res.alloc = s->alloc;
	if (in.p >= end)
		return VMT_ECORRUPT;
	type = *in.p++;
	memset(rec, 0, sizeof(*rec));
	if (type == VMT_WIRE_RESIDENCY_RUNS) {
		rec->type = VMT_REC_RESIDENCY;
		int ret = vmt_res_decode(&in.p, end, &rec->u.residency, event_index, &s->res, ctx);
		if (!ret)
			*pp = in.p;
		return ret;
	}
	rec->type = type;
	*event_index = get_u(&in);
	switch (type) {
	case VMT_REC_HEADER: {
		struct vmt_header *h = &rec->u.header;
		h->version = get_u32(&in);
		h->start_realtime_ns = get_u(&in);
		h->cmdline = get_str(&in);
		get_fixed_str(&in, h->host.kernel, sizeof(h->host.kernel));
		get_fixed_str(&in, h->host.machine, sizeof(h->host.machine));
		get_fixed_str(&in, h->host.cpu, sizeof(h->host.cpu));
		get_fixed_str(&in, h->host.glibc, sizeof(h->host.glibc));
		get_fixed_str(&in, h->host.thp_enabled, sizeof(h->host.thp_enabled));
		get_fixed_str(&in, h->host.thp_defrag, sizeof(h->host.thp_defrag));
		h->host.page_size = get_u32(&in);
		h->host.cores = get_u32(&in);
		h->host.memory_bytes = get_u(&in);
		h->host.hpage_pmd_size = get_u(&in);
		h->host.max_map_count = get_u(&in);
		h->host.mmap_min_addr = get_u(&in);
		break;
	}
	case VMT_REC_PROCESS: {
		struct vmt_process *x = &rec->u.process;
		x->seq = get_u(&in); x->time_ns = get_u(&in);
		x->pid = get_i32(&in); x->ppid = get_i32(&in);
		x->image = get_u32(&in);
		x->exe = get_str(&in); x->cmdline = get_str(&in);
		/* format 5 appended who recorded the image */
		x->origin = !ctx || !ctx->version || ctx->version >= 5 ? get_u32(&in) : 0;
		break;
	}
	case VMT_REC_MAP: {
		struct vmt_map *x = &rec->u.map;
		uint64_t prev_end = 0;
		x->seq = get_u(&in); x->pid = get_i32(&in); x->nvma = get_u32(&in);
		/* every VMA takes at least 7 bytes */
		if (in.bad || x->nvma > (uint64_t)(in.end - in.p) / 7)
			return VMT_ECORRUPT;
		if (reserve(s, (void **)&s->vmas, &s->nvmas, x->nvma, sizeof(*s->vmas)))
			return VMT_ENOMEM;
		for (uint32_t i = 0; i < x->nvma && !in.bad; i++) {
			struct vmt_vma *v = &s->vmas[i];
			v->start = prev_end + get_u(&in);
			v->end = v->start + get_u(&in);
			v->offset = get_u(&in);
			v->prot = get_u32(&in); v->flags = get_u32(&in);
			v->file_id = get_u32(&in);
			v->name = get_str(&in);
			prev_end = v->end;
		}
		x->vmas = s->vmas;
		break;
	}
	case VMT_REC_CHECKPOINT: {
		struct vmt_checkpoint *x = &rec->u.checkpoint;
		x->seq = get_u(&in); x->pid = get_i32(&in);
		x->reason = get_u32(&in); x->vma_count = get_u(&in);
		x->recorder_vmas = get_u(&in);
		break;
	}
	case VMT_REC_LAYOUT: {
		struct vmt_map *x = &rec->u.layout;
		uint64_t prev_end = 0;
		x->seq = get_u(&in); x->pid = get_i32(&in); x->nvma = get_u32(&in);
		/* every VMA takes at least 3 bytes */
		if (in.bad || x->nvma > (uint64_t)(in.end - in.p) / 3)
			return VMT_ECORRUPT;
		if (reserve(s, (void **)&s->vmas, &s->nvmas, x->nvma, sizeof(*s->vmas)))
			return VMT_ENOMEM;
		for (uint32_t i = 0; i < x->nvma && !in.bad; i++) {
			struct vmt_vma *v = &s->vmas[i];
			uint64_t gap = get_u(&in), len = get_u(&in), bits = get_u(&in);
			/* non-empty, inside the 64-bit address space, known bits */
			if (len == 0 || gap > UINT64_MAX >> VMT_PAGE_SHIFT || len > UINT64_MAX >> VMT_PAGE_SHIFT ||
			    (gap << VMT_PAGE_SHIFT) > UINT64_MAX - prev_end ||
			    (len << VMT_PAGE_SHIFT) > UINT64_MAX - prev_end - (gap << VMT_PAGE_SHIFT) || bits > VMT_LAYOUT_BITS)
				return VMT_ECORRUPT;
			v->start = prev_end + (gap << VMT_PAGE_SHIFT);
			v->end = v->start + (len << VMT_PAGE_SHIFT);
			v->offset = 0;
			v->prot = (uint32_t)(bits & 7);
			v->flags = (bits & VMT_LAYOUT_SHARED ? VMT_VMA_SHARED : 0) |
			           (bits & VMT_LAYOUT_RECORDER ? VMT_VMA_RECORDER : 0);
			v->file_id = bits & VMT_LAYOUT_FILE ? get_u32(&in) : 0;
			v->name = bits & VMT_LAYOUT_NAME ? get_str(&in) : "";
			if ((bits & VMT_LAYOUT_FILE && !v->file_id) || (bits & VMT_LAYOUT_NAME && !v->name[0]))
				return VMT_ECORRUPT;   /* one encoding per layout */
			prev_end = v->end;
		}
		x->vmas = s->vmas;
		break;
	}
	case VMT_REC_FILE: {
		struct vmt_file *x = &rec->u.file;
		x->id = get_u32(&in); x->pid = get_i32(&in);
		x->dev = get_u(&in); x->ino = get_u(&in); x->size = get_u(&in);
		x->path = get_str(&in);
		/* format 5 appended the file system's type */
		x->fs_type = !ctx || !ctx->version || ctx->version >= 5 ? get_u(&in) : 0;
		break;
	}
	case VMT_REC_MODULE: {
		struct vmt_module *x = &rec->u.module;
		const uint8_t *b;
		x->pid = get_i32(&in); x->start = get_u(&in);
		x->end = x->start + get_u(&in);
		x->offset = get_u(&in); x->load_bias = get_u(&in);
		x->build_id_len = get_u32(&in);
		if (x->build_id_len > sizeof(x->build_id))
			return VMT_ECORRUPT;
		b = get_bytes(&in, x->build_id_len);
		if (b)
			memcpy(x->build_id, b, x->build_id_len);
		x->path = get_str(&in);
		break;
	}
	case VMT_REC_STACK: {
		struct vmt_stack *x = &rec->u.stack;
		uint64_t prev = 0;
		x->id = get_u32(&in); x->pid = get_i32(&in); x->depth = get_u32(&in);
		if (in.bad || x->depth > (uint64_t)(in.end - in.p))
			return VMT_ECORRUPT;
		if (reserve(s, (void **)&s->ips, &s->nips, x->depth, sizeof(*s->ips)))
			return VMT_ENOMEM;
		for (uint32_t i = 0; i < x->depth; i++) {
			prev += (uint64_t)vmt_unzigzag(get_u(&in));
			s->ips[i] = prev;
		}
		x->ips = s->ips;
		break;
	}
	case VMT_REC_RESIDENCY: {
		struct vmt_residency *x = &rec->u.residency;
		x->seq = get_u(&in); x->pid = get_i32(&in);
		x->start = get_u(&in); x->npages = get_u(&in);
		if (x->npages > (uint64_t)(in.end - in.p) * 8)
			return VMT_ECORRUPT;
		x->bits = get_bytes(&in, (x->npages + 7) / 8);
		if (!in.bad) {
			int ret = vmt_res_runs_of_bits(x, &s->res);
			if (ret)
				return ret;
		}
		break;
	}
	case VMT_REC_END: {
		struct vmt_end *x = &rec->u.end;
		x->seq = get_u(&in); x->pid = get_i32(&in);
		x->how = get_u32(&in); x->status = get_i32(&in); x->lost = get_u(&in);
		if (x->how < VMT_END_EXIT || x->how > VMT_END_UNRECORDED)
			return VMT_ECORRUPT;
		break;
	}
	case VMT_REC_ARGV: {
		struct vmt_argv *x = &rec->u.argv;
		x->seq = get_u(&in); x->pid = get_i32(&in); x->argc = get_u32(&in);
		/* every element takes at least 2 bytes */
		if (in.bad || x->argc > (uint64_t)(in.end - in.p) / 2)
			return VMT_ECORRUPT;
		if (reserve(s, (void **)&s->args, &s->nargs, x->argc, sizeof(*s->args)))
			return VMT_ENOMEM;
		for (uint32_t i = 0; i < x->argc && !in.bad; i++) {
			struct vmt_arg *a = &s->args[i];
			a->kind = get_u32(&in);
			a->str = NULL;
			a->addr = 0;
			if (a->kind == VMT_ARG_FAULT)
				a->addr = get_u(&in);
			else if (a->kind <= VMT_ARG_CUT)
				a->str = get_str(&in);
			else
				return VMT_ECORRUPT;
		}
		x->args = s->args;
		x->argv_end = get_u32(&in); x->envc = get_u(&in); x->envp_end = get_u32(&in);
		if (x->argv_end > VMT_ARGV_FAULT || (x->envp_end != VMT_ARGV_NULL && x->envp_end != VMT_ARGV_FAULT))
			return VMT_ECORRUPT;
		break;
	}
	case VMT_REC_RANGES: {
		struct vmt_ranges *x = &rec->u.ranges;
		x->seq = get_u(&in); x->pid = get_i32(&in); x->n = get_u32(&in);
		/* every range takes at least 2 bytes */
		if (in.bad || x->n > VMT_RANGES_MAX || x->n > (uint64_t)(in.end - in.p) / 2)
			return VMT_ECORRUPT;
		if (reserve(s, (void **)&s->ranges, &s->nranges, x->n, sizeof(*s->ranges)))
			return VMT_ENOMEM;
		for (uint32_t i = 0; i < x->n && !in.bad; i++) {
			s->ranges[i].start = get_u(&in);
			s->ranges[i].len = get_u(&in);
		}
		x->ranges = s->ranges;
		x->kind = get_u32(&in);
		/* format 6 added the iovec's target process */
		if (x->kind == VMT_RANGES_IOVEC && (!ctx || !ctx->version || ctx->version >= 6))
			x->target = get_i32(&in);
		if (x->kind == VMT_RANGES_UFFDIO_REGISTER) {
			x->mode = get_u(&in); x->ioctls = get_u(&in);
		} else if (x->kind == VMT_RANGES_VMA_NAME) {
			x->name_how = get_u32(&in);
			if (x->name_how == VMT_NAME_STR)
				x->name = get_str(&in);
			else if (x->name_how != VMT_NAME_NULL && x->name_how != VMT_NAME_FAULT)
				return VMT_ECORRUPT;
		} else if (x->kind == VMT_RANGES_NODEMASK) {
			x->nwords = get_u32(&in);
			if (x->nwords > VMT_NODEMASK_WORDS)
				return VMT_ECORRUPT;
			for (uint32_t i = 0; i < x->nwords; i++)
				x->nodes[i] = get_u(&in);
		} else if (x->kind != VMT_RANGES_IOVEC && x->kind != VMT_RANGES_UFFDIO_RANGE) {
			return VMT_ECORRUPT;
		}
		break;
	}
	default:
		return VMT_ECORRUPT;
	}
	if (in.bad)
		return VMT_ECORRUPT;
	*pp = in.p;
	return 0;
}
