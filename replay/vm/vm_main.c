/* vm_main.c - `vmreplay --vm KERNEL[,KERNEL...] [options] TRACE`: replay the
 * trace inside each kernel booted under QEMU (or on the host for "host"),
 * one after the other, and bring the results back. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/output.h"
#include "replay/options.h"
#include "replay/vm/vm.h"
#include "replay/vm/vm_frame.h"
#include "replay/vm/vm_initramfs.h"
#include "replay/vm/vm_kernels.h"
#include "replay/vm/vm_qemu.h"
#include "replay/vm/vm_results.h"

#define MAX_FRAMES 4096

static const char *prog = "vmreplay --vm";

/* The selected word of the host's THP mode ("[madvise]"), so guests and the
 * host replay under the same setting; NULL if unknown. */
static const char *host_thp_mode(void)
{
	static const char *const modes[] = { "always", "madvise", "never" };
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (f) {
		if (!fgets(buf, sizeof buf, f))
			buf[0] = 0;
		fclose(f);
	}
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
		char sel[16];
		snprintf(sel, sizeof sel, "[%s]", modes[i]);
		if (strstr(buf, sel))
			return modes[i];
	}
	return NULL;
}

/* What the command line left to the back end: the trace files exist. */
static int check_traces(const struct rp_vm_opts *o)
{
	for (int i = 0; i < o->ntraces; i++)
		if (access(o->traces[i], R_OK)) {
			fprintf(stderr, "%s: %s: %s\n", prog, o->traces[i], strerror(errno));
			return 2;
		}
	return 0;
}

/* With several kernels or traces the results files get names of their own
 * (vm_results_name): say each one written, so nobody looks for OUT. */
static void say_written(const char *json, const char *out, const char *kname, const char *trace)
{
	if (strcmp(out, json))
		fprintf(stderr, "%s: wrote %s (%s, %s)\n", prog, out, kname, trace);
}

static char *helper(const char *env, const char *name)
{
	static char path[2][PATH_MAX + 64];
	static int k;
	const char *v = getenv(env);
	char *p = path[k++ & 1];

	if (v && *v)
		snprintf(p, PATH_MAX + 64, "%s", v);
	else
		snprintf(p, PATH_MAX + 64, "%s/%s", vm_exe_dir(), name);
	return p;
}

/* Run the host's own vmreplay (no --vm) for each trace. */
static int run_host(const struct rp_vm_opts *o, const char *json, int many_kernels)
{
	struct utsname u;
	int worst = 0;

	uname(&u);
	for (int t = 0; t < o->ntraces; t++) {
		char *out = json ? vm_results_name(json, u.release, t, many_kernels,
		                                   o->ntraces > 1) : NULL;
		char **argv = calloc((size_t)o->nfwd + 5, sizeof *argv);
		int n = 0, status;
		argv[n++] = helper("VMREC_VM_HOST_REPLAY", "vmreplay");
		for (int i = 0; i < o->nfwd; i++)
			argv[n++] = o->fwd[i];
		if (out) {
			argv[n++] = "--json";
			argv[n++] = out;
		}
		argv[n++] = o->traces[t];
		struct stat before, after;
		int existed = out && !stat(out, &before);
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			execv(argv[0], argv);
			fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[0], strerror(errno));
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			status = 127 << 8;
		int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (rc && !worst)
			worst = rc;
		/* the host's vmreplay wrote it: it is new, or changed */
		if (out && !stat(out, &after) &&
		    (!existed || before.st_mtim.tv_sec != after.st_mtim.tv_sec ||
		     before.st_mtim.tv_nsec != after.st_mtim.tv_nsec || before.st_ino != after.st_ino))
			say_written(json, out, "host", o->traces[t]);
		free(argv);
		free(out);
	}
	return worst;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (cap - *len < 65536) {
			char *more = realloc(buf, cap * 2 + 65536);
			if (!more)
				break;   /* what was read so far */
			buf = more;
			cap = cap * 2 + 65536;
		}
		size_t n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	return buf;
}

/* The last lines of the guest's console, to explain a failure. */
static void show_console_tail(const char *path, int lines)
{
	size_t len;
	char *buf = slurp(path, &len);
	size_t i = len;

	if (!buf)
		return;
	for (int seen = 0; i > 0; i--)
		if (buf[i - 1] == '\n' && ++seen > lines)
			break;
	fprintf(stderr, "%s: last lines of the guest console (%s):\n", prog, path);
	fwrite(buf + i, 1, len - i, stderr);
	free(buf);
}

