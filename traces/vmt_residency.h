/* vmt_residency.h - RESIDENCY records coded by runs of resident pages and
 * against the chunk's previous RESIDENCY record (wire type 12, format
 * version 3; docs/trace-format.md).  Internal to the trace library. */
#ifndef VMT_RESIDENCY_H
#define VMT_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>
#include "vmt.h"

#define VMT_WIRE_RESIDENCY_RUNS 12
/* A record may name at most this many pages (1 TiB of 4 KiB pages), so a
 * reader's bitmap stays bounded whatever a corrupt record says. */
#define VMT_RESIDENCY_PAGES_MAX (1ULL << 28)
/* The previous record's runs are remembered when there are at most this
 * many, so a record repeating them says so in one bit. */
#define VMT_RES_KEEP 8

/* What the previous RESIDENCY record of the chunk said (all zero at a
 * chunk's start, and for a record coded on its own). */
struct vmt_meta_ctx {
	uint32_t version;       /* the chunk's format version; 0: this library's */
	uint64_t index, seq, start, npages;
	int32_t pid;
	uint32_t nruns;
	int runs_kept;
	struct vmt_run runs[VMT_RES_KEEP];
};

/* Bytes the record's fields may take after its type byte. */
size_t vmt_res_bound(const struct vmt_residency *x);
/* Encode after the type byte (which the caller wrote). */
uint8_t *vmt_res_encode(uint8_t *p, const struct vmt_residency *x,
                        uint64_t event_index, struct vmt_meta_ctx *ctx);
/* The event index of the record whose fields start at p (after the type
 * byte), without decoding it: 0, or -1 if it does not decode. */
int vmt_res_index(const uint8_t *p, const uint8_t *end,
                  const struct vmt_meta_ctx *ctx, uint64_t *index);

/* Where decoded bitmaps and runs live. */
struct vmt_res_scratch {
	uint8_t *bits;
	size_t nbits;        /* bytes */
	struct vmt_run *runs;
	size_t nruns;
	const struct vmt_alloc *alloc;   /* NULL: malloc */
};
void vmt_res_scratch_free(struct vmt_res_scratch *s);
/* Decode a wire-type-12 record's fields from [*pp, end): 0 and *pp
 * advanced, or VMT_ECORRUPT / VMT_ENOMEM. */
int vmt_res_decode(const uint8_t **pp, const uint8_t *end, struct vmt_residency *x,
                   uint64_t *event_index, struct vmt_res_scratch *s,
                   struct vmt_meta_ctx *ctx);
/* A version 1-2 bitmap record (type 8) just decoded: fill in its runs. */
int vmt_res_runs_of_bits(struct vmt_residency *x, struct vmt_res_scratch *s);

#endif
