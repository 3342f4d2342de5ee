/* vmreport_names.c - FNV-1a hash, linear probing, doubled when half full. */
#include "analysis/vmreport_names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return (size_t)(h ^ h >> 32);
}

long rep_names_find(const struct rep_names *h, const char *name, rep_name_at *at, const void *arg)
{
	if (!h->cap)
		return -1;
	for (size_t k = hash(name) & (h->cap - 1);; k = (k + 1) & (h->cap - 1)) {
		size_t v = h->slot[k];
		if (!v)
			return -1;
		if (strcmp(at(v - 1, arg), name) == 0)
			return (long)(v - 1);
	}
}

static void put(size_t *slot, size_t cap, size_t i, const char *name)
{
	size_t k = hash(name) & (cap - 1);
	while (slot[k])
		k = (k + 1) & (cap - 1);
	slot[k] = i + 1;
}

int rep_names_add(struct rep_names *h, size_t i, rep_name_at *at, const void *arg)
{
	if (2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		size_t *slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return -1;
		for (size_t k = 0; k < h->cap; k++)
			if (h->slot[k])
				put(slot, cap, h->slot[k] - 1, at(h->slot[k] - 1, arg));
		free(h->slot);
		h->slot = slot;
		h->cap = cap;
	}
	put(h->slot, h->cap, i, at(i, arg));
	h->n++;
	return 0;
}

void rep_names_free(struct rep_names *h)
{
	free(h->slot);
	memset(h, 0, sizeof(*h));
}
