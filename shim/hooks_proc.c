/* hooks_proc.c - replacements for the calls that create, replace or end a
 * task: _Fork, vfork, clone, glibc's internal __clone3, execve, execveat,
 * _exit, and syscall(2) itself.
 *
 * vfork, clone and clone3 are written in assembly: the child returns on
 * another stack (or, for vfork, on the parent's, where the return address
 * was popped), so no C frame may span the system call.  Their C halves
 * run before the call (in the parent) and after it (parent or child). */
#include "hooks.h"
#include "exec.h"
#include "forkgate.h"
#include "image.h"
#include "init.h"
#include "empty_ranges.h"
#include "raw.h"
#include "residency.h"
#include "sud.h"
#include "tramp.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

#define HIDDEN __attribute__((visibility("hidden")))

static __thread struct shim_call split __attribute__((tls_model("initial-exec")));
static __thread uint8_t split_sud __attribute__((tls_model("initial-exec")));
static __thread int split_on __attribute__((tls_model("initial-exec")));
/* the store's entry for the child of the fork under way (forks of a
 * process go one at a time: forkgate_close) */
static struct vmt_store_proc *fork_unborn;

/* a[] as the trace keeps the call's arguments; a[0] is the clone flags. */
static void split_begin(int sys, const uint64_t a[6])
{
	uint64_t flags = a[0];
	split_on = shim.enabled && !shim_vfork_child;
	split_sud = sud_enter();
	if (!split_on)
		return;
	/* a fork's copy: no other call of this process overlaps it */
	if (!(flags & CLONE_VM) && sys != VMT_SYS_VFORK)
		forkgate_close();
	call_begin(&split, sys, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4], (long)a[5]);
	if (!(flags & CLONE_VM) && sys != VMT_SYS_VFORK) {
		residency_fork(split.seq);
		/* before: the parent may leave before the child runs, and a
		 * child killed before it ran must still be found gone */
		fork_unborn = vmt_store_proc_unborn(&shim.store);
		shim_live_add(1);
	}
	/* a child on this memory counts its faults apart (empty_ranges.c);
	 * the other threads' calls need not wait for it to exec (forkgate.c) */
	if (sys == VMT_SYS_VFORK || ((flags & CLONE_VM) && (flags & CLONE_VFORK))) {
		empty_forget_all();
		forkgate_order_done();
	}
	else if ((flags & CLONE_VM) && !(flags & CLONE_THREAD))
		empty_distrust();
	call_clock(&split);
}

static long split_end(long r)
{
	if (split_on) {
		if (!(split.args[0] & CLONE_VM) && split.sys != VMT_SYS_VFORK) {   /* a fork */
			if (fork_unborn && raw_failed(r))
				vmt_store_proc_unborn_failed(fork_unborn);
			else if (fork_unborn)
				vmt_store_proc_named(fork_unborn, (int32_t)r);
			fork_unborn = NULL;
			if (raw_failed(r))
				shim_live_add(-1);
		}
		call_end(&split, r);
		forkgate_open();
	}
	split_on = 0;
	sud_leave(split_sud);
	return shim_errno_ret(r);
}

/* ---- vfork ---------------------------------------------------------- */
HIDDEN void shim_vfork_enter(void) { split_begin(VMT_SYS_VFORK, (const uint64_t[6]){ 0 }); }

HIDDEN long shim_vfork_parent(long r)
{
	shim_vfork_child = 0;       /* the child has exec'd or exited */
	return split_end(r);
}

/* ---- clone3 (glibc's __clone3: cl_args, size, fn, arg) ---------------- */
struct clone_args_head { uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls; };

/* The arguments the kernel gets: the caller's, or under the launcher a
 * copy in the hook's frame (never TLS: see SHIM_PENDING) with
 * CLONE_PTRACE where it needs one (tramp_clone_flags). */
HIDDEN const struct clone_args_head *shim_clone3_enter(const struct clone_args_head *a,
                                                       size_t size, uint64_t copy[16])
{
	/* glibc passes at least CLONE_ARGS_SIZE_VER0 (64 bytes: up to tls) */
	split_begin(VMT_SYS_CLONE3, (const uint64_t[6]){ a->flags, a->stack, a->stack_size,
	                                                 a->child_tid, a->parent_tid, a->tls });
	if (a->flags & CLONE_THREAD)
		split.flags |= VMT_EV_THREAD;
	uint64_t fl = tramp_clone_flags(a->flags, a->exit_signal);
	if (fl == a->flags || size < sizeof *a || size > 16 * sizeof *copy)
		return a;
	memcpy(copy, a, size);
	copy[0] = fl;
	return (const struct clone_args_head *)(void *)copy;
}

HIDDEN long shim_clone_parent(long r)
{
	if (split.args[0] & CLONE_VFORK)
		shim_vfork_child = 0;
	return split_end(r);
}

/* The child, before it runs the caller's function.  With
 * CLONE_PARENT_SETTID the kernel wrote the child's tid at parent_tid
 * before the child first ran (glibc: its struct pthread's tid), which
 * saves the child a gettid. */
