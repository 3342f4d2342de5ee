/* sud.c - Syscall User Dispatch as the safety net: the gate.
 *
 * Every thread runs with its selector at BLOCK and libc's text exempt, so
 * libc's own system calls (read, write, the patched wrappers' callers...)
 * never trap; a system call from anywhere else - ld.so's private mmap,
 * mprotect and munmap used by dlopen, a raw `syscall` instruction in the
 * program - raises SIGSYS, which sigsys.c takes.  Dispatch is cleared for
 * each new task and on execve, so it is re-armed in new threads and fork
 * children, and a static program exec'd later is never left with a trap
 * it cannot handle (unlike a seccomp filter). */
#include "sud.h"
#include "patch.h"
#include "sigsys.h"
#include "lib/compat.h"

#include <sys/prctl.h>
#include <sys/syscall.h>

static unsigned long exempt_start, exempt_len;

void sud_arm_thread(void)
{
	if (!sud_enabled)
		return;
	shim_sud_selector = SUD_ALLOW;
	if (raw_failed(raw6(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON,
	                    (long)exempt_start, (long)exempt_len, (long)&shim_sud_selector, 0)))
		return;
	shim_sud_selector = SUD_BLOCK;
}

static int wrapper_tail(const unsigned char *p)
{
	return p[0] == 0xb8 && p[3] == 0 && p[4] == 0 && p[5] == 0x0f && p[6] == 0x05 && p[7] == 0xc3;
}

/* The tail of a wrapper in libc's text, "mov $nr,%eax; syscall; ret":
 * getppid's whole body, which no site patches; elsewhere (another libc
 * build) the first one in the text, read after patching so no patched
 * site is taken.  The scan reads ~1.4 MiB, faulting in pages of libc's
 * text the program may never run: ~0.3 ms a process. */
static void find_exempt_syscall(void)
{
	const unsigned char *p = patch_libc_symbol("getppid");
	if (p && (unsigned long)p >= exempt_start && (unsigned long)p + 8 <= exempt_start + exempt_len &&
	    wrapper_tail(p)) {
		shim_exempt_syscall = (void *)(p + 5);
		return;
	}
	p = (const unsigned char *)exempt_start;
	for (unsigned long i = 0; i + 8 <= exempt_len; i++)
		if (wrapper_tail(p + i)) {
			shim_exempt_syscall = (void *)(p + i + 5);
			return;
		}
}

int sud_init(void)
{
	patch_libc_text(&exempt_start, &exempt_len);
	if (!exempt_len || sigsys_install() < 0)
		return -1;                        /* the handler first: then arm */
	sud_enabled = 1;
	sud_arm_thread();
	if (shim_sud_selector != SUD_BLOCK) {     /* kernel without dispatch */
		sud_enabled = 0;
		return -1;
	}
	find_exempt_syscall();
	return 0;
}
