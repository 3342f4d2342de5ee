/* placement.h - where each recorded address space goes in the replayer:
 * one unit per address space (a process image and its fork children until
 * they exec), each with its own offset, and with --placement kernel a window
 * for the image's mmap area set directly below the replayer's own mappings,
 * so this kernel's top-down search meets the recorded neighbourhood. */
#ifndef VMREPLAY_PLACEMENT_H
#define VMREPLAY_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

struct rp_engine;

/* Below this a recorded address can mean itself (mmap_min_addr, MAP_FIXED
 * at 0, 32-bit layouts): calls that asked for such an address keep it
 * (offset 0) when the replayer's own memory leaves it free -- vmreplay
 * holds the range from start-up until the layout is chosen
 * (the back end's hold_low) -- and when they move, the events count as moved. */
#define RP_LOW_TOP (4ull << 30)

struct rp_unit {
	int64_t off;           /* recorded -> replayed, outside the window */
	int64_t woff;          /* inside the window */
	uint64_t w_lo, w_hi;   /* the recorded window; empty: none */
	size_t fill0, nfill;   /* its fillers in rp_layout.fill */
};

/* A PROT_NONE mapping of ours where the original had something the replay
 * does not rebuild (recorder, [vdso], the pad up to our own mappings). */
struct rp_fill {
	uint64_t start, end;   /* replayed */
	uint8_t mapped;        /* in this replayer process */
};

struct rp_layout {
	struct rp_unit *units;     size_t nunits;
	uint32_t *unit_of_image;   /* per rp_trace.images */
	uint32_t *unit_of_slot;    /* a process without a process record */
	struct rp_fill *fill;      size_t nfill;
	uint64_t hold_lo, hold_hi; /* reserved by the driver until the first image */
};

/* Choose every unit's placement (before any replayer starts). 0, or -1
 * with a message printed (out of memory). */
int rp_layout_init(struct rp_engine *e);
void rp_layout_free(struct rp_engine *e);

/* The unit of the image `slot` builds at `step`; never NULL. */
const struct rp_unit *rp_unit_at(const struct rp_engine *e, size_t step, uint32_t slot);

/* In the replayer, around an image: drop the driver's reservation (first
 * image of the process) and map or unmap the unit's fillers. */
void rp_unit_enter(struct rp_engine *e, const struct rp_unit *u, int first);
void rp_unit_leave(struct rp_engine *e, const struct rp_unit *u);

static inline int64_t rp_unit_delta(const struct rp_unit *u, uint64_t a)
{
	return a >= u->w_lo && a < u->w_hi ? u->woff : u->off;
}

#endif
