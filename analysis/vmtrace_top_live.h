/* vmtrace_top_live.h - which ranges each process still has mapped, and by
 * whom: `vmtrace top --by vmas` counts what each call site left behind. */
#ifndef VMREC_VMTRACE_TOP_LIVE_H
#define VMREC_VMTRACE_TOP_LIVE_H

#include <stdint.h>
#include "vmt.h"

struct live_map;

struct live_map *live_new(uint64_t page_size);
/* Follow one event; owner names the call site that made it (any value). */
int live_event(struct live_map *m, const struct vmt_event *ev, uint32_t owner);
/* A new image replaced the process's address space. */
void live_exec(struct live_map *m, int32_t pid);
/* counts[group[owner]] += the VMAs owner's live ranges make at the end;
 * owners >= nowner are ignored. */
void live_count(const struct live_map *m, const uint32_t *group, uint32_t nowner,
                uint64_t *counts);
void live_free(struct live_map *m);

#endif