/* The command that recreates one guest's results file on this machine:
 * this vmreplay, that kernel alone (its exact release when it came from
 * the store, so a newer one there does not stand in), the guests' THP
 * mode and memory, the options the guest's replayer got, the name the file
 * was written to and its trace as given here (the results' own "command"
 * names the guest's paths).  NULL when out of memory. */
static char *reproduce_line(const struct rp_opts *opts, const char *kname, const char *kernel,
                            const char *thp, const char *out, const char *trace)
{
	const struct rp_vm_opts *o = &opts->vm;
	const char **w = calloc((size_t)o->nfwd + 12, sizeof *w);
	char release[NAME_MAX + 1];
	int n = 0;

	if (!w)
		return NULL;
	w[n++] = opts->argv[0];
	w[n++] = "--vm";
	if (strchr(kname, '/') || !strcmp(kname, kernel)) {
		w[n++] = kname;
	} else {   /* STORE/<release>/vmlinuz */
		const char *end = strrchr(kernel, '/'), *start = end;
		while (start > kernel && start[-1] != '/')
			start--;
		snprintf(release, sizeof release, "%.*s", (int)(end - start), start);
		w[n++] = release;
	}
	if (thp) {
		w[n++] = "--vm-thp";
		w[n++] = thp;
	}
	if (strcmp(o->memory, RP_VM_DEFAULT_MEM)) {
		w[n++] = "--vm-mem";
		w[n++] = o->memory;
	}
	for (int i = 0; i < o->nfwd; i++)
		w[n++] = o->fwd[i];
	w[n++] = "--json";
	w[n++] = out;
	if (trace[0] == '-')
		w[n++] = "--";
	w[n++] = trace;
	char *line = vm_shell_line(w, n);
	free(w);
	return line;
}

/* What deliver() needs to know of the boot whose frames it turns into files. */
struct boot_ctx {
	const struct rp_opts *opts;
	const char *kname;        /* the --vm argument */
	const char *kernel;       /* the vmlinuz it named */
	const char *thp;          /* the guests' THP mode, or NULL */
	int many_kernels;
};

/* Turn the frames of one boot into stdout, stderr and results files. */
static int deliver(const struct boot_ctx *b, const struct vm_frame *fr, int n)
{
	const struct rp_vm_opts *o = &b->opts->vm;
	const char *json = b->opts->json, *kname = b->kname;
	int many_kernels = b->many_kernels;
	const struct vm_frame *rel = vm_frame_find(fr, n, "release");
	char release[128], name[96];
	int worst = 0;

	snprintf(release, sizeof release, "%.*s", rel ? (int)rel->len : 1,
	         rel ? rel->data : "?");
	for (int t = 0; t < o->ntraces; t++) {
		const struct vm_frame *f;
		snprintf(name, sizeof name, "%d.stdout", t);
		if ((f = vm_frame_find(fr, n, name)))
			fwrite(f->data, 1, f->len, stdout);
		fflush(stdout);
		snprintf(name, sizeof name, "%d.stderr", t);
		if ((f = vm_frame_find(fr, n, name)))
			fwrite(f->data, 1, f->len, stderr);
		snprintf(name, sizeof name, "%d.status", t);
		f = vm_frame_find(fr, n, name);
		int rc = 2;
		if (!f) {
			fprintf(stderr, "%s: %s: no status came back for %s\n", prog, kname,
			        o->traces[t]);
		} else if (f->len > 5 && !strncmp(f->data, "exit ", 5)) {
			rc = atoi(f->data + 5);
		} else {
			fprintf(stderr, "%s: %s: the replayer ended by %.*s in the guest\n",
			        prog, kname, (int)f->len, f->data);
			rc = 2;
		}
		if (json) {
			snprintf(name, sizeof name, "%d/results.json", t);
			char *out = vm_results_name(json, release, t, many_kernels, o->ntraces > 1);
			struct output file;
			FILE *of;
			if (!(f = vm_frame_find(fr, n, name))) {
				if (!rc)
					fprintf(stderr, "%s: %s: the guest wrote no results JSON\n",
					        prog, kname);
				rc = rc ? rc : 2;
			} else if (!(of = output_open(&file, prog, out, VMT_OUTPUT_MODE_PRIVATE))) {
				rc = 2;
			} else {
				char *rep = reproduce_line(b->opts, kname, b->kernel, b->thp, out,
				                           o->traces[t]);
				if (!rep || vm_results_write(of, f->data, f->len, release, rep)) {
					output_abort(&file);
					fprintf(stderr, "%s: %s: the guest's results are not a JSON "
					        "object or could not be written\n", prog, out);
					rc = 2;
				} else if (output_close(&file)) {
					rc = 2;
				} else {
					say_written(json, out, kname, o->traces[t]);
				}
				free(rep);
			}
			free(out);
		}
		if (rc && !worst)
			worst = rc;
	}
	return worst;
}

