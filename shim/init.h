/* init.h - process-level life cycle: start, fork child, exit. */
#ifndef SHIM_INIT_H
#define SHIM_INIT_H

#include <stddef.h>

/* In a fork child, before it returns to the program. */
void shim_fork_child(void);
/* exit_group / _exit: record, checkpoint, flush every writer. */
void shim_process_exit(int sys, int status);
/* The environment the recorder needs in an exec'd image ("NAME=value"),
 * NULL-terminated, and the library's own path. */
const char *const *shim_saved_env(void);
const char *shim_lib_path(void);
/* 1 if the first `len` bytes of an environment string start one of the
 * recorder's own variables (VMREC_OUT=..., the list in init.c); a
 * VMREC_ name the recorder does not use is the program's. */
int shim_env_ours(const char *s, size_t len);
/* fd moved to a high number (close-on-exec), out of the program's way;
 * fd itself when it cannot be moved, or the error it carries. */
int shim_move_high(long fd);

#endif
