/* execve and execveat with every kind of argv and envp strace tells apart:
 * long strings, many elements, arrays and strings that run into unmapped
 * memory, bad pointers (EFAULT from the kernel, never a crash), NULL and
 * empty arrays; through the libc wrapper, a raw syscall, a vfork child and
 * execveat; then a successful exec of /bin/true.  Every failing call
 * prints its errno name, so a recorded run can be compared with a native
 * one.  Its own arrays only (the environment is not passed: it differs
 * under the recorder).  With "seccomp": a filter refuses process_vm_readv
 * (EPERM), then only the calls with good pointers. */
#include "marker.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void said(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? strerrorname_np(errno) : "returned");
	fflush(stdout);
}

#define TRY(what, call) said(what, (long)(call))

/* process_vm_readv fails with EPERM, as under a sandbox's filter */
static int refuse_readv(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof f[0], f };
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

static int good_pointers_only(void)
{
	char *env1[] = { "A=1", NULL }, *none[] = { NULL };
	char l33[] = "0123456789abcdef0123456789abcdefg";
	char *strings[] = { "a", l33, NULL };
	if (refuse_readv())
		return 2;
	TRY("long strings", execve("/nonexistent", strings, env1));
	TRY("empty arrays", execve("/nonexistent", none, none));
	char *args[] = { "true", "--done", NULL };
	execve("/bin/true", args, env1);
	return 1;
}

int main(int argc, char **argv)
{
	MAIN_STARTS();
	if (argc > 1 && !strcmp(argv[1], "seccomp"))
		return good_pointers_only();
	/* a page whose next page is unmapped */
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + 4096, 4096))
		return 2;
	char *env1[] = { "A=1", NULL }, *none[] = { NULL };
	char l32[] = "0123456789abcdef0123456789abcdef", l33[] = "0123456789abcdef0123456789abcdefg";
	char *strings[] = { l32, l33, "tab\there\"q\\", "\001\0017", NULL };
	TRY("long strings", execve("/nonexistent", strings, env1));
	char *many[41];
	for (int i = 0; i < 40; i++)
		many[i] = "x";
	many[40] = NULL;
	TRY("many elements", execve("/nonexistent", many, env1));
	char **unterminated = (char **)(p + 4096 - 16);
	unterminated[0] = "a";
	unterminated[1] = "b";
	TRY("arrays into unmapped memory", execve("/nonexistent", unterminated, unterminated));
	char *bad[] = { "ok", (char *)1, NULL };
	TRY("bad string, bad envp", syscall(SYS_execve, "/nonexistent", bad, (char **)1));
	TRY("bad path", syscall(SYS_execve, (char *)1, bad, NULL));
	TRY("NULL arrays", syscall(SYS_execve, "/nonexistent", NULL, NULL));
	TRY("empty arrays", execve("/nonexistent", none, none));
	memcpy(p + 4096 - 3, "abc", 3);
	char *runs[] = { p + 4096 - 3, NULL };
	TRY("string into unmapped memory", execve("/nonexistent", runs, env1));
	TRY("unreadable argv", syscall(SYS_execve, "/nonexistent", p + 4096, env1));
	char *two[] = { "two", "args", NULL };
	TRY("execveat", syscall(SYS_execveat, AT_FDCWD, "/nonexistent", two, env1, 0));
	pid_t pid = vfork();
	if (pid == 0) {
		execve("/nonexistent", bad, env1);
		_exit(errno == ENOENT ? 3 : 4);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	printf("vfork child: %d\n", WEXITSTATUS(st));
	fflush(stdout);
	char *args[] = { "true", "--done", NULL };
	execve("/bin/true", args, env1);
	return 1;
}
