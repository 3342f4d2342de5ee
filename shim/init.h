/* init.h - process-level life cycle: start, fork child, exit. */
#ifndef SHIM_INIT_H
#define SHIM_INIT_H

struct vmt_store_proc;

/* In a fork child, before it returns to the program: it takes the store
 * entry its parent made for it (vmt_store_proc_unborn), or a new one. */
void shim_fork_child(struct vmt_store_proc *unborn);
/* exit_group / _exit: record, checkpoint, flush every writer. */
void shim_process_exit(int sys, int status);

#endif
