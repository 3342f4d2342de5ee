/* launch_filter.h - the seccomp filter the vmrec launcher's child installs
 * before its first execve (docs/shim.md, "Two recorders"). */
#ifndef SHIM_LAUNCH_FILTER_H
#define SHIM_LAUNCH_FILTER_H

#include <stdint.h>

/* The page libvmrec maps at this address under the launcher holds its
 * `syscall; ret`: calls issued there are libvmrec's and pass the filter. */
#define LAUNCH_TRAMPOLINE 0x3dfffff00000ull

/* In the child: every call the table records gets `elsewhere` (the
 * launcher's SECCOMP_RET_TRACE: it stops the tracer) unless it comes from
 * the trampoline page; every other call is allowed.  0, or -errno.
 * (make bench's loops install it with SECCOMP_RET_ALLOW: what running
 * the filter costs a call.) */
int launch_filter_install(uint64_t trampoline, uint32_t elsewhere);

#endif
