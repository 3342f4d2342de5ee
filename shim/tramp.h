/* tramp.h - the trampoline page libvmrec maps under the vmrec launcher
 * (docs/shim.md, "Two recorders"): the launcher's filter lets through
 * the calls issued in it, so the recorder issues every call of its own
 * and every call it records there. */
#ifndef SHIM_TRAMP_H
#define SHIM_TRAMP_H

#include <stdint.h>

/* Where each piece of code sits in the page. */
#define TRAMP_SYSCALL 0     /* syscall; ret */
#define TRAMP_EXIT    16    /* a thread's last call: exit(0), as glibc's start_thread loops on it */
#define TRAMP_TASK    32    /* task-creating calls, 16 bytes each: syscall, then back to the hook */

/* The task-creating hooks (arch_x86_64.S) jump here, when set, instead
 * of issuing their syscall; parent and child both jump back to the
 * instruction after it. */
extern void *shim_tramp_vfork, *shim_tramp_clone, *shim_tramp_clone3;

/* Map the page at `at` (MAP_FIXED_NOREPLACE: the launcher's stop for
 * this mmap tells it libvmrec is live in the process) and fill it.
 * 0, or -1 (not mapped). */
int tramp_map(uint64_t at);
/* Stop issuing calls through the page (the recorder gave up after it
 * was mapped): from here they stop the launcher as the program's do. */
void tramp_unuse(void);

/* glibc's start_thread ends in `exit(0)` issued in libc's text, which
 * the filter would stop: under the launcher it jumps to TRAMP_EXIT
 * instead (patched with the libc entries, patch.c). */
void tramp_patch_thread_exit(void);

/* A clone's flags as the recorder issues them under the launcher: where
 * the kernel would report a PTRACE_EVENT_CLONE (a clone that is neither
 * vfork nor fork-like), CLONE_PTRACE, so the new task is traced without
 * that stop (the launcher asks for no clone events from processes where
 * libvmrec is live). */
uint64_t tramp_clone_flags(uint64_t flags, uint64_t exit_signal);

#endif
