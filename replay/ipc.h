/* ipc.h - the calls that act on a whole process or a SysV segment rather
 * than a recorded range: shmat, shmdt, mlockall, munlockall (ipc.c). */
#ifndef VMREPLAY_IPC_H
#define VMREPLAY_IPC_H

#include "replay/engine_int.h"

/* What they keep for one engine (e->ipc), made and freed with it. */
struct rp_ipc *rp_ipc_new(void);
void rp_ipc_free(struct rp_ipc *x);

/* Replay event i if it is one of them and return 1 (out, fx, skipped and
 * want filled as rp_replay_event's own cases fill them); else 0. */
int rp_ipc_event(struct rp_engine *e, uint32_t slot, struct rp_pstate *p, size_t i,
                 struct vmt_event *ev, struct vr_result *out, struct rp_effect *fx,
                 int *skipped, int64_t *want);

#endif
