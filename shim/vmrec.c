/* vmrec - run a program with the recorder preloaded and wait for it.
 *
 *   vmrec [-o TRACE] [--stacks[=N]] [--no-sud] -- PROGRAM ARGS...
 *
 * The library is found next to the launcher (../lib/libvmrec.so); the
 * trace defaults to PROGRAM.vmrec.lz4 in the current directory.  The exit
 * status is the program's (128 + N when a signal N ended it). */
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The program execvp would run, or NULL. */
static const char *resolve(const char *prog, char *buf, size_t cap)
{
	if (strchr(prog, '/'))
		return prog;
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p; ) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if ((size_t)snprintf(buf, cap, "%.*s/%s", (int)len, p, prog) < cap &&
		    access(buf, X_OK) == 0)
			return buf;
		p += len + (end != NULL);
	}
	return NULL;
}

/* An ELF executable without an interpreter cannot load libvmrec.so. */
static int is_static(const char *path)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), interp = 0, elf = 0;
	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64) {
		elf = 1;
		for (int i = 0; i < eh.e_phnum; i++)
			if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (uint64_t)i * sizeof ph)) ==
			    (ssize_t)sizeof ph && ph.p_type == PT_INTERP)
				interp = 1;
	}
	close(fd);
	return elf && !interp;
}

static volatile pid_t child;

/* A signal meant for the program (timeout, kill) reaches it; a terminal's
 * Ctrl-C reaches both, and the launcher waits for the program to decide. */
static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vmrec [-o TRACE] [--stacks[=DEPTH]] [--no-sud] [--] PROGRAM [ARGS...]\n");
}

/* ../lib/libvmrec.so relative to this executable. */
static int find_library(char *buf, size_t cap)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	if ((size_t)snprintf(buf, cap, "%s/lib/libvmrec.so", exe) >= cap)
		return -1;
	return access(buf, R_OK);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *stacks = NULL;
	int i, no_sud = 0;
	char lib[4200], outbuf[4200];

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) { i++; break; }
		if (strcmp(a, "-o") == 0 && i + 1 >= argc) {
			fprintf(stderr, "vmrec: option -o needs a file name\n");
			usage(stderr);
			return 2;
		}
		if (strcmp(a, "-o") == 0) out = argv[++i];
		else if (strncmp(a, "-o", 2) == 0 && a[2]) out = a + 2;
		else if (strcmp(a, "--stacks") == 0) stacks = "16";
		else if (strncmp(a, "--stacks=", 9) == 0) stacks = a + 9;
		else if (strcmp(a, "--no-sud") == 0) no_sud = 1;
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); return 0; }
		else if (a[0] == '-') {
			fprintf(stderr, "vmrec: unknown option %s\n", a);
			usage(stderr);
			return 2;
		} else break;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	if (stacks && (atoi(stacks) < 1 || atoi(stacks) > 128)) {
		fprintf(stderr, "vmrec: --stacks=%s: depth must be 1..128\n", stacks);
		return 2;
	}
	if (find_library(lib, sizeof lib) != 0) {
		fprintf(stderr, "vmrec: %s: recorder library not found next to vmrec\n", lib);
		return 2;
	}
	if (!out) {
		const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		snprintf(outbuf, sizeof outbuf, "%s.vmrec.lz4", base);
		out = outbuf;
	}
	char found[4200];
	const char *prog = resolve(argv[i], found, sizeof found);
	if (prog && is_static(prog))
		fprintf(stderr, "vmrec: %s is statically linked: not recorded\n", argv[i]);
	/* Fail early, with the file's name, rather than inside the program. */
	FILE *probe = fopen(out, "w");
	if (!probe) {
		fprintf(stderr, "vmrec: %s: %s\n", out, strerror(errno));
		return 2;
	}
	fclose(probe);

	const char *old = getenv("LD_PRELOAD");
	char *preload = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
	if (!preload)
		return 2;
	sprintf(preload, old && *old ? "%s:%s" : "%s", lib, old);
	setenv("LD_PRELOAD", preload, 1);
	setenv("VMREC_OUT", out, 1);
	unsetenv("VMREC_SEQFD");
	unsetenv("VMREC_EXEC");
	if (stacks)
		setenv("VMREC_STACKS", stacks, 1);
	if (no_sud)
		setenv("VMREC_SUD", "0", 1);

	pid_t pid = fork();
	if (pid < 0) {
		perror("vmrec: fork");
		return 2;
	}
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[i], argv + i);
		fprintf(stderr, "vmrec: %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	child = pid;
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
		struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
		sigaction(sigs[k], &sa, NULL);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("vmrec: waitpid");
			return 2;
		}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
