/* vmrec - run a program with the recorder preloaded and wait for it.
 *
 *   vmrec [-o TRACE] [--mode=OCTAL] [--stacks[=N]] [--no-sud] -- PROGRAM ARGS...
 *   vmrec [-o TRACE] [--mode=OCTAL] --finish STORE
 *
 * The library is found next to the launcher (../lib/libvmrec.so); the
 * trace defaults to PROGRAM.vmrec.lz4 in the current directory.  The exit
 * status is the program's (128 + N when a signal N ended it).  The
 * launcher is a subreaper: it waits until every process of the tree has
 * gone, then turns the trace store into the trace, naming how each
 * process it reaped ended. */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "launch_filter.h"
#include "launch_trace.h"
#include "vmt_check.h"
#include "vmt_raw.h"
#include "vmt_store.h"

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
	fprintf(f, "usage: vmrec [-o TRACE] [--mode=OCTAL] [--stacks[=DEPTH]] [--no-sud] [--] PROGRAM [ARGS...]\n"
	           "       vmrec [-o TRACE] [--mode=OCTAL] --finish STORE\n");
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

/* The program's child shares the launcher's memory until its exec
 * (clone(CLONE_VM), as posix_spawn does, but not suspending the
 * launcher, which must trace it first): nothing of the launcher is
 * copied for it, nor torn down at its exec.  It shares the launcher's
 * thread area too (errno, stdio's and malloc's locks): it makes only raw
 * system calls, takes no lock and allocates nothing but on its stack. */
struct start {
	int go, nogo;
	char **argv;
	const char *file;   /* argv[0] found along PATH */
	long found;         /* 0, or why not (-errno) */
	char path[8192];
};

static size_t cat(char *buf, size_t at, size_t cap, const char *s)
{
	size_t n = strlen(s);
	if (at + n >= cap)
		n = at < cap ? cap - 1 - at : 0;
	memcpy(buf + at, s, n);
	buf[at + n] = 0;
	return at + n;
}

/* "vmrec: A: B" (C: more after), in one write */
static void say(const char *a, const char *b, const char *c)
{
	char m[4400];
	size_t n = cat(m, 0, sizeof m, "vmrec: ");
	n = cat(m, n, sizeof m, a);
	n = cat(m, n, sizeof m, b);
	n = cat(m, n, sizeof m, c);
	n = cat(m, n, sizeof m, "\n");
	vmt_raw6(SYS_write, 2, (long)m, (long)n, 0, 0, 0);
}

static const char *errtext(long err)
{
	const char *s = strerrordesc_np((int)-err);
	return s ? s : "Unknown error";
}

/* The file execvp would run for `name`, into buf: the first regular,
 * executable file along PATH.  0, or -ENOENT (none), -EACCES (one there,
 * not to be run), as execvp says. */
static long path_search(const char *name, char *buf, size_t cap)
{
	const char *dirs = getenv("PATH");
	long err = -ENOENT;
	if (!*name)
		return -ENOENT;
	for (const char *d = dirs ? dirs : "/bin:/usr/bin"; ; d++) {
		size_t n = strcspn(d, ":"), len = strlen(name);
		struct stat st;
		if (n + 1 + len < cap) {
			memcpy(buf, d, n);
			buf[n] = '/';
			memcpy(buf + n + !!n, name, len + 1);
			if (!vmt_raw_failed(vmt_raw6(SYS_newfstatat, AT_FDCWD, (long)buf, (long)&st, 0, 0, 0))) {
				if (S_ISREG(st.st_mode) &&
				    vmt_raw6(SYS_access, (long)buf, X_OK, 0, 0, 0, 0) == 0)
					return 0;
				err = -EACCES;
			}
		}
		d += n;
		if (!*d)
			return err;
	}
}

