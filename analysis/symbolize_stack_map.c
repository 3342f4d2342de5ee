/* symbolize_stack_map.c - STACK records by (pid, id), open addressing.  In
 * the symbolize*.c set so that vmtrace and vmreport both link it. */
#include "analysis/stack_map.h"

#include <stdlib.h>
#include <string.h>

static struct stack_slot *map_slot(const struct stack_map *m, int32_t pid, uint32_t id)
{
	uint64_t h = ((uint64_t)(uint32_t)pid << 32 | id) * 0x9e3779b97f4a7c15ull;
	size_t i = (size_t)(h >> 20) & (m->cap - 1);
	while (m->slot[i].id && !(m->slot[i].pid == pid && m->slot[i].id == id))
		i = (i + 1) & (m->cap - 1);
	return &m->slot[i];
}

static int map_grow(struct stack_map *m)
{
	struct stack_map big = { calloc(m->cap ? m->cap * 2 : 256, sizeof(*big.slot)),
				 m->cap ? m->cap * 2 : 256, m->used };
	if (!big.slot)
		return -1;
	for (size_t i = 0; i < m->cap; i++)
		if (m->slot[i].id)
			*map_slot(&big, m->slot[i].pid, m->slot[i].id) = m->slot[i];
	free(m->slot);
	*m = big;
	return 0;
}

int stack_map_put(struct stack_map *m, const struct vmt_stack *st)
{
	if ((m->used + 1) * 2 > m->cap && map_grow(m))
		return -1;
	uint64_t *ips = malloc((st->depth ? st->depth : 1) * sizeof(*ips));
	if (!ips)
		return -1;
	memcpy(ips, st->ips, st->depth * sizeof(*ips));
	struct stack_slot *s = map_slot(m, st->pid, st->id);
	if (s->id)
		free(s->ips);
	else
		m->used++;
	*s = (struct stack_slot){ st->pid, st->id, st->depth, ips };
	return 0;
}

const struct stack_slot *stack_map_get(const struct stack_map *m, int32_t pid, uint32_t id)
{
	const struct stack_slot *s = m->cap && id ? map_slot(m, pid, id) : NULL;
	return s && s->id ? s : NULL;
}

void stack_map_free(struct stack_map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slot[i].ips);
	free(m->slot);
}
