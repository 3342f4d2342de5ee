/* vm_qemu.c - run qemu-system-x86_64 for one guest boot. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "replay/vm/vm_qemu.h"

/* panic=-1: a crashing /init reboots at once, and -no-reboot turns that into
 * qemu exiting instead of a hang until the timeout. */
#define GUEST_CMDLINE "console=ttyS0 loglevel=4 panic=-1 rdinit=/init"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int vm_boot_run(const struct vm_boot *b, char *err, size_t errlen)
{
	const char *qemu = getenv("VMREC_QEMU");
	char console[4200], results[4200], cmdline[256];

	if (!qemu || !*qemu)
		qemu = "qemu-system-x86_64";
	snprintf(console, sizeof console, "file:%s", b->console);
	snprintf(results, sizeof results, "file:%s", b->results);
	snprintf(cmdline, sizeof cmdline, GUEST_CMDLINE "%s%s",
	         b->thp ? " transparent_hugepage=" : "", b->thp ? b->thp : "");
	const char *argv[] = {
		qemu, "-accel", "tcg", "-m", b->memory, "-smp", "1",
		"-nodefaults", "-no-user-config", "-display", "none", "-no-reboot",
		"-kernel", b->kernel, "-initrd", b->initrd,
		"-append", cmdline,
		"-serial", console, "-serial", results, NULL,
	};

	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int fd = open(b->qemu_log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_RDWR);
		if (fd >= 0)
			dup2(fd, 2);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		execvp(qemu, (char **)argv);
		fprintf(stderr, "cannot run %s: %s\n", qemu, strerror(errno));
		_exit(127);
	}

	double deadline = now() + b->timeout_s;
	int status;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (now() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(err, errlen, "the guest did not finish within %u s and was "
			         "killed (raise it with --vm-timeout)", b->timeout_s);
			return -1;
		}
		usleep(20000);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "cannot run %s (install qemu-system-x86: "
		         "`make deps-extra`)", qemu);
		return -1;
	}
	return 0;
}
