/* vminit.c - /init of the guest's initramfs (linked statically).
 *
 * Runs each job /jobs/<i>/args (NUL-separated argv) in /out/<i>, then sends
 * back over /dev/ttyS1, framed as vm_frame.h says: the kernel release, and
 * per job its exit status, stdout, stderr and every file it left in
 * /out/<i>.  Then powers the machine off. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "replay/vm/vm_frame.h"

#define MAX_ARGS 256

static int line = -1;

static void say(const char *fmt, const char *arg)
{
	fprintf(stderr, "vmrec-init: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	char *buf;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !(buf = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return NULL;
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	*len = got;
	return buf;
}

static void send_file(const char *name, const char *path)
{
	size_t len = 0;
	char *data = slurp(path, &len);

	if (vm_frame_write(line, name, data ? data : "", data ? len : 0))
		say("writing to ttyS1 failed: %s", strerror(errno));
	free(data);
}

static void send_text(const char *name, const char *text)
{
	if (vm_frame_write(line, name, text, strlen(text)))
		say("writing to ttyS1 failed: %s", strerror(errno));
}

static int open_line(void)
{
	int fd = open("/dev/ttyS1", O_WRONLY | O_NOCTTY);
	struct termios t;

	if (fd < 0)
		return -1;
	/* raw: no newline translation, 8 bits clean */
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		cfsetospeed(&t, B115200);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

/* Run job i; 0 when there is no such job. */
static int run_job(int i)
{
	char path[64], dir[64], name[96];
	size_t len;

	snprintf(path, sizeof path, "/jobs/%d/args", i);
	char *args = slurp(path, &len);
	if (!args)
		return 0;

	char *argv[MAX_ARGS + 1];
	int argc = 0;
	for (size_t off = 0; off < len && argc < MAX_ARGS; off += strlen(args + off) + 1)
		argv[argc++] = args + off;
	argv[argc] = NULL;

	snprintf(dir, sizeof dir, "/out/%d", i);
	mkdir("/out", 0755);
	mkdir(dir, 0755);
	char out[64], err[64];
	snprintf(out, sizeof out, "/tmp/%d.stdout", i);
	snprintf(err, sizeof err, "/tmp/%d.stderr", i);

	int status = -1;
	pid_t pid = argc ? fork() : -1;
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0 || chdir(dir))
			_exit(126);
		execv(argv[0], argv);
		fprintf(stderr, "vmrec-init: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char st[32];
	if (pid < 0)
		snprintf(st, sizeof st, "exit 127");
	else if (WIFSIGNALED(status))
		snprintf(st, sizeof st, "signal %d", WTERMSIG(status));
	else
		snprintf(st, sizeof st, "exit %d", WEXITSTATUS(status));
	snprintf(name, sizeof name, "%d.status", i);
	send_text(name, st);
	snprintf(name, sizeof name, "%d.stdout", i);
	send_file(name, out);
	snprintf(name, sizeof name, "%d.stderr", i);
	send_file(name, err);

	DIR *d = opendir(dir);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char file[320];
		struct stat sb;
		snprintf(file, sizeof file, "%s/%s", dir, de->d_name);
		if (stat(file, &sb) || !S_ISREG(sb.st_mode) ||
		    strlen(de->d_name) > VM_FRAME_NAME_MAX - 16 || strchr(de->d_name, ' '))
			continue;
		snprintf(name, sizeof name, "%d/%s", i, de->d_name);
		send_file(name, file);
	}
	if (d)
		closedir(d);
	free(args);
	return 1;
}

int main(void)
{
	struct utsname u;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mkdir("/tmp", 01777);
	line = open_line();
	if (line < 0) {
		say("cannot open /dev/ttyS1: %s", strerror(errno));
	} else {
		uname(&u);
		send_text("release", u.release);
		for (int i = 0; run_job(i); i++)
			;
		send_text("end", "");
		tcdrain(line);
	}
	sync();
	reboot(RB_POWER_OFF);
	/* init must not exit; a panic reboots, and qemu -no-reboot stops */
	return 1;
}
