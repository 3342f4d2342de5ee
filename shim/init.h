/* init.h - process-level life cycle: start, fork child, exit. */
#ifndef SHIM_INIT_H
#define SHIM_INIT_H

/* In a fork child, before it returns to the program. */
void shim_fork_child(void);
/* exit_group / _exit: record, checkpoint, flush every writer. */
void shim_process_exit(int sys, int status);

#endif