static int start_main(void *arg)
{
	struct start *s = arg;
	char **argv = s->argv;
	const char *file = s->file;
	long r = s->found;
	/* kernel's struct sigaction: SIG_DFL, no flags, no mask */
	unsigned long dfl[4] = { 0 };
	vmt_raw6(SYS_rt_sigaction, SIGPIPE, (long)dfl, 0, 8, 0, 0);
	vmt_raw6(SYS_close, s->nogo, 0, 0, 0, 0, 0);
	int fe = launch_trace_child(s->go);
	if (fe < 0 && fe != -EPERM)
		say("no seccomp filter (", errtext(fe), "): the loader's calls are not recorded");
	if (r == 0) {
		r = vmt_raw6(SYS_execve, (long)file, (long)argv, (long)environ, 0, 0, 0);
		if (r == -ENOEXEC) {
			/* what execvp makes of a script without #! */
			size_t argc = 0;
			while (argv[argc])
				argc++;
			char *sh[argc + 2];
			sh[0] = (char *)"/bin/sh";
			sh[1] = (char *)file;
			memcpy(sh + 2, argv + 1, argc * sizeof *sh);   /* and the NULL */
			r = vmt_raw6(SYS_execve, (long)sh[0], (long)sh, (long)environ, 0, 0, 0);
		}
	}
	say(argv[0], ": ", errtext(r));
	vmt_raw6(SYS_exit_group, 127, 0, 0, 0, 0, 0);
	return 127;
}

static struct vmt_store_fate *fates;
static size_t nfates, fates_cap;

static void reaped(pid_t pid, int st)
{
	if (nfates == fates_cap) {
		size_t cap = fates_cap ? 2 * fates_cap : 64;
		struct vmt_store_fate *f = realloc(fates, cap * sizeof *f);
		if (!f)
			return;
		fates = f;
		fates_cap = cap;
	}
	fates[nfates++] = (struct vmt_store_fate){ pid, st };
}

/* The launcher's own store, once its tree has gone: to `out`, the path it
 * was asked for, from the mapping it made the store with. */
static int finish(struct vmt_store *s, const char *out)
{
	char msg[512];
	if (vmt_store_finish(s, out, 0, fates, nfates, NULL, msg, sizeof msg) < 0) {
		fprintf(stderr, "vmrec: cannot finish the trace: %s; the records stay in %s "
		        "(vmrec --finish %s)\n", msg, s->path, s->path);
		return 2;
	}
	vmt_store_remove(s);
	return 0;
}

/* The trace a store named TRACE.vmrec-store.PID is for, or NULL. */
static const char *trace_of_store(const char *store, char *buf, size_t cap)
{
	const char *base = strrchr(store, '/') ? strrchr(store, '/') + 1 : store;
	const char *tag = NULL;
	for (const char *p = base; (p = strstr(p, ".vmrec-store.")); p++)
		tag = p;
	if (!tag || tag == base || !tag[13] || strspn(tag + 13, "0123456789") != strlen(tag + 13) ||
	    (size_t)(tag - store) >= cap)
		return NULL;
	memcpy(buf, store, (size_t)(tag - store));
	buf[tag - store] = 0;
	return buf;
}

/* A process other than this one that maps the file (dev, ino): a
 * recorded process still running, or a launcher still draining.  0:
 * none that this user may see (a process whose maps cannot be read
 * cannot have mapped a store only its owner can open). */
static pid_t store_user(dev_t dev, ino_t ino)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t self = getpid(), found = 0;
	char path[64], line[4608];
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof line, f)) {
			unsigned maj, min;
			unsigned long long i;
			if (sscanf(line, "%*x-%*x %*s %*x %x:%x %llu", &maj, &min, &i) == 3 &&
			    i == (unsigned long long)ino && maj == major(dev) && min == minor(dev))
				found = pid;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

/* vmrec --finish STORE: a store nobody finished, trusted in nothing.  The
 * trace goes where -o says, else where the store's own name says
 * (TRACE.vmrec-store.PID), never where its contents say; a store that a
 * process still maps is refused; what is written must pass the trace
 * rules (traces/vmt_check.c), or the store stays and the status is 1. */
static int finish_by_hand(const char *store_path, const char *out, unsigned mode)
{
	char derived[4300], msg[600];
	struct stat st;
	if (!out && !(out = trace_of_store(store_path, derived, sizeof derived))) {
		fprintf(stderr, "vmrec: %s: not named TRACE.vmrec-store.PID: say where the trace "
		        "goes with -o TRACE\n", store_path);
		return 2;
	}
	if (lstat(store_path, &st) < 0) {
		fprintf(stderr, "vmrec: %s: %s\n", store_path, strerror(errno));
		return 2;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "vmrec: %s: not a regular file\n", store_path);
		return 2;
	}
	pid_t user = store_user(st.st_dev, st.st_ino);
	if (user) {
		fprintf(stderr, "vmrec: %s: still in use by pid %d: the recording has not ended\n",
		        store_path, (int)user);
		return 2;
	}
	struct vmt_store s = { 0 };
	if (vmt_store_attach(&s, store_path) < 0) {
		fprintf(stderr, "vmrec: %s: not a trace store\n", store_path);
		return 2;
	}
	/* nobody maps it: a finisher that set the flag died */
	s.head->finishing = 0;
	/* the store's mode, but never more than read and write */
	if (!mode)
		mode = s.head->mode & 0666 ? s.head->mode & 0666 : 0600;
	if (vmt_store_finish(&s, out, mode, NULL, 0, NULL, msg, sizeof msg) < 0) {
		fprintf(stderr, "vmrec: cannot finish the trace: %s; the records stay in %s\n",
		        msg, store_path);
		vmt_store_detach(&s);
		return 2;
	}
	int bad = vmt_check_file(out, msg, sizeof msg);
	if (bad) {
		fprintf(stderr, "vmrec: %s: finished, but damaged: %s; the store stays: %s\n",
		        out, msg, store_path);
		vmt_store_detach(&s);
		return 1;
	}
	vmt_store_remove(&s);
	vmt_store_detach(&s);
	return 0;
}

