/* compat.h - Linux constants newer than some C library headers vmrec
 * builds with, each defined only where the system's headers lack it, and
 * only here (the values are the kernel's uapi ones).  Macros only, so
 * every part of the tree may include it (tests/build/flow.t). */
#ifndef LIB_COMPAT_H
#define LIB_COMPAT_H

#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>

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
#ifndef MADV_DONTNEED_LOCKED
#define MADV_DONTNEED_LOCKED 24               /* Linux 5.18 */
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25                      /* Linux 6.1 */
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102                /* Linux 6.13 */
#define MADV_GUARD_REMOVE 103
#endif
#ifndef PROT_SEM
#define PROT_SEM 0x8
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1                       /* Linux 4.4 */
#endif
#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif
/* system calls newer than some headers' numbers (x86-64) */
#ifndef SYS_userfaultfd
#define SYS_userfaultfd 323
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
/* si_code of a SIGSYS raised by Syscall User Dispatch */
#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

#endif
