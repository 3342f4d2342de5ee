/* fuzz.h - what the libFuzzer harnesses of the tools share (make fuzz;
 * their kept corpora run in make check through tests/fuzz/corpus.h):
 * a private directory for the files an input becomes, and a tool's main
 * run quietly on them, as the command line would.  The tools' own mains
 * are built renamed (vmreport_main, vmtrace_main, vmreplay_main). */
#ifndef VMREC_FUZZ_H
#define VMREC_FUZZ_H

#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_dir[4096];
static pid_t fz_owner;

/* The directory and what the runs left in it (one level), at exit of
 * the process that made it. */
static void fz_cleanup(void)
{
	DIR *d = getpid() == fz_owner ? opendir(fz_dir) : NULL;
	struct dirent *e;
	char p[8300];
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", fz_dir, e->d_name);
			unlink(p);
		}
	if (d) {
		closedir(d);
		rmdir(fz_dir);
	}
}

/* DIR/NAME in the harness's directory (made at the first call). */
static const char *fz_path(const char *name)
{
	static char buf[4][4200];
	static int next;
	if (!fz_dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(fz_dir, sizeof(fz_dir), "%s/vmrec-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(fz_dir))
			abort();
		fz_owner = getpid();
		atexit(fz_cleanup);
	}
	char *p = buf[next++ % 4];
	snprintf(p, sizeof(buf[0]), "%s/%s", fz_dir, name);
	return p;
}

/* The input as the regular file PATH. */
__attribute__((unused))
static void fz_write(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || close(fd))
		abort();
}

/* MAIN(argc, argv) with its standard output and error thrown away: its
 * exit status. */
__attribute__((unused))
static int fz_run(int (*main_fn)(int, char **), char **argv)
{
	int argc = 0, out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	while (argv[argc])
		argc++;
	fflush(stdout);
	fflush(stderr);
	dup2(null, 1);
	dup2(null, 2);
	optind = 0;   /* getopt starts over, whatever the last run left */
	int st = main_fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	close(null);
	return st;
}

#endif
