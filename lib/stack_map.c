/* symbolize_stack_map.c - STACK records by (pid, id).  In the symbolize*.c
 * set so that vmtrace and vmreport both link it. */
#include "lib/stack_map.h"

#include <stdlib.h>
#include <string.h>

static void free_slot(void *p)
{
	struct stack_slot *s = p;
	free(s->ips);
	free(s);
}

int stack_map_put(struct stack_map *m, const struct vmt_stack *st)
{
	struct stack_slot *s = malloc(sizeof(*s));
	uint64_t *ips = malloc((st->depth ? st->depth : 1) * sizeof(*ips));
	if (!s || !ips) {
		free(s);
		free(ips);
		return -1;
	}
	memcpy(ips, st->ips, st->depth * sizeof(*ips));
	*s = (struct stack_slot){ st->pid, st->id, st->depth, ips };
	if (pid_id_map_put(&m->map, st->pid, st->id, s, free_slot) < 0) {
		free_slot(s);
		return -1;
	}
	return 0;
}

const struct stack_slot *stack_map_get(const struct stack_map *m, int32_t pid, uint32_t id)
{
	return pid_id_map_get(&m->map, pid, id);
}

void stack_map_free(struct stack_map *m)
{
	pid_id_map_free(&m->map, free_slot);
}
