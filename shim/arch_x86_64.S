/* arch_x86_64.S - the hooks that cannot be C: the task-creating calls
 * (vfork, clone, clone3, and syscall(2) asked for one of them), whose child
 * starts on a new stack or must not see its parent's return address
 * change.  Each replaces the libc wrapper at its entry (patch.c), so it
 * receives that wrapper's arguments in the C calling convention. */
#include <asm/unistd.h>
#include "sud.h"

	.text
	.hidden shim_vfork_enter, shim_vfork_parent, shim_vfork_child
	.hidden shim_clone3_enter, shim_clone_enter, shim_clone_parent, shim_clone_child
	.hidden shim_clone_einval, shim_syscall_c, shim_set_errno
	.hidden sud_enabled, shim_sud_selector
	.hidden shim_tramp_vfork, shim_tramp_clone, shim_tramp_clone3

/* A hook's parent side, where the event is written: fn is called with the
 * syscall's result (not jumped to), so the hook's own frame stays on the
 * stack and stacks.c can show it as the libc wrapper it replaced.  Its
 * unwind rule (rsp is the entry's again here) lets libunwind step past it
 * to the wrapper's caller. */
.macro PARENT_TAIL fn
	.cfi_startproc
	mov %rax,%rdi
	sub $8,%rsp
	.cfi_adjust_cfa_offset 8
	call \fn
	add $8,%rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
.endm

/* A task-creating call: under the launcher issued in the trampoline
 * page (tramp.c), whose stub jumps back to \back in parent and child
 * alike; here otherwise.  r11: the syscall clobbers it anyway. */
.macro TASK_SYSCALL slot, back
	mov \slot(%rip),%r11
	test %r11,%r11
	jz 1000f
	jmp *%r11
1000:	syscall
	.globl \back
	.hidden \back
\back:
.endm

/* pid_t vfork(void) */
	.globl shim_hook_vfork
	.hidden shim_hook_vfork
	.type shim_hook_vfork,@function
shim_hook_vfork:
	sub $8,%rsp
	call shim_vfork_enter
	add $8,%rsp
	pop %rdi                /* the child must not see our return address change */
	mov $__NR_vfork,%eax
	TASK_SYSCALL shim_tramp_vfork, shim_vfork_back
	push %rdi
	test %rax,%rax
	jz 1f
	PARENT_TAIL shim_vfork_parent
1:	mov shim_vfork_child@gottpoff(%rip),%rax
	movl $1,%fs:(%rax)
	xor %eax,%eax
	ret
	.size shim_hook_vfork,.-shim_hook_vfork

/* glibc's __clone3(struct clone_args *cl_args, size_t size,
 *                  int (*fn)(void *), void *arg) */
	.globl shim_hook_clone3
	.hidden shim_hook_clone3
	.type shim_hook_clone3,@function
shim_hook_clone3:
	test %rdi,%rdi
	jz 9f
	test %rdx,%rdx
	jz 9f
	sub $168,%rsp           /* room for a copy of cl_args, and 4 registers */
	mov %rdi,160(%rsp)
	mov %rsi,152(%rsp)
	mov %rdx,144(%rsp)
	mov %rcx,136(%rsp)
	mov %rsp,%rdx           /* the copy's 128 bytes, kept until the call */
	call shim_clone3_enter  /* the cl_args to pass: the caller's or the copy */
	mov %rax,%rdi
	mov 152(%rsp),%rsi
	mov 144(%rsp),%rdx
	mov 136(%rsp),%r8       /* arg, kept by the kernel for the child */
	mov (%rdi),%r9          /* flags, for the child */
	mov 24(%rdi),%r10       /* parent_tid, for the child */
	mov $__NR_clone3,%eax
	TASK_SYSCALL shim_tramp_clone3, shim_clone3_back
	test %rax,%rax
	jz 1f
	add $168,%rsp
	PARENT_TAIL shim_clone_parent
1:	xor %ebp,%ebp
	and $-16,%rsp
	push %rdx
	push %r8
	mov %r9,%rdi
	mov %r10,%rsi
	call shim_clone_child
	pop %rdi
	pop %rdx
	call *%rdx              /* stacks.c shows this return as __clone3's */
	mov %rax,%rdi
	mov $__NR_exit,%eax
	syscall
	hlt
9:	jmp shim_clone_einval
	.size shim_hook_clone3,.-shim_hook_clone3

/* int clone(int (*fn)(void *), void *stack, int flags, void *arg,
 *           pid_t *parent_tid, void *tls, pid_t *child_tid) */
	.globl shim_hook_clone
	.hidden shim_hook_clone
	.type shim_hook_clone,@function
shim_hook_clone:
	test %rdi,%rdi
	jz 9f
	and $-16,%rsi
	jz 9f
	mov %rcx,-8(%rsi)       /* arg and fn on the child's stack, as glibc does */
	sub $16,%rsi
	mov %rdi,(%rsi)
	push %rsi
	push %rdx
	push %r8
	push %r9
	sub $8,%rsp
	mov %rdx,%rdi           /* flags; rsi: the child's stack */
	mov %r8,%rdx            /* parent_tid */
	mov 48(%rsp),%rcx       /* child_tid (8(%rsp) at entry) */
	mov %r9,%r8             /* tls */
	call shim_clone_enter   /* the flags to pass */
	add $8,%rsp
	pop %r9
	pop %r8
	pop %rdx
	pop %rsi
	mov %rax,%rdi           /* flags */
	mov %r8,%rdx            /* parent_tid */
	mov %r9,%r8             /* tls */
	mov 8(%rsp),%r10        /* child_tid */
	mov $__NR_clone,%eax
	TASK_SYSCALL shim_tramp_clone, shim_clone_back
	test %rax,%rax
	jz 1f
	PARENT_TAIL shim_clone_parent
1:	xor %ebp,%ebp
	xor %esi,%esi           /* no parent_tid: the child asks */
	call shim_clone_child   /* rdi still holds the flags */
	pop %rax
	pop %rdi
	call *%rax
	mov %rax,%rdi
	mov $__NR_exit,%eax
	syscall
	hlt
9:	jmp shim_clone_einval
	.size shim_hook_clone,.-shim_hook_clone

/* long syscall(long number, ...): task-creating calls cannot return
 * through C; every other number goes to shim_syscall_c. */
	.globl shim_hook_syscall
	.hidden shim_hook_syscall
	.type shim_hook_syscall,@function
shim_hook_syscall:
	cmp $__NR_clone,%rdi
	je 1f
	cmp $__NR_clone3,%rdi
	je 1f
	cmp $__NR_vfork,%rdi
	je 1f
	jmp shim_syscall_c
1:	mov shim_sud_selector@gottpoff(%rip),%r11
	movb $SUD_ALLOW,%fs:(%r11)
	mov %rdi,%rax
	mov %rsi,%rdi
	mov %rdx,%rsi
	mov %rcx,%rdx
	mov %r8,%r10
	mov %r9,%r8
	mov 8(%rsp),%r9
	syscall
	test %rax,%rax
	jz 3f                   /* the child: SUD is armed again in its new life */
	cmpl $0,sud_enabled(%rip)
	je 3f
	mov shim_sud_selector@gottpoff(%rip),%r11
	movb $SUD_BLOCK,%fs:(%r11)
3:	cmp $-4095,%rax
	jae 2f
	ret
2:	mov %rax,%rdi
	jmp shim_set_errno
	.size shim_hook_syscall,.-shim_hook_syscall

	.section .note.GNU-stack,"",@progbits
