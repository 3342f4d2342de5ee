/* spill.h - an array that grows with the trace's events (its steps and
 * events, the per-event results).  Up to RP_SPILL_ANON_MAX it is anonymous
 * memory (on huge pages where THP allows); past it, it moves into an
 * unlinked file under $TMPDIR (else /tmp), mapped shared, whose pages are
 * the page cache's: the replay keeps resident only the window it works on
 * (rp_spill_drop, then rp_spill_populate for the next one), so the
 * replayer's memory does not grow with the trace, and the kernel writes
 * the rest back or drops it as it needs the memory.  Small arrays stay in
 * memory because every page the window moves to is a fault, and on a
 * shadow-paging guest a costly one (docs/replay-cost.md, "Memory").
 * Where no file can be made, the array stays anonymous memory (as
 * resident as it is large).  A shared spill is seen by forked replayers
 * in both forms. */
#ifndef VMREPLAY_SPILL_H
#define VMREPLAY_SPILL_H

#include <stddef.h>

struct rp_spill {
	void *p;              /* the array, or NULL */
	size_t bytes;         /* mapped */
	int fd;               /* its file, -1: anonymous or sealed */
	int anon;             /* anonymous memory, not a file */
	int shared;           /* anonymous memory is MAP_SHARED */
	int no_file;          /* no file could be made: anonymous for good */
};

/* An empty spill (no mapping yet); shared: seen by forked replayers. */
void rp_spill_init(struct rp_spill *s, int shared);
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
/* The most an array holds in anonymous memory (a build may set it: 0
 * spills every array, for testing the files' path on small traces). */
#ifndef RP_SPILL_ANON_MAX
#define RP_SPILL_ANON_MAX ((size_t)8 << 20)
#endif

#endif
