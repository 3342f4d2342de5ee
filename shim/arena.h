/* arena.h - the recorder's own memory: one private mapping placed away from
 * the program's heap and mmap area, never the program's malloc or brk. */
#ifndef SHIM_ARENA_H
#define SHIM_ARENA_H

#include <stddef.h>
#include <stdint.h>

int arena_init(void);                   /* 0, or -errno */
void *arena_alloc(size_t size);         /* zeroed; NULL when full */
/* Not zeroed: for a buffer its caller fills before reading.  A block
 * used before is handed back as it was, untouched: zeroing it would
 * write every page of it (after a fork, copy each). */
void *arena_alloc_raw(size_t size);
void arena_free(void *p, size_t size);
int arena_contains(uint64_t start, uint64_t end);

#endif
