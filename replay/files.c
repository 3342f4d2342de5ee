/* files.c - the recorded files a process sees (its own table, else its
 * parents') and the stand-in descriptor the replay maps for each. */
#include "replay/engine_int.h"
#include "replay/standin.h"

const struct vmt_file *rp_file_of(const struct rp_trace *t, uint32_t slot, uint32_t id)
{
	for (int32_t s = (int32_t)slot; s >= 0 && id; s = t->procs[s].parent_slot) {
		const struct vmt_file *f = rp_trace_file(t, t->procs[s].pid, id);
		if (f)
			return f;
	}
	return NULL;
}

int rp_fd_of(const struct standins *si, const struct vmt_file *f)
{
	return f && si ? standins_fd(si, rp_trace_file_index(si->t, f)) : -1;
}
