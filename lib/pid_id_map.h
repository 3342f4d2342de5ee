/* pid_id_map.h - values kept by (pid, id): the records of a trace that
 * later records name by id (STACK, FILE), for the tools that read a trace
 * in seq order and look each reference up (vmtrace dump, vmreport). */
#ifndef VMREC_PID_ID_MAP_H
#define VMREC_PID_ID_MAP_H

#include <stddef.h>
#include <stdint.h>

struct pid_id_slot {
	int32_t pid;
	uint32_t id;          /* 0: empty slot */
	void *value;
};

struct pid_id_map {
	struct pid_id_slot *slot;
	size_t cap, used;
};

/* Keeps value under (pid, id); a value already there, or this one when id
 * is 0, is handed to free_value.  0, or -1 when out of memory (value not
 * kept: the caller still owns it). */
int pid_id_map_put(struct pid_id_map *m, int32_t pid, uint32_t id, void *value,
                   void (*free_value)(void *));
/* The value under (pid, id), or NULL (also for id 0). */
void *pid_id_map_get(const struct pid_id_map *m, int32_t pid, uint32_t id);
void pid_id_map_free(struct pid_id_map *m, void (*free_value)(void *));

#endif
