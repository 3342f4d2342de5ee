/* hooks.h - what the hooks share: the patch table and the helpers every
 * hook uses to issue, time and record one call. */
#ifndef SHIM_HOOKS_H
#define SHIM_HOOKS_H

#include "patch.h"
#include "record.h"

extern struct patch_site shim_sites[];
extern const size_t shim_nsites;

/* The replacements (hooks_mem.c, hooks_proc.c) as plain code addresses for
 * the table in sites.c; each is defined with the prototype of the libc
 * function it replaces. */
#ifdef SHIM_SITES
#define HOOK(name) void name(void)
HOOK(hook_mmap); HOOK(hook_munmap); HOOK(hook_mprotect); HOOK(hook_pkey_mprotect);
HOOK(hook_madvise); HOOK(hook_posix_madvise); HOOK(hook_mremap); HOOK(hook_brk);
HOOK(hook_mlock); HOOK(hook_mlock2); HOOK(hook_munlock); HOOK(hook_mlockall);
HOOK(hook_munlockall); HOOK(hook_shmat); HOOK(hook_shmdt); HOOK(hook_ioctl); HOOK(hook_prctl);
HOOK(hook_process_madvise); HOOK(hook_remap_file_pages);
HOOK(hook_Fork); HOOK(shim_hook_vfork); HOOK(shim_hook_clone); HOOK(shim_hook_clone3);
HOOK(hook_execve); HOOK(hook_execveat); HOOK(hook_fexecve); HOOK(hook__exit); HOOK(shim_hook_syscall);
#undef HOOK
#endif


void hooks_init(void);               /* __curbrk, etc. */
/* Issue a VMA call and record it; returns the kernel's raw result. */
long shim_vma_call(int sys, long nr, long a0, long a1, long a2, long a3, long a4, long a5);
/* errno convention of libc's wrappers */
long shim_errno_ret(long r);
/* Process-level (fork/exec/exit) calls reachable through syscall(2). */
long shim_proc_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5, int *handled);

#endif
