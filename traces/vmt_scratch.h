/* vmt_scratch.h - growing the decoder's scratch arrays through the
 * caller's allocator (NULL: malloc), so the trace store's finisher inside
 * a recorded program never calls the program's malloc.  Internal to the
 * trace library. */
#ifndef VMT_SCRATCH_H
#define VMT_SCRATCH_H

#include <stddef.h>
#include "vmt.h"

/* Grow *arr (room for *cap elements of elem bytes) to hold n: 0, or
 * VMT_ENOMEM with *arr and *cap unchanged.  Contents are kept. */
int vmt_scratch_grow(void **arr, size_t *cap, size_t n, size_t elem, const struct vmt_alloc *a);
/* Free what vmt_scratch_grow gave (cap elements of elem bytes). */
void vmt_scratch_release(void *arr, size_t cap, size_t elem, const struct vmt_alloc *a);

#endif
