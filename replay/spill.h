/* spill.h - an array that grows with the trace's events (its steps and
 * events, the per-event results), kept in an unlinked file under $TMPDIR
 * (else /tmp) and mapped shared.  Its pages are the page cache's: the
 * replay keeps resident only the window it works on (rp_spill_drop, then
 * rp_spill_populate for the next one), so the replayer's memory does not
 * grow with the trace; the kernel writes the rest back or drops it as it
 * needs the memory.  Where no such file can be made, the array is
 * anonymous memory (as resident as it is large).  Forked replayers share
 * the mapping. */
#ifndef VMREPLAY_SPILL_H
#define VMREPLAY_SPILL_H

#include <stddef.h>

struct rp_spill {
	void *p;              /* the array, or NULL */
	size_t bytes;         /* mapped */
	int fd;               /* its file while it grows, -1: anonymous or closed */
	int anon;             /* no file: anonymous memory */
};

/* An empty spill (no mapping yet). */
void rp_spill_init(struct rp_spill *s);
/* At least `need` bytes mapped, doubling; the contents stay, at the same
 * address or moved (s->p).  0, or -1 out of memory or disk. */
int rp_spill_grow(struct rp_spill *s, size_t need);
/* No more growth nor zeroing: the file's descriptor is closed (the
 * mapping keeps the file). */
void rp_spill_seal(struct rp_spill *s);
void rp_spill_free(struct rp_spill *s);
/* Every resident page leaves this process's memory (still in the file). */
void rp_spill_drop(const struct rp_spill *s);
/* [off, off + len) made resident in one call (clipped to the mapping);
 * write: to be written.  A hint: a kernel without MADV_POPULATE_* faults
 * them in as they are used. */
void rp_spill_populate(const struct rp_spill *s, size_t off, size_t len, int write);
/* Every byte zero again: in the file where it can (its pages untouched),
 * else a window at a time. */
void rp_spill_zero(const struct rp_spill *s);

/* How many entries a loop over a spilled array walks between two drops:
 * the window kept resident. */
#define RP_SPILL_WINDOW 32768

#endif
