/* vmt_meta.h - encoding of the records that are not events (they live in
 * skippable frames).  Internal to the trace library. */
#ifndef VMT_META_H
#define VMT_META_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"
#include "vmt_residency.h"

/* A LAYOUT VMA's kind varint: VMT_PROT_* in bits 0-2, then these. */
#define VMT_LAYOUT_SHARED   0x08u
#define VMT_LAYOUT_RECORDER 0x10u
#define VMT_LAYOUT_FILE     0x20u   /* a varint file_id follows */
#define VMT_LAYOUT_NAME     0x40u   /* a str name follows */
#define VMT_LAYOUT_BITS     0x7Fu

/* An upper bound on vmt_meta_encode's output for rec. */
size_t vmt_meta_bound(const struct vmt_record *rec);
/* Encode rec (any type but EVENT) at p; returns the end.  ctx: the
 * chunk's coding state (zeroed at the chunk's start), or NULL for a
 * record coded on its own (the store's slab entries). */
uint8_t *vmt_meta_encode(uint8_t *p, const struct vmt_record *rec,
                         uint64_t event_index, struct vmt_meta_ctx *ctx);
/* The seq of a metadata record that has one (process, map, checkpoint,
 * layout, residency, end): 1 and *seq set, else 0. */
static inline int vmt_meta_seq(const struct vmt_record *r, uint64_t *seq)
{
	switch (r->type) {
	case VMT_REC_PROCESS: *seq = r->u.process.seq; return 1;
	case VMT_REC_MAP: *seq = r->u.map.seq; return 1;
	case VMT_REC_CHECKPOINT: *seq = r->u.checkpoint.seq; return 1;
	case VMT_REC_LAYOUT: *seq = r->u.layout.seq; return 1;
	case VMT_REC_RESIDENCY: *seq = r->u.residency.seq; return 1;
	case VMT_REC_END: *seq = r->u.end.seq; return 1;
	}
	return 0;
}

/* Growable arrays that decoded records point into. */
struct vmt_scratch {
	struct vmt_vma *vmas;
	size_t nvmas;
	uint64_t *ips;
	size_t nips;
	struct vmt_arg *args;
	size_t nargs;
	struct vmt_range *ranges;
	size_t nranges;
	struct vmt_res_scratch res;
	const struct vmt_alloc *alloc;   /* NULL: malloc */
};
void vmt_scratch_free(struct vmt_scratch *s);

/* Decode one record from [*pp, end): 0 and *pp advanced, or VMT_ECORRUPT /
 * VMT_ENOMEM.  Strings point into the input, which must stay mapped.  ctx
 * as the encoder's. */
int vmt_meta_decode(const uint8_t **pp, const uint8_t *end,
                    struct vmt_record *rec, uint64_t *event_index,
                    struct vmt_scratch *s, struct vmt_meta_ctx *ctx);
/* The event index of the record at [p, end) without decoding it: 0, or
 * -1 if it does not decode. */
int vmt_meta_index(const uint8_t *p, const uint8_t *end,
                   const struct vmt_meta_ctx *ctx, uint64_t *index);

#endif