/* The launcher drains the store while the tree runs: the slabs the
 * recorded threads seal are made into chunks here, by a thread of the
 * launcher (on another core where there is one), so a recorded call costs
 * its thread one raw copy into its slab, not the encoding (docs/store.md).
 * Woken by each seal; whatever is left when the tree has gone, and every
 * slab still open, the finisher writes. */
struct drainer {
	pthread_t thread;
	int started;
	volatile int stop;
	struct vmt_store *store;   /* the launcher's one mapping of the store */
};

static void *drain_main(void *arg)
{
	struct drainer *d = arg;
	struct vmt_store *s = d->store;
	struct vmt_store_slab **slabs = NULL;
	size_t n = 0, cap = 0;
	uint64_t off = VMT_STORE_HEAD;
	for (;;) {
		int stopping = d->stop;
		/* the count first: a slab sealed after it was read wakes us again */
		uint32_t sealed = __atomic_load_n(&s->head->sealed, __ATOMIC_ACQUIRE);
		struct vmt_store_slab *sl;
		while ((sl = vmt_store_next_slab(s, &off))) {
			if (n == cap) {
				size_t c = cap ? 2 * cap : 256;
				struct vmt_store_slab **more = realloc(slabs, c * sizeof *more);
				if (!more)
					break;   /* those wait for the finisher */
				slabs = more;
				cap = c;
			}
			slabs[n++] = sl;
		}
		for (size_t i = 0; i < n; i++)
			if (__atomic_load_n(&slabs[i]->state, __ATOMIC_ACQUIRE) == VMT_SLAB_SEALED)
				vmt_store_drain(s, slabs[i], NULL);
		if (stopping)
			break;
		struct timespec tick = { 0, 20 * 1000000L };   /* to see stop */
		syscall(SYS_futex, &s->head->sealed, FUTEX_WAIT, sealed, &tick, NULL, 0);
	}
	free(slabs);
	return NULL;
}

/* Before the tree starts: its writers seal their slabs for the drainer
 * from their first record on. */
static void drain_start(struct drainer *d, struct vmt_store *store)
{
	sigset_t all, old;
	d->store = store;
	sigfillset(&all);   /* the signals to forward are the main thread's */
	pthread_sigmask(SIG_BLOCK, &all, &old);
	d->started = pthread_create(&d->thread, NULL, drain_main, d) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (d->started)
		__atomic_store_n(&store->head->drainer, 1, __ATOMIC_RELEASE);
}

static void drain_stop(struct drainer *d)
{
	if (!d->started)
		return;
	d->stop = 1;
	/* a wake that comes before the wait changes the word it waits on */
	struct vmt_store_head *h = d->store->head;
	__atomic_add_fetch(&h->sealed, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &h->sealed, FUTEX_WAKE, 1, NULL, NULL, 0);
	pthread_join(d->thread, NULL);
}

/* A trace is replaced by rename (a symlink itself, never what it points
 * to); a directory, a device or a fifo is refused. */
static int check_out(const char *out)
{
	struct stat st;
	char dir[4200];
	if (lstat(out, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		fprintf(stderr, "vmrec: %s: not a regular file\n", out);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s", out);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0;
	else
		strcpy(dir, ".");
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "vmrec: %s: %s\n", out, strerror(errno));
		return -1;
	}
	return 0;
}

