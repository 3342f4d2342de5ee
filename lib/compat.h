/* compat.h - Linux constants newer than some C library headers vmrec
 * builds with, each defined only where the system's headers lack it, and
 * only here (the values are the kernel's uapi ones).  Macros only, so
 * every part of the tree may include it (tests/build/flow.t). */
#ifndef LIB_COMPAT_H
#define LIB_COMPAT_H

#include <sys/prctl.h>

/* Syscall User Dispatch (Linux 5.11) */
#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#endif
/* si_code of a SIGSYS raised by Syscall User Dispatch */
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

#endif
