/* raw.h - system calls issued directly, never through libc's wrappers (which
 * the recorder patches) nor through errno (which belongs to the program). */
#ifndef SHIM_RAW_H
#define SHIM_RAW_H

#include <stdint.h>
#include "state.h"
#include "vmt_raw.h"

#define raw6 vmt_raw6      /* traces/vmt_raw.h */

#define raw0(nr)                raw6(nr, 0, 0, 0, 0, 0, 0)
#define raw1(nr, a)             raw6(nr, (long)(a), 0, 0, 0, 0, 0)
#define raw2(nr, a, b)          raw6(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define raw3(nr, a, b, c)       raw6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define raw4(nr, a, b, c, d)    raw6(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

static inline int raw_failed(long r) { return vmt_raw_failed(r); }

/* x86-64's base page, which the recorder's rounding assumes. */
#define SHIM_PAGE      4096UL
#define SHIM_PAGE_MASK (~(SHIM_PAGE - 1))
static inline uint64_t shim_page_up(uint64_t x) { return (x + SHIM_PAGE - 1) & SHIM_PAGE_MASK; }
static inline uint64_t shim_page_down(uint64_t x) { return x & SHIM_PAGE_MASK; }

/* shim_exempt_syscall: a "syscall; ret" inside libc's text (sud.c), or
 * the launcher's trampoline page (tramp.c), or NULL.  Syscall User
 * Dispatch exempts libc's text, so a call issued there skips the kernel's
 * read of this thread's selector byte: ~50 ns in a tight loop, ~2.7 us
 * in a malloc1 loop here, after the page fault of each fresh block.  So
 * the recorded call and the questions asked beside it (residency's PAGEMAP_SCAN, the fault count) go through it.
 * Only for calls that return on the same stack (not clone, vfork, exec). */

static inline long raw6_exempt(long nr, long a, long b, long c, long d, long e, long f)
{
	void *g = shim_exempt_syscall;
	if (!g)
		return raw6(nr, a, b, c, d, e, f);
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	/* step over the red zone: the call pushes its return address */
	__asm__ volatile("lea -128(%%rsp), %%rsp\n\tcall *%[g]\n\tlea 128(%%rsp), %%rsp"
	                 : "=a"(ret)
	                 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9), [g] "r"(g)
	                 : "rcx", "r11", "memory");
	return ret;
}

#define raw2_exempt(nr, a, b)    raw6_exempt(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define raw3_exempt(nr, a, b, c) raw6_exempt(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif
