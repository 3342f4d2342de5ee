/* addrmap.h - recorded -> replayed address translation: a sorted set of
 * disjoint recorded ranges, each carrying the delta to its replayed place.
 * Ranges split and merge as munmap/mprotect/mremap cut them. */
#ifndef VMREPLAY_ADDRMAP_H
#define VMREPLAY_ADDRMAP_H

#include <stddef.h>
#include <stdint.h>

struct am_range {
	uint64_t start, end;   /* recorded, [start, end) */
	int64_t delta;         /* replayed = recorded + delta */
};

struct addrmap {
	struct am_range *r;
	size_t n, cap;
	size_t hint;   /* where the last update was: tried first (addrmap.c) */
};

void am_init(struct addrmap *m);
void am_free(struct addrmap *m);
void am_clear(struct addrmap *m);
/* Room for n ranges without allocating again. 0 or -1. */
int am_reserve(struct addrmap *m, size_t n);
/* Map [start, end) with `delta`, replacing whatever covered it. 0 or -1 (ENOMEM). */
int am_set_any(struct addrmap *m, uint64_t start, uint64_t end, int64_t delta);
/* am_set_any, with its most common case inline: the range the last update
 * ended grows up into free space with its own delta (a heap's brk loop, a
 * mapping growing above the range before it): only that range's end moves. */
static inline int am_set(struct addrmap *m, uint64_t start, uint64_t end, int64_t delta)
{
	size_t h = m->hint;
	if (h > 0 && h <= m->n && start < end && m->r[h - 1].end == start && m->r[h - 1].delta == delta &&
	    (h == m->n || m->r[h].start > end)) {
		m->r[h - 1].end = end;
		return 0;
	}
	return am_set_any(m, start, end, delta);
}
/* Forget [start, end) (the pieces around it stay). 0 or -1. */
int am_remove(struct addrmap *m, uint64_t start, uint64_t end);
/* The range holding addr, or NULL. */
const struct am_range *am_find(const struct addrmap *m, uint64_t addr);

/* Walk [start, end) piece by piece: each call fills *p with the next piece
 * (a mapped part with its delta, or a gap with mapped = 0) and returns 1,
 * 0 when done.  *cursor starts at `start`. */
struct am_piece {
	uint64_t start, end;
	int64_t delta;
	int mapped;
};
int am_next_piece(const struct addrmap *m, uint64_t *cursor, uint64_t end,
                  struct am_piece *p);

#endif
