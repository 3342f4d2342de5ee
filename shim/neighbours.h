/* neighbours.h - a new mapping that lands between two VMAs with pages:
 * whether the kernel merged it with both depends on their anon_vmas,
 * which page faults make and no call shows, so the recorder writes a page
 * of each (a RESIDENCY record before the call) where the kernel did not
 * (neighbours.c says how it finds out, cheaply). */
#ifndef SHIM_NEIGHBOURS_H
#define SHIM_NEIGHBOURS_H

#include <stdint.h>

/* After a successful anonymous private mmap that returned [lo, hi): the
 * event's seq, the mapping's PROT_*. */
void neighbours_mapped(uint64_t seq, uint64_t lo, uint64_t hi, int prot);
/* After a successful call that unmapped [lo, hi) (munmap, mremap's
 * source, shmdt's segment when known). */
void neighbours_unmapped(uint64_t lo, uint64_t hi);
/* After mremap: its new range, with no question asked. */
void neighbours_moved(uint64_t lo, uint64_t hi);

#endif
