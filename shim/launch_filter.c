/* launch_filter.c - the launcher's seccomp-bpf filter, built from the one
 * table of recorded calls (traces/vmt_syscalls.def). */
#include "launch_filter.h"
#include "vmt.h"
#include "vmt_raw.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_INSNS 160
#define MAX_MATCH 8

/* A number the table records: every call of it, or (rows with `match`:
 * prctl's options, ioctl's uffd commands) only those whose argument is
 * one of the rows' values.  An isatty's ioctl(TCGETS), inline in libc's
 * tcgetattr, so stops nobody. */
struct nr_rule { long nr; int any, n; int arg[MAX_MATCH]; uint32_t value[MAX_MATCH]; };

static int rules_of_table(struct nr_rule *r)
{
	int nrules = 0;
	for (int sys = 1; sys < VMT_SYS_COUNT; sys++) {
		long nr = vmt_sys_nr(sys);
		if (nr < 0)
			continue;
		int k = 0;
		while (k < nrules && r[k].nr != nr)
			k++;
		if (k == nrules)
			r[nrules++] = (struct nr_rule){ .nr = nr };
		int arg;
		uint32_t value;
		if (!vmt_sys_match(sys, &arg, &value) || r[k].n == MAX_MATCH)
			r[k].any = 1;
		else {
			r[k].arg[r[k].n] = arg;
			r[k].value[r[k].n++] = value;
		}
	}
	return nrules;
}

/* The filter is no sandbox: SPEC_ALLOW keeps the kernel from forcing
 * speculation mitigations on the whole recorded tree, as it does for a
 * task that installs a filter where spec_store_bypass_disable or
 * spectre_v2_user is `seccomp` (the x86 default before Linux 5.16):
 * Speculative Store Bypass disabled for good, which slows the program and
 * which it would see in prctl(PR_GET_SPECULATION_CTRL) and
 * /proc/PID/status.  A kernel before 4.17 knows no such flag (EINVAL). */
static long install(const struct sock_fprog *prog)
{
	long r = vmt_raw6(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW,
	                  (long)prog, 0, 0, 0);
	if (r == -EINVAL)
		r = vmt_raw6(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)prog, 0, 0, 0);
	return r;
}

#define STMT(code, k) ((struct sock_filter)BPF_STMT(code, k))
#define JUMP(code, k, jt, jf) ((struct sock_filter)BPF_JUMP(code, k, jt, jf))

int launch_filter_install(uint64_t tramp, uint32_t elsewhere)
{
	struct sock_filter f[MAX_INSNS];
	struct nr_rule rules[VMT_SYS_COUNT];
	int n = 0, nrules = rules_of_table(rules);
	/* the layout: 4 header, a jump per number, ALLOW, each matched
	 * number's argument checks and ALLOW, then the ip check (6) */
	int at = 4 + nrules + 1, block[VMT_SYS_COUNT];
	for (int k = 0; k < nrules; k++) {
		block[k] = at;
		if (!rules[k].any)
			at += 2 * rules[k].n + 1;
	}
	int ipcheck = at;
	if (ipcheck + 6 > MAX_INSNS)
		return -E2BIG;
	/* another architecture's calls (i386 int 0x80) pass: their numbers differ */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (int k = 0; k < nrules; k++) {
		int to = rules[k].any ? ipcheck : block[k];
		f[n] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)rules[k].nr, (uint8_t)(to - n - 1), 0);
		n++;
	}
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (int k = 0; k < nrules; k++) {
		if (rules[k].any)
			continue;
		for (int m = 0; m < rules[k].n; m++) {
			/* the low half of the argument, as the kernel reads a command */
			f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS,
			              offsetof(struct seccomp_data, args) + 8 * rules[k].arg[m]);
			f[n] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, rules[k].value[m], (uint8_t)(ipcheck - n - 1), 0);
			n++;
		}
		f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	/* the instruction pointer, little-endian halves: in the page -> ALLOW */
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(tramp >> 32), 0, 3);
	f[n++] = STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer));
	f[n++] = STMT(BPF_ALU | BPF_AND | BPF_K, 0xfffff000u);
	f[n++] = JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)tramp & 0xfffff000u, 1, 0);
	f[n++] = STMT(BPF_RET | BPF_K, elsewhere);
	f[n++] = STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)n, .filter = f };
	/* without CAP_SYS_ADMIN the kernel asks for no_new_privs, which a
	 * traced setuid program loses anyway */
	long r = install(&prog);
	if (r != -EACCES)
		return (int)r;
	r = vmt_raw6(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
	if (r < 0)
		return (int)r;
	return (int)install(&prog);
}