/* The trace's header, as the root image wrote it preloaded alone. */
static void write_header(struct vmt_store *s, int argc, char **argv)
{
	struct vmt_store_put put = { s, NULL };
	struct vmt_sink sink = { vmt_store_sink_put, &put };
	struct vmt_writer_prefs prefs = { .sink = &sink };
	struct vmt_writer *w = vmt_writer_fdopen(-1, (int32_t)getpid(), (int32_t)getpid(), &prefs);
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	struct timespec ts;
	size_t len = 1;
	for (int k = 0; k < argc; k++)
		len += strlen(argv[k]) + 1;
	char *cmd = calloc(1, len);
	for (int k = 0; cmd && k < argc; k++)
		strcat(strcat(cmd, k ? " " : ""), argv[k]);
	clock_gettime(CLOCK_REALTIME, &ts);
	rec.u.header.version = VMT_FORMAT_VERSION;
	rec.u.header.start_realtime_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = cmd ? cmd : "";
	if (w) {
		vmt_write(w, &rec);
		vmt_writer_close(w);
	}
	free(cmd);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *stacks = NULL, *mode = "600", *store_path = NULL;
	int i, no_sud = 0, mode_given = 0;
	char lib[4200], outbuf[4200];

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) { i++; break; }
		if (strcmp(a, "-o") == 0 && i + 1 >= argc) {
			fprintf(stderr, "vmrec: option -o needs a file name\n");
			usage(stderr);
			return 2;
		}
		if (strcmp(a, "--finish") == 0 && i + 1 >= argc) {
			fprintf(stderr, "vmrec: option --finish needs a store\n");
			usage(stderr);
			return 2;
		}
		if (strcmp(a, "-o") == 0) out = argv[++i];
		else if (strncmp(a, "-o", 2) == 0 && a[2]) out = a + 2;
		else if (strcmp(a, "--stacks") == 0) stacks = "16";
		else if (strncmp(a, "--stacks=", 9) == 0) stacks = a + 9;
		else if (strcmp(a, "--no-sud") == 0) no_sud = 1;
		else if (strncmp(a, "--mode=", 7) == 0) mode = a + 7, mode_given = 1;
		else if (strcmp(a, "--mode") == 0 && i + 1 < argc) mode = argv[++i], mode_given = 1;
		else if (strcmp(a, "--finish") == 0 && i + 1 < argc) store_path = argv[++i];
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { usage(stdout); return 0; }
		else if (a[0] == '-') {
			fprintf(stderr, "vmrec: unknown option %s\n", a);
			usage(stderr);
			return 2;
		} else break;
	}
	if (out && !*out) {
		fprintf(stderr, "vmrec: -o: empty file name\n");
		return 2;
	}
	if (store_path && i < argc) {
		fprintf(stderr, "vmrec: --finish STORE takes no program\n");
		usage(stderr);
		return 2;
	}
	if (!store_path && i >= argc) {
		usage(stderr);
		return 2;
	}
	if (stacks && (atoi(stacks) < 1 || atoi(stacks) > 128)) {
		fprintf(stderr, "vmrec: --stacks=%s: depth must be 1..128\n", stacks);
		return 2;
	}
	char *endp;
	unsigned long m = strtoul(mode, &endp, 8);
	if (!*mode || *endp || m > 07777) {
		fprintf(stderr, "vmrec: --mode=%s: not an octal file mode\n", mode);
		return 2;
	}
	if (store_path)
		return finish_by_hand(store_path, out, mode_given ? (unsigned)m : 0);
	if (find_library(lib, sizeof lib) != 0) {
		fprintf(stderr, "vmrec: %s: recorder library not found next to vmrec\n", lib);
		return 2;
	}
	/* by the name /proc gives it: ld.so's name for it (dladdr) is then
	 * the one libvmrec needs, no /proc/self/maps read in every process.
	 * The launcher's directories come from /proc/self/exe, already
	 * without links: realpath() only where lib/ or the library is one */
	char real[PATH_MAX];
	char *slash = strrchr(lib, '/');
	*slash = 0;
	int linked = readlink(lib, real, 1) >= 0;
	*slash = '/';
	if ((linked || readlink(lib, real, 1) >= 0) && realpath(lib, real) &&
	    strlen(real) < sizeof lib)
		strcpy(lib, real);
	if (!out) {
		const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		snprintf(outbuf, sizeof outbuf, "%s.vmrec.lz4", base);
		out = outbuf;
	}
	/* Fail early, with the file's name, rather than inside the program. */
	if (check_out(out) < 0)
		return 2;

	/* each image's writer (about 200 KiB of buffers) is made at its exec
	 * and freed at its go-live, the header's first: kept in the heap, not
	 * given back to the kernel and taken again at every exec of the tree */
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);

	/* the store is the launcher's: it writes each image's start */
	char store[8400], cwd[4096];
	if (out[0] != '/' && getcwd(cwd, sizeof cwd))
		snprintf(store, sizeof store, "%s/%s.vmrec-store.%d", cwd, out, (int)getpid());
	else
		snprintf(store, sizeof store, "%s.vmrec-store.%d", out, (int)getpid());

	const char *old = getenv("LD_PRELOAD");
	char *preload = malloc(strlen(lib) + (old ? strlen(old) : 0) + 2);
	if (!preload)
		return 2;
	sprintf(preload, old && *old ? "%s:%s" : "%s", lib, old);
	setenv("LD_PRELOAD", preload, 1);
	free(preload);   /* setenv copied it */
	setenv("VMREC_OUT", out, 1);
	setenv("VMREC_LAUNCHER", "1", 1);
	setenv("VMREC_MODE", mode, 1);
	setenv("VMREC_STORE", store, 1);
	char tramp[32];
	snprintf(tramp, sizeof tramp, "%llx", (unsigned long long)LAUNCH_TRAMPOLINE);
	setenv("VMREC_TRAMPOLINE", tramp, 1);
	unsetenv("VMREC_EXEC");
	if (stacks)
		setenv("VMREC_STACKS", stacks, 1);
	if (no_sud)
		setenv("VMREC_SUD", "0", 1);

	struct launch_cfg lc = { .lib_path = lib, .reaped = reaped };
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int go[2];
	if (pipe2(go, O_CLOEXEC) < 0) {
		perror("vmrec: pipe");
		return 2;
	}
	/* its stack: room for its messages and a script's argv */
	size_t stack_size = (64 << 10) + (size_t)(argc - i + 2) * sizeof(char *);
	stack_size = (stack_size + 4095) & ~(size_t)4095;
	void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
	                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (stack == MAP_FAILED) {
		perror("vmrec: mmap");
		return 2;
	}
	static struct start start;
	start = (struct start){ .go = go[0], .nogo = go[1], .argv = argv + i, .file = argv[i] };
	/* found before the filter: each execve that execvp tries along
	 * PATH would stop the launcher */
	if (!strchr(argv[i], '/')) {
		start.found = path_search(argv[i], start.path, sizeof start.path);
		start.file = start.path;
	}
	/* the stack stays mapped: the exit unmaps it */
	pid_t pid = clone(start_main, (char *)stack + stack_size, CLONE_VM | SIGCHLD, &start);
	if (pid < 0) {
		perror("vmrec: clone");
		return 2;
	}
	close(go[0]);
	child = pid;
	/* the store once the child is there: one that cannot be made kills
	 * the child, waiting for its go, before it runs anything */
	static struct vmt_store tree;
	int err = vmt_store_create(&tree, store, out, (unsigned)m, 1);
	if (err < 0) {
		fprintf(stderr, "vmrec: cannot make the trace store %s: %s\n", store, strerror(-err));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return 2;
	}
	write_header(&tree, argc - i, argv + i);
	lc.store = &tree;
	launch_trace_init(&lc);
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
		struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
		sigaction(sigs[k], &sa, NULL);
	}
	static struct drainer drainer;
	drain_start(&drainer, &tree);
	int st = 0;
	int waited = launch_trace_run(pid, go[1], &st);
	/* orphans the tracer did not see (none expected): reap them too */
	int ost;
	pid_t op;
	while ((op = waitpid(-1, &ost, __WALL)) > 0 || (op < 0 && errno == EINTR))
		if (op > 0)
			reaped(op, ost);
	drain_stop(&drainer);
	/* the store stays mapped: the exit unmaps it */
	if (waited < 0)
		return 2;
	/* a trace that cannot be finished is said on stderr; the status stays
	 * the program's, as it would be without the recorder */
	finish(&tree, out);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
