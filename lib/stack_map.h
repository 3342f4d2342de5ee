/* stack_map.h - the STACK records of a trace, copied out of the reader's
 * records and kept by (pid, id), for the tools that read a trace in seq
 * order and look up each event's stack (vmtrace dump -k, vmreport). */
#ifndef VMREC_STACK_MAP_H
#define VMREC_STACK_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "lib/pid_id_map.h"
#include "vmt.h"

struct stack_slot {
	int32_t pid;
	uint32_t id, depth;  /* id 0: empty slot */
	uint64_t *ips;
};

struct stack_map {
	struct pid_id_map map;   /* values: struct stack_slot */
};

/* Copies ST in; a later record of the same key (a new image of the pid)
 * replaces the earlier one.  0, or -1 when out of memory. */
int stack_map_put(struct stack_map *m, const struct vmt_stack *st);
/* The stack (pid, id), or NULL (also for id 0). */
const struct stack_slot *stack_map_get(const struct stack_map *m, int32_t pid, uint32_t id);
void stack_map_free(struct stack_map *m);

#endif
