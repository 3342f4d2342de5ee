/* sigsys.c - the safety net's entry: a call Syscall User Dispatch trapped.
 *
 * The handler records VMA calls (VMT_EV_TRAPPED, plus VMT_EV_LOADER from
 * ld.so) and re-issues every call unchanged.  The program may install its
 * own SIGSYS handler (signals.c keeps it), and SIGSYS not raised by
 * dispatch goes to it (or to its default action). */
#include "sigsys.h"
#include "capture.h"
#include "empty_ranges.h"
#include "hooks.h"
#include "signals.h"
#include "sud.h"
#include "lib/compat.h"

#include <link.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>

static unsigned long ldso_start, ldso_end;

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

int sigsys_install(void)
{
	dl_iterate_phdr(find_ldso, NULL);
	return signals_own(SIGSYS, on_sigsys, SA_RESTART);
}
