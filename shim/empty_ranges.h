/* empty_ranges.h - ranges of this process known to hold no page, so the
 * residency question before a call on them needs no page-table scan
 * (empty_ranges.c says when that can be known). */
#ifndef SHIM_EMPTY_RANGES_H
#define SHIM_EMPTY_RANGES_H

#include <stdint.h>

/* What the table knows of a range about to be released by MADV_DONTNEED. */
enum empty_answer {
	EMPTY_UNKNOWN,     /* never released before: ask the kernel */
	EMPTY_ASK,         /* released before, since touched: ask; *faults is set */
	EMPTY_NONE,        /* no page: nothing to ask; *faults is set */
};

/* Once per process image: whether this kernel's THP mode lets the table be
 * trusted at all. */
void empty_init(void);
enum empty_answer empty_lookup(uint64_t lo, uint64_t hi, uint64_t *faults);
/* After a successful MADV_DONTNEED of [lo, hi); faults as empty_lookup set
 * it (0 when it was not read). */
void empty_note(uint64_t lo, uint64_t hi, uint64_t faults);
/* Before an mmap that makes a fresh anonymous private range: a fault
 * count read before it (no system call), for empty_note of the range it
 * returns; 0 when there is none or the table is not trusted. */
uint64_t empty_fresh_count(void);
/* empty_lookup before a call that releases or changes [lo, hi) other
 * than MADV_DONTNEED; it also learns whether fresh ranges stay empty. */
enum empty_answer empty_lookup_fresh(uint64_t lo, uint64_t hi, uint64_t *faults);
/* Before a call that unmaps [lo, hi) or may move pages into it. */
void empty_forget(uint64_t lo, uint64_t hi);
/* vfork: the child faults on this memory under counters of its own. */
void empty_forget_all(void);
/* Pages may become present unseen from now on (userfaultfd, THP
 * collapse, a CLONE_VM process): answer EMPTY_UNKNOWN only. */
void empty_distrust(void);
/* A system call the recorder passes on unrecorded: userfaultfd distrusts
 * the table (its ioctls fill pages in without faults). */
void empty_passing_call(long nr);
/* A fork child: fault counts start again at 0. */
void empty_after_fork(void);

#endif
