/* vmt_scratch.c - the decoder's scratch arrays, grown through an allocator
 * (vmt_scratch.h). */
#include "vmt_scratch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int vmt_scratch_grow(void **arr, size_t *cap, size_t n, size_t elem, const struct vmt_alloc *a)
{
	if (n <= *cap)
		return 0;
	if (n > SIZE_MAX / elem)
		return VMT_ENOMEM;
	if (!a) {
		void *p = realloc(*arr, n * elem);
		if (!p)
			return VMT_ENOMEM;
		*arr = p;
		*cap = n;
		return 0;
	}
	/* vmt_alloc has no realloc: a new block, the old contents, the old
	 * block back */
	void *p = a->alloc(n * elem, a->opaque);
	if (!p)
		return VMT_ENOMEM;
	if (*arr) {
		memcpy(p, *arr, *cap * elem);
		a->free(*arr, *cap * elem, a->opaque);
	}
	*arr = p;
	*cap = n;
	return 0;
}

void vmt_scratch_release(void *arr, size_t cap, size_t elem, const struct vmt_alloc *a)
{
	if (!arr)
		return;
	if (a)
		a->free(arr, cap * elem, a->opaque);
	else
		free(arr);
}