static void remove_tree(const char *dir, const char *const *files)
{
	char path[PATH_MAX + 32];

	for (; *files; files++) {
		snprintf(path, sizeof path, "%s/%s", dir, *files);
		unlink(path);
	}
	rmdir(dir);
}

static int run_guest(const struct rp_opts *opts, const char *thp, const char *kname,
                     int many_kernels)
{
	const struct rp_vm_opts *o = &opts->vm;
	const char *json = opts->json;
	char kernel[PATH_MAX], err[PATH_MAX + 256];
	char dir[PATH_MAX], initrd[PATH_MAX + 16], console[PATH_MAX + 16];
	char results[PATH_MAX + 16], qlog[PATH_MAX + 16];
	const char *tmp = getenv("TMPDIR");
	static const char *const files[] = { "initrd.cpio", "console.log",
	                                     "results.bin", "qemu.log", NULL };

	if (vm_kernel_resolve(kname, kernel, sizeof kernel, err, sizeof err)) {
		fprintf(stderr, "%s: %s\n", prog, err);
		return 2;
	}
	snprintf(dir, sizeof dir, "%s/vmrec-vm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		return 2;
	}
	snprintf(initrd, sizeof initrd, "%s/initrd.cpio", dir);
	snprintf(console, sizeof console, "%s/console.log", dir);
	snprintf(results, sizeof results, "%s/results.bin", dir);
	snprintf(qlog, sizeof qlog, "%s/qemu.log", dir);

	struct vm_image img = {
		.init = helper("VMREC_VM_INIT", "vmrec-vminit"),
		.replayer = helper("VMREC_VM_REPLAY", "vmreplay-static"),
		.nopts = o->nfwd, .opts = o->fwd,
		.ntraces = o->ntraces, .traces = o->traces,
		.json = json != NULL,
	};
	struct vm_boot boot = {
		.kernel = kernel, .initrd = initrd, .console = console,
		.results = results, .qemu_log = qlog, .memory = o->memory, .thp = thp,
		.timeout_s = o->timeout_s,
	};
	int rc = 2;
	if (vm_initramfs_write(&img, initrd, err, sizeof err)) {
		fprintf(stderr, "%s: building the initramfs: %s\n", prog, err);
	} else if (vm_boot_run(&boot, err, sizeof err)) {
		fprintf(stderr, "%s: %s: %s\n", prog, kernel, err);
		show_console_tail(console, 15);
	} else {
		size_t len;
		char *buf = slurp(results, &len);
		struct vm_frame *fr = calloc(MAX_FRAMES, sizeof *fr);
		int n = buf && fr ? vm_frames_parse(buf, len, fr, MAX_FRAMES, err, sizeof err) : -1;
		if (n < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, kernel, buf ? err : "no results file");
			show_console_tail(qlog, 5);
			show_console_tail(console, 15);
		} else {
			struct boot_ctx b = { .opts = opts, .kname = kname, .kernel = kernel,
			                      .thp = thp, .many_kernels = many_kernels };
			rc = deliver(&b, fr, n);
		}
		free(fr);
		free(buf);
	}
	if (o->keep)
		fprintf(stderr, "%s: kept %s\n", prog, dir);
	else
		remove_tree(dir, files);
	return rc;
}

int vm_replay_main(const struct rp_opts *opts)
{
	const struct rp_vm_opts *o = &opts->vm;
	const char *thp = o->thp ? o->thp : host_thp_mode();
	int worst = 0;

	int rc = check_traces(o);
	for (int k = 0; !rc && k < o->nkernels; k++) {
		int many = o->nkernels > 1;
		if (many) {
			printf("# kernel %s%s\n", o->kernels[k],
			       strcmp(o->kernels[k], "host") ? " (qemu-tcg)" : "");
			fflush(stdout);
		}
		int st = strcmp(o->kernels[k], "host")
		         ? run_guest(opts, thp, o->kernels[k], many)
		         : run_host(o, opts->json, many);
		if (st && !worst)
			worst = st;
	}
	return rc ? rc : worst;
}