HIDDEN void shim_clone_child(uint64_t flags, const int32_t *parent_tid)
{
	if (flags & CLONE_THREAD) {
		shim_thread_start(flags & CLONE_PARENT_SETTID && parent_tid ? *parent_tid : 0);
		sud_arm_thread();
	} else if ((flags & CLONE_VM) && (flags & CLONE_VFORK))
		shim_vfork_child = 1;
	else if (!(flags & CLONE_VM)) {
		split_on = 0;
		shim_self.depth = 0;
		shim_fork_child(fork_unborn);
	}
}

HIDDEN long shim_clone_einval(void)
{
	errno = EINVAL;
	return -1;
}

/* ---- clone (fn, stack, flags, arg, ptid, tls, ctid) ------------------ */
/* The registers the kernel receives: flags, stack, parent_tid, child_tid, tls. */
/* The flags the kernel gets (tramp_clone_flags). */
HIDDEN uint64_t shim_clone_enter(uint64_t flags, uint64_t stack, uint64_t ptid, uint64_t ctid,
                                 uint64_t tls)
{
	split_begin(VMT_SYS_CLONE, (const uint64_t[6]){ flags, stack, ptid, ctid, tls, 0 });
	if (flags & CLONE_THREAD)
		split.flags |= VMT_EV_THREAD;
	return tramp_clone_flags(flags, flags & CSIGNAL);
}

HIDDEN long shim_set_errno(long r) { return shim_errno_ret(r); }

/* The task-creating hooks themselves are in arch_x86_64.S. */


/* ---- _Fork ------------------------------------------------------------ */
/* glibc 2.36's _Fork, whose bytes patch.c checks before we replace it:
 * clone(CLONE_CHILD_SETTID|CLONE_CHILD_CLEARTID|SIGCHLD, 0, 0, &self->tid),
 * and in the child a fresh robust-futex list. */
#define FORK_FLAGS 0x1200011
#define PD_TID 0x2d0
#define PD_ROBUST_PREV 0x2d8
#define PD_ROBUST_HEAD 0x2e0

pid_t hook_Fork(void)
{
	char *self;
	__asm__("mov %%fs:0x10,%0" : "=r"(self));
	split_begin(VMT_SYS_CLONE, (const uint64_t[6]){ FORK_FLAGS, 0, 0, (uint64_t)(self + PD_TID) });
	long r = raw6(SYS_clone, tramp_clone_flags(FORK_FLAGS, SIGCHLD), 0, 0, (long)(self + PD_TID), 0, 0);
	if (r == 0) {
		void *head = self + PD_ROBUST_HEAD;
		memcpy(self + PD_ROBUST_PREV, &head, sizeof head);
		memcpy(self + PD_ROBUST_HEAD, &head, sizeof head);
		raw2(SYS_set_robust_list, head, 0x18);
		split_on = 0;
		shim_self.depth = 0;
		shim_fork_child(fork_unborn);
		return 0;
	}
	return (pid_t)split_end(r);
}

/* ---- execve, execveat -------------------------------------------------- */
int hook_execve(const char *path, char *const argv[], char *const envp[])
{
	return (int)shim_errno_ret(exec_call(VMT_SYS_EXECVE, AT_FDCWD, path, argv, envp, 0));
}

int hook_execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
                         int flags)
{
	return (int)shim_errno_ret(exec_call(VMT_SYS_EXECVEAT, dirfd, path, argv, envp, flags));
}

/* glibc: EINVAL for a NULL argv or envp, then execveat(fd, "", AT_EMPTY_PATH). */
int hook_fexecve(int fd, char *const argv[], char *const envp[])
{
	if (!argv || !envp) {
		errno = EINVAL;
		return -1;
	}
	return (int)shim_errno_ret(exec_call(VMT_SYS_EXECVEAT, fd, "", argv, envp, AT_EMPTY_PATH));
}

/* ---- _exit ---------------------------------------------------------------- */
void hook__exit(int status)
{
	sud_enter();                /* never left: the exit must not trap */
	shim_process_exit(VMT_SYS_EXIT_GROUP, status);
	for (;;) {
		raw1(SYS_exit_group, status);
		raw1(SYS_exit, status);
	}
}

long shim_proc_syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5, int *handled)
{
	(void)a5;
	*handled = 1;
	switch (nr) {
	case SYS_fork:
		split_begin(VMT_SYS_FORK, (const uint64_t[6]){ 0 });
		long r = raw0(SYS_fork);
		if (r == 0) {
			split_on = 0;
			shim_self.depth = 0;
			shim_fork_child(fork_unborn);
			return 0;
		}
		split_end(r);
		return r;
	case SYS_execve:
		return exec_call(VMT_SYS_EXECVE, AT_FDCWD, (const char *)a0, (char *const *)a1,
		                 (char *const *)a2, 0);
	case SYS_execveat:
		return exec_call(VMT_SYS_EXECVEAT, (int)a0, (const char *)a1, (char *const *)a2,
		                 (char *const *)a3, (int)a4);
	case SYS_exit_group:
	case SYS_exit:
		if (nr == SYS_exit_group)
			shim_process_exit(VMT_SYS_EXIT_GROUP, (int)a0);
		else
			shim_thread_exit();
		return raw1(nr, a0);
	}
	*handled = 0;
	return 0;
}
