/* sud.c - Syscall User Dispatch as the safety net.
 *
 * Every thread runs with its selector at BLOCK and libc's text exempt, so
 * libc's own system calls (read, write, the patched wrappers' callers...)
 * never trap; a system call from anywhere else - ld.so's private mmap,
 * mprotect and munmap used by dlopen, a raw `syscall` instruction in the
 * program - raises SIGSYS.  The handler records VMA calls (VMT_EV_TRAPPED,
 * plus VMT_EV_LOADER from ld.so) and re-issues every call unchanged.
 * Dispatch is cleared for each new task and on execve, so it is re-armed
 * in new threads and fork children, and a static program exec'd later is
 * never left with a trap it cannot handle (unlike a seccomp filter).
 *
 * The program may install its own SIGSYS handler (signals.c keeps it), and
 * SIGSYS not raised by dispatch goes to it (or to its default action). */
#include "sud.h"
#include "capture.h"
#include "empty_ranges.h"
#include "exec.h"
#include "hooks.h"
#include "init.h"
#include "patch.h"
#include "signals.h"

#include <link.h>
#include <sched.h>
#include <linux/prctl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>

#ifndef SYS_USER_DISPATCH
#define SYS_USER_DISPATCH 2
#endif

int sud_enabled;
void *shim_exempt_syscall;
__thread uint8_t shim_sud_selector __attribute__((tls_model("initial-exec")));

static unsigned long exempt_start, exempt_len, ldso_start, ldso_end;

static int find_ldso(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size; (void)arg;
	if (!strstr(info->dlpi_name, "/ld-linux"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			ldso_start = info->dlpi_addr + ph->p_vaddr;
			ldso_end = ldso_start + ph->p_memsz;
		}
	}
	return 1;
}

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

/* Calls that create a task on another stack, or that return through a
 * signal frame of their own, cannot be re-issued from our signal frame:
 * they run again where they were, unrecorded, with this thread's selector
 * left at ALLOW. */
static int reissue_in_place(long nr, const greg_t *g)
{
	if (nr == SYS_vfork || nr == SYS_rt_sigreturn)   /* a program's own restorer */
		return 1;
	if (nr == SYS_clone && (g[REG_RDI] & CLONE_VM))
		return 1;
	return nr == SYS_clone3;
}

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	greg_t *g = uc->uc_mcontext.gregs;
	if (si->si_code != SYS_USER_DISPATCH) {
		signals_forward(sig, si, ctx);
		return;
	}
	uint8_t prev = sud_enter();
	long nr = si->si_syscall;
	long a[6] = { g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9] };
	const uint64_t args[6] = { (uint64_t)a[0], (uint64_t)a[1], (uint64_t)a[2], (uint64_t)a[3],
	                           (uint64_t)a[4], (uint64_t)a[5] };
	int sys = capture_sys(nr, args), handled = 0;
	long r;
	__atomic_add_fetch(&shim.trapped, 1, __ATOMIC_RELAXED);
	if (reissue_in_place(nr, g)) {
		g[REG_RIP] -= 2;            /* back onto the syscall instruction */
		g[REG_RAX] = nr;
		return;                     /* selector stays ALLOW for this thread */
	}
	if (sys == VMT_SYS_NONE) {
		empty_passing_call(nr);
		r = raw6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	} else {
		uint16_t flags = VMT_EV_TRAPPED;
		if ((unsigned long)g[REG_RIP] - ldso_start < ldso_end - ldso_start)
			flags |= VMT_EV_LOADER;
		shim_trap_flags = flags;
		shim_trap_ip = (uint64_t)g[REG_RIP];
		r = shim_proc_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5], &handled);
		if (!handled)
			r = shim_vma_call(sys, nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		shim_trap_flags = 0;
		shim_trap_ip = 0;
	}
	g[REG_RAX] = r;
	sud_leave(prev);
}

/* The tail of a wrapper in libc's text, "mov $nr,%eax; syscall; ret",
 * read after patching so no patched site is taken. */
static void find_exempt_syscall(void)
{
	const unsigned char *p = (const unsigned char *)exempt_start;
	for (unsigned long i = 0; i + 8 <= exempt_len; i++)
		if (p[i] == 0xb8 && p[i + 3] == 0 && p[i + 4] == 0 && p[i + 5] == 0x0f &&
		    p[i + 6] == 0x05 && p[i + 7] == 0xc3) {
			shim_exempt_syscall = (void *)(p + i + 5);
			return;
		}
}

int sud_init(void)
{
	patch_libc_text(&exempt_start, &exempt_len);
	dl_iterate_phdr(find_ldso, NULL);
	if (!exempt_len || signals_own(SIGSYS, on_sigsys, SA_RESTART) < 0)
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
