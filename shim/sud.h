/* sud.h - Syscall User Dispatch: the safety net that traps VMA calls made
 * outside libc's patched wrappers (ld.so's private copies, inline sites,
 * other libraries' raw syscall instructions). */
#ifndef SHIM_SUD_H
#define SHIM_SUD_H

#define SUD_ALLOW 0
#define SUD_BLOCK 1

#ifndef __ASSEMBLER__   /* arch_x86_64.S takes only the two values above */
#include "raw.h"
#include "record.h"

int sud_init(void);          /* install the SIGSYS handler, arm this thread */
void sud_arm_thread(void);   /* in every new thread and fork child */

/* Every way into the recorder (hooks, handlers, constructors) brackets its
 * work with these, so the recorder's own system calls are never trapped;
 * the previous value is restored because signals nest. */
static inline uint8_t sud_enter(void)
{
	uint8_t prev = shim_sud_selector;
	shim_sud_selector = SUD_ALLOW;
	__asm__ volatile("" ::: "memory");
	return prev;
}

static inline void sud_leave(uint8_t prev)
{
	__asm__ volatile("" ::: "memory");
	shim_sud_selector = prev;
}

#endif /* __ASSEMBLER__ */
#endif
