/* tramp.c - the trampoline page under the vmrec launcher (docs/shim.md,
 * "Two recorders").  The launcher's seccomp filter stops a recorded call
 * unless it is issued in this page, so the recorder issues its calls
 * here: through `syscall; ret` (vmt_raw_gate, shim_exempt_syscall), and
 * the calls whose child starts on another stack or must not see its
 * parent's stack change (vfork, clone, clone3) through a stub that jumps
 * back into their hook.  A thread's last call, glibc's inline exit(0),
 * is sent here too.  Without them each thread would cost the launcher a
 * stop for its clone and one for its exit. */
#include "tramp.h"
#include "patch.h"
#include "raw.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <linux/sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>

void *shim_tramp_vfork, *shim_tramp_clone, *shim_tramp_clone3;

/* the instruction after each hook's syscall (arch_x86_64.S) */
extern char shim_vfork_back[], shim_clone_back[], shim_clone3_back[];

/* syscall; movabs $back, %r11; jmp *%r11 */
static void *task_stub(unsigned char *page, int k, void *back)
{
	unsigned char *p = page + TRAMP_TASK + 16 * k;
	static const unsigned char head[] = { 0x0f, 0x05, 0x49, 0xbb };
	memcpy(p, head, sizeof head);
	memcpy(p + 4, &back, 8);
	p[12] = 0x41; p[13] = 0xff; p[14] = 0xe3;
	return p;
}

int tramp_map(uint64_t at)
{
	/* written, then made read-only by a call through itself: no call of
	 * the recorder's but this mmap stops the launcher.  Where writable
	 * code is refused, the mprotect is issued here. */
	long p = raw6(SYS_mmap, (long)at, (long)SHIM_PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
	              MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	int wx = !raw_failed(p);
	if (!wx && (p == -EACCES || p == -EPERM))
		p = raw6(SYS_mmap, (long)at, (long)SHIM_PAGE, PROT_READ | PROT_WRITE,
		         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (raw_failed(p) || (uint64_t)p != at)
		return -1;
	unsigned char *page = (unsigned char *)(uintptr_t)at;
	static const unsigned char sys[] = { 0x0f, 0x05, 0xc3 };   /* syscall; ret */
	memcpy(page + TRAMP_SYSCALL, sys, sizeof sys);
	/* xor %edi,%edi; mov $60,%eax; syscall; jmp back to the xor */
	static const unsigned char ex[] = { 0x31, 0xff, 0xb8, 0x3c, 0, 0, 0, 0x0f, 0x05, 0xeb, 0xf5 };
	memcpy(page + TRAMP_EXIT, ex, sizeof ex);
	void *vf = task_stub(page, 0, shim_vfork_back), *cl = task_stub(page, 1, shim_clone_back),
	     *c3 = task_stub(page, 2, shim_clone3_back);
	if (wx) {
		vmt_raw_gate = page + TRAMP_SYSCALL;
		raw3(SYS_mprotect, at, SHIM_PAGE, PROT_READ | PROT_EXEC);   /* else it stays as it is */
	} else if (raw_failed(raw3(SYS_mprotect, at, SHIM_PAGE, PROT_READ | PROT_EXEC))) {
		raw2(SYS_munmap, at, SHIM_PAGE);
		return -1;
	}
	vmt_raw_gate = page + TRAMP_SYSCALL;
	shim_exempt_syscall = page + TRAMP_SYSCALL;
	shim_tramp_vfork = vf;
	shim_tramp_clone = cl;
	shim_tramp_clone3 = c3;
	return 0;
}

void tramp_unuse(void)
{
	vmt_raw_gate = NULL;
	shim_exempt_syscall = NULL;
	shim_tramp_vfork = shim_tramp_clone = shim_tramp_clone3 = NULL;
}

void tramp_patch_thread_exit(void)
{
	/* glibc 2.36's loop: mov $60,%edx; nop; xor %edi,%edi; mov %edx,%eax;
	 * syscall; jmp back to the xor.  Other code jumps only to its start. */
	if (shim_tramp_clone)
		patch_extra("pthread_create", "ba 3c 00 00 00 66 90 31 ff 89 d0 0f 05 eb f8",
		            (unsigned char *)shim_exempt_syscall - TRAMP_SYSCALL + TRAMP_EXIT);
}

/* Under the launcher a live process asks for neither clone nor fork
 * events (shim/launch_trace.c, LIVE_OPTS): a thread and a fork-like
 * child alike are attached by CLONE_PTRACE, without a stop of the
 * parent; a vfork still reports its event.  A fork-like clone the
 * program marks CLONE_UNTRACED stays untraced, as with a fork event. */
uint64_t tramp_clone_flags(uint64_t flags, uint64_t exit_signal)
{
	if (shim_tramp_clone && !(flags & CLONE_VFORK) &&
	    (exit_signal != SIGCHLD || !(flags & CLONE_UNTRACED)))
		flags |= CLONE_PTRACE;
	return flags;
}
