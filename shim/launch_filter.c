/* launch_filter.c - the launcher's seccomp-bpf filter, built from the one
 * table of recorded calls (traces/vmt_syscalls.def). */
#include "launch_filter.h"
#include "vmt.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_INSNS 128

int launch_filter_install(uint64_t tramp)
{
	struct sock_filter f[MAX_INSNS];
	int n = 0, nrows = 0;
	long nrs[VMT_SYS_COUNT];
	for (int sys = 1; sys < VMT_SYS_COUNT; sys++) {
		long nr = vmt_sys_nr(sys), seen = 0;
		for (int k = 0; k < nrows; k++)
			seen |= nrs[k] == nr;
		if (nr >= 0 && !seen)
			nrs[nrows++] = nr;
	}
	if (nrows + 12 > MAX_INSNS)
		return -E2BIG;
	/* another architecture's calls (i386 int 0x80) pass: their numbers differ */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* row k jumps to the ip check, which follows the rows and one ALLOW */
	for (int k = 0; k < nrows; k++)
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nrs[k],
		                                      (uint8_t)(nrows - k), 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* the instruction pointer, little-endian halves: in the page -> ALLOW */
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                      offsetof(struct seccomp_data, instruction_pointer) + 4);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(tramp >> 32), 0, 3);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	                                      offsetof(struct seccomp_data, instruction_pointer));
	f[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xfffff000u);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)tramp & 0xfffff000u, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	/* without CAP_SYS_ADMIN the kernel asks for no_new_privs, which a
	 * traced setuid program loses anyway */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0)
		return 0;
	if (errno != EACCES)
		return -errno;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0 ? 0 : -errno;
}
