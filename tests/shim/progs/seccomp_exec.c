/* A seccomp filter that traps getppid (the program handles its own
 * SIGSYS), then exec /bin/true: the filter stays, and a recorder that
 * called getppid in the new image would kill it with SIGSYS. */
#include "marker.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t trapped;

static void on_sys(int sig) { (void)sig; trapped = 1; }

int main(void)
{
	MAIN_STARTS();
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	signal(SIGSYS, on_sys);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 3;
	getppid();
	if (!trapped)
		return 4;
	fflush(stdout);
	execl("/bin/true", "true", (char *)NULL);
	return 5;
}
