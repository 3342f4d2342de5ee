/* compat.h - Linux constants newer than some C library headers vmrec
 * builds with, each defined only where the system's headers lack it, and
 * only here (the values are the kernel's uapi ones).  Macros only, so
 * every part of the tree may include it (tests/build/flow.t). */
#ifndef LIB_COMPAT_H
#define LIB_COMPAT_H

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>

/* Syscall User Dispatch (Linux 5.11) */
#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#define PR_SYS_DISPATCH_ON 1
#endif
/* mmap, madvise, mremap, shmat */
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000          /* Linux 4.17 */
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22                 /* Linux 5.14 */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4                    /* Linux 5.7 */
#endif
#ifndef SHM_REMAP
#define SHM_REMAP 040000
#endif
/* si_code of a SIGSYS raised by Syscall User Dispatch */
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

#endif
