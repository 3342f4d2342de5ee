/* symbolize_table.c - a session's answers by (object, address) and the
 * strings they point to, interned once: open addressing in power-of-two
 * tables kept at most half full.  Filled by lookups (symbolize.c) and by
 * the cache file (symbolize_cache.c). */
#include <stdlib.h>
#include <string.h>
#include "lib/symbolize_internal.h"

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ull;
	return h;
}

static uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

const char *sym_intern(struct sym_session *s, const char *str)
{
	uint32_t i, mask;

	if (!str)
		return NULL;
	if (2 * (s->nstr + 1) > s->cap_str) {
		uint32_t cap = s->cap_str ? 2 * s->cap_str : 256;
		char **old = s->strs, **tab = calloc(cap, sizeof(*tab));
		uint32_t oldcap = s->cap_str;

		if (!tab)
			return NULL;
		s->strs = tab;
		s->cap_str = cap;
		s->nstr = 0;
		for (i = 0; i < oldcap; i++)
			if (old[i]) {
				uint32_t j = (uint32_t)hash_bytes(old[i], strlen(old[i])) & (cap - 1);
				while (tab[j])
					j = (j + 1) & (cap - 1);
				tab[j] = old[i];
				s->nstr++;
			}
		free(old);
	}
	mask = s->cap_str - 1;
	for (i = (uint32_t)hash_bytes(str, strlen(str)) & mask; s->strs[i];
	     i = (i + 1) & mask)
		if (strcmp(s->strs[i], str) == 0)
			return s->strs[i];
	if (!(s->strs[i] = strdup(str)))
		return NULL;
	s->nstr++;
	return s->strs[i];
}

struct sym_entry *sym_entry_find(struct sym_session *s, uint64_t key)
{
	uint32_t mask = s->cap_tab - 1;

	if (!s->cap_tab)
		return NULL;
	for (uint32_t i = (uint32_t)hash_u64(key) & mask; s->tab[i].key;
	     i = (i + 1) & mask)
		if (s->tab[i].key == key)
			return &s->tab[i];
	return NULL;
}

struct sym_entry *sym_entry_add(struct sym_session *s, uint64_t key)
{
	struct sym_entry *e;
	uint32_t i, mask;

	if ((e = sym_entry_find(s, key)))
		return e;
	if (2 * (s->ntab + 1) > s->cap_tab) {
		uint32_t cap = s->cap_tab ? 2 * s->cap_tab : 1024, oldcap = s->cap_tab;
		struct sym_entry *old = s->tab, *tab = calloc(cap, sizeof(*tab));

		if (!tab)
			return NULL;
		s->tab = tab;
		s->cap_tab = cap;
		for (i = 0; i < oldcap; i++)
			if (old[i].key) {
				uint32_t j = (uint32_t)hash_u64(old[i].key) & (cap - 1);
				while (tab[j].key)
					j = (j + 1) & (cap - 1);
				tab[j] = old[i];
			}
		free(old);
	}
	mask = s->cap_tab - 1;
	for (i = (uint32_t)hash_u64(key) & mask; s->tab[i].key; i = (i + 1) & mask)
		;
	s->tab[i].key = key;
	s->ntab++;
	return &s->tab[i];
}

void sym_entries_clear(struct sym_session *s)
{
	if (s->tab)
		memset(s->tab, 0, (size_t)s->cap_tab * sizeof(*s->tab));
	s->ntab = 0;
}
