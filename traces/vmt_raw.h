/* vmt_raw.h - a system call issued directly, never through libc's
 * wrappers (which the recorder patches) nor through errno (which belongs
 * to the program): for the recorder (shim/raw.h) and the trace store it
 * writes into (vmt_store.c).  The result is the kernel's: vmt.h's
 * vmt_raw_failed tells an error from a value. */
#ifndef VMT_RAW_H
#define VMT_RAW_H

#include "vmt.h"

/* NULL: the call is issued where it is written.  Otherwise a `syscall;
 * ret` to issue it in: under the vmrec launcher, libvmrec's trampoline
 * page, where the launcher's filter lets the recorder's own calls
 * through (shim/tramp.c).  Not for calls that return on another stack
 * (clone, vfork). */
extern void *vmt_raw_gate;

static inline long vmt_raw6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	void *g = vmt_raw_gate;
	long ret;
	if (__builtin_expect(g != NULL, 0))
		/* step over the red zone: the call pushes its return address */
		__asm__ volatile("lea -128(%%rsp), %%rsp\n\tcall *%[g]\n\tlea 128(%%rsp), %%rsp"
		                 : "=a"(ret)
		                 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9), [g] "r"(g)
		                 : "rcx", "r11", "memory");
	else
		__asm__ volatile("syscall"
		                 : "=a"(ret)
		                 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
		                 : "rcx", "r11", "memory");
	return ret;
}

#endif
