/* symbolize_pid_id_map.c - (pid, id) -> value, open addressing.  In the
 * symbolize*.c set so that vmtrace and vmreport both link it. */
#include "lib/pid_id_map.h"

#include <stdlib.h>

static struct pid_id_slot *map_slot(const struct pid_id_map *m, int32_t pid, uint32_t id)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | id) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (m->cap - 1);
	while (m->slot[i].id && !(m->slot[i].pid == pid && m->slot[i].id == id))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

static int map_grow(struct pid_id_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct pid_id_map big = { calloc(cap, sizeof(*big.slot)), cap, m->used };
	if (!big.slot)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].id)
			*map_slot(&big, m->slot[i].pid, m->slot[i].id) = m->slot[i];
	free(m->slot);
	*m = big;
	return 0;
}

int pid_id_map_put(struct pid_id_map *m, int32_t pid, uint32_t id, void *value,
                   void (*free_value)(void *))
{
	if (!id) {               /* names nothing: nothing refers to it */
		free_value(value);
		return 0;
	}
	if ((m->used + 1) * 2 > m->cap && map_grow(m))
		return -1;
	struct pid_id_slot *s = map_slot(m, pid, id);
	if (s->id)
		free_value(s->value);
	else
		m->used++;
	*s = (struct pid_id_slot){ pid, id, value };
	return 0;
}

void *pid_id_map_get(const struct pid_id_map *m, int32_t pid, uint32_t id)
{
	const struct pid_id_slot *s = m->cap && id ? map_slot(m, pid, id) : NULL;
	return s && s->id ? s->value : NULL;
}

void pid_id_map_free(struct pid_id_map *m, void (*free_value)(void *))
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].id)
			free_value(m->slot[i].value);
	free(m->slot);
	m->slot = NULL;
	m->cap = m->used = 0;
}
