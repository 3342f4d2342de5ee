/* launch_trace.h - the vmrec launcher's recorder: ptrace on the whole
 * process tree, recording the calls libvmrec cannot see (docs/shim.md,
 * "Two recorders"). */
#ifndef SHIM_LAUNCH_TRACE_H
#define SHIM_LAUNCH_TRACE_H

#include <sys/types.h>
#include "vmt_store.h"

struct launch_cfg {
	struct vmt_store *store;     /* attached: the tree's store */
	const char *lib_path;        /* libvmrec.so, whose loading is not the program's */
	/* each process of the tree as it ends (pid, wait status) */
	void (*reaped)(pid_t pid, int status);
};

/* Before fork, in the launcher: the recorder's library, libvmrec.so (it
 * needs only libc: lz4 is linked in), whose file the loader's mmaps of
 * the recorder are of. */
void launch_trace_init(const struct launch_cfg *cfg);

/* After fork, in the launcher: seize `child` (blocked on the pipe until
 * told), let it go, and trace its tree until every task has gone.  The
 * root's wait status in *root_st.  0, or -1 (the root was never seen). */
int launch_trace_run(pid_t child, int go_fd, int *root_st);

/* In the child, before its execve: wait for the tracer, then install the
 * filter.  0, or -errno.  Raw system calls only, errno untouched: the
 * child shares the launcher's memory and thread area (vmrec.c). */
int launch_trace_child(int wait_fd);

#endif
