/* vmt_raw.h - a system call issued directly, never through libc's
 * wrappers (which the recorder patches) nor through errno (which belongs
 * to the program): for the recorder (shim/raw.h) and the trace store it
 * writes into (vmt_store.c).  The result is the kernel's: vmt.h's
 * vmt_raw_failed tells an error from a value. */
#ifndef VMT_RAW_H
#define VMT_RAW_H

#include "vmt.h"

static inline long vmt_raw6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}

#endif
