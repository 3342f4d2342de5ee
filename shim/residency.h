/* residency.h - which pages of a range are mapped (PAGEMAP_SCAN, or
 * mincore) just before a call that removes or changes it, so a replay can
 * fault the same in. */
#ifndef SHIM_RESIDENCY_H
#define SHIM_RESIDENCY_H

#include <stdint.h>

enum residency_mode { RESIDENCY_OFF, RESIDENCY_MAPPED, RESIDENCY_MINCORE };

/* At most this many pages per record (1 GiB of 4 KiB pages); the rest of a
 * larger range is not described. */
#define RESIDENCY_MAX_PAGES (1UL << 18)
/* Before fork: the private writable VMAs, at most this many pages in all. */
#define RESIDENCY_FORK_PAGES (1UL << 20)

void residency_range(uint64_t seq, uint64_t start, uint64_t len);
void residency_fork(uint64_t seq);
/* Another process's pages of a range (process_madvise of its pidfd). */
void residency_of(uint64_t seq, int32_t pid, uint64_t start, uint64_t len);
/* A record of the first mapped page of [lo, hi), if any. */
void residency_first(uint64_t seq, uint64_t lo, uint64_t hi);

#endif
