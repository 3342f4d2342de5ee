/* exec.h - execve/execveat: keep the recorder in the new image. */
#ifndef SHIM_EXEC_H
#define SHIM_EXEC_H

#include <stdint.h>
#include "vmt.h"

/* Issue the call with the recorder's variables in the environment; returns
 * the kernel's raw result (only on failure). */
long exec_call(int sys, int dirfd, const char *path, char *const argv[], char *const envp[],
               int flags);
/* In a new image: the execve event the old image handed over, if any
 * (parsed from VMREC_EXEC, which is then removed from environ), the
 * image's number and the pid's next file id (FILE ids are per pid, so
 * they go on across exec). */
/* The pid and ppid handed over by the image before an execve: 1, or 0. */
int exec_peek_ids(int32_t *pid, int32_t *ppid);
int exec_take_event(struct vmt_event *ev, uint32_t *image, uint32_t *next_file_id);

/* Within exec_call (after umem_self), on the program's arrays:
 * the environment the new image gets (arena memory, *bytes of it), or
 * NULL to pass envp as it is (the kernel would refuse it: let it);
 * exec_var (VMREC_EXEC=...) is added unless NULL */
char **exec_env_build(char *const envp[], uint64_t count, uint32_t end, const char *exec_var,
                      size_t *bytes);
/* the call's ARGV record: argv read, envp's count */
void exec_args_record(uint64_t seq, int32_t pid, char *const argv[], uint64_t envc,
                      uint32_t envp_end);

#endif
