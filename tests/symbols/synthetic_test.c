/* synthetic_test.c - a trace whose stacks point into this very program,
 * written with the vmt writer, so `vmtrace top` and `vmtrace dump -k` have
 * exactly known answers: names, lines, a fork child without module records
 * of its own, an exec whose new objects overlap the old ones, events
 * without a stack, a missing stack, an empty stack and an ip in no module. */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vmt.h"
#include "tests/tap.h"

#define NOPS "nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n nop\n"

__attribute__((noinline)) void site_alpha(void);
__attribute__((noinline)) void site_beta(void);

void site_alpha(void)
{
	__asm__ volatile(NOPS);
}
static const int alpha_line = __LINE__ - 2;

void site_beta(void)
{
	__asm__ volatile(NOPS);
}
static const int beta_line = __LINE__ - 2;

static char exe[4096], trace[64] = "/tmp/vmrec-synth-XXXXXX";
static struct vmt_module self = { .pid = 100 };

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (*info->dlpi_name)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			self.start = info->dlpi_addr + ph->p_vaddr;
			self.end = self.start + ph->p_memsz;
			self.offset = ph->p_offset;
			self.load_bias = info->dlpi_addr;
		}
	}
	return 1;
}

static void put(struct vmt_writer *w, struct vmt_record *r)
{
	int err = vmt_write(w, r);

	if (err) {
		printf("Bail out! vmt_write: %s\n", vmt_strerror(err));
		exit(1);
	}
}

static void stack(struct vmt_writer *w, int32_t pid, uint32_t id,
                  const uint64_t *ips, uint32_t depth)
{
	struct vmt_record r = { .type = VMT_REC_STACK };

	r.u.stack = (struct vmt_stack){ .id = id, .pid = pid, .depth = depth, .ips = ips };
	put(w, &r);
}

static void event(struct vmt_writer *w, uint64_t seq, int32_t pid, uint32_t stack_id)
{
	struct vmt_record r = { .type = VMT_REC_EVENT };

	r.u.event = (struct vmt_event){ .seq = seq, .pid = pid, .tid = pid,
		.sys = VMT_SYS_MMAP, .result = (int64_t)(0x10000000 + seq * 0x10000),
		.latency_ns = 1000, .args = { 0, 4096, 3, 0x22, (uint64_t)-1, 0 },
		.stack_id = stack_id };
	put(w, &r);
}

static void write_trace(void)
{
	uint64_t alpha = (uint64_t)(uintptr_t)site_alpha, beta = (uint64_t)(uintptr_t)site_beta;
	uint64_t s1[] = { alpha + 6, beta + 6 }, s2[] = { alpha + 8 }, s3[] = { 0x1234 };
	struct vmt_record r = { .type = VMT_REC_HEADER };
	struct vmt_writer *w;
	int err, fd = mkstemp(trace);

	close(fd);
	if (!(w = vmt_writer_open(trace, NULL, &err))) {
		printf("Bail out! %s: %s\n", trace, vmt_strerror(err));
		exit(1);
	}
	r.u.header.version = VMT_FORMAT_VERSION;
	r.u.header.host.page_size = VMT_PAGE;
	r.u.header.cmdline = "synthetic";
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_PROCESS };
	r.u.process = (struct vmt_process){ .pid = 100, .ppid = 1, .exe = exe, .cmdline = "synthetic" };
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_MODULE };
	self.path = exe;
	r.u.module = self;
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_PROCESS };
	r.u.process = (struct vmt_process){ .seq = 3, .pid = 101, .ppid = 100, .exe = exe,
		.cmdline = "synthetic" };
	stack(w, 100, 1, s1, 2);
	stack(w, 100, 2, s3, 1);
	stack(w, 100, 3, s1, 0);
	event(w, 0, 100, 1);
	event(w, 1, 100, 1);
	event(w, 2, 100, 0);
	put(w, &r);
	stack(w, 101, 1, s2, 1);
	event(w, 3, 101, 1);
	event(w, 4, 100, 99);
	event(w, 5, 100, 2);
	event(w, 6, 100, 3);
	/* pid 102 execs: its new image's module overlaps the old one's */
	r = (struct vmt_record){ .type = VMT_REC_MODULE };
	r.u.module = self;
	r.u.module.pid = 102;
	r.u.module.path = "/nonexistent/old-image";
	r.u.module.start += 16; /* sorts after the new one: found first */
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_PROCESS };
	r.u.process = (struct vmt_process){ .seq = 7, .pid = 102, .ppid = 1, .image = 1,
		.exe = exe, .cmdline = "synthetic" };
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_MODULE };
	r.u.module = self;
	r.u.module.pid = 102;
	put(w, &r);
	stack(w, 102, 1, s2, 1);
	event(w, 7, 102, 1);
	err = vmt_writer_close(w);
	if (err) {
		printf("Bail out! %s: %s\n", trace, vmt_strerror(err));
		exit(1);
	}
}

/* A stack wholly inside libc (a thread's exit, the loader at start-up):
 * the call site is the frame past the system call's wrapper. */
static struct vmt_module libc_mod = { .pid = 200 };

static int find_libc(struct dl_phdr_info *info, size_t size, void *arg)
{
	uint64_t ip = (uint64_t)(uintptr_t)arg;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
		    ip >= start && ip < start + ph->p_memsz) {
			libc_mod.start = start;
			libc_mod.end = start + ph->p_memsz;
			libc_mod.offset = ph->p_offset;
			libc_mod.load_bias = info->dlpi_addr;
			libc_mod.path = info->dlpi_name;
			return 1;
		}
	}
	return 0;
}

static void write_libc_trace(void)
{
	/* the wrapper innermost (libc's own), or no wrapper (the recorder's
	 * hook replaced it): pthread_create either way.  libc's own symbols,
	 * not a sanitizer's interceptors of the same names. */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	uintptr_t libc_mmap = (uintptr_t)(libc ? dlsym(libc, "mmap") : NULL);
	uintptr_t libc_pthread_create = (uintptr_t)(libc ? dlsym(libc, "pthread_create") : NULL);
	if (!libc_mmap || !libc_pthread_create) {
		printf("Bail out! libc's mmap and pthread_create not found\n");
		exit(1);
	}
	uint64_t ips[] = { libc_mmap + 4, libc_pthread_create + 8, libc_mmap + 4 };
	struct vmt_record r = { .type = VMT_REC_HEADER };
	struct vmt_writer *w;
	int err;

	dl_iterate_phdr(find_libc, (void *)(uintptr_t)ips[0]);
	if (!libc_mod.path || !(w = vmt_writer_open(trace, NULL, &err))) {
		printf("Bail out! cannot write %s\n", trace);
		exit(1);
	}
	r.u.header.version = VMT_FORMAT_VERSION;
	r.u.header.host.page_size = VMT_PAGE;
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_PROCESS };
	r.u.process = (struct vmt_process){ .pid = 200, .ppid = 1, .exe = exe, .cmdline = "synthetic" };
	put(w, &r);
	r = (struct vmt_record){ .type = VMT_REC_MODULE };
	r.u.module = libc_mod;
	put(w, &r);
	stack(w, 200, 1, ips, 2);
	stack(w, 200, 2, ips + 1, 2);
	event(w, 0, 200, 1);
	event(w, 1, 200, 2);
	vmt_writer_close(w);
}

/* The output of a vmtrace command (stderr dropped). */
static char *run(const char *args)
{
	const char *b = getenv("VMREC_BUILD");
	static char out[16384];
	char cmd[8192];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "VMREC_NO_SYMCACHE=1 %s/bin/vmtrace %s %s 2>/dev/null",
		 b ? b : "build", args, trace);
	if (!(p = popen(cmd, "r")))
		return strcpy(out, "(popen failed)");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

/* vmtrace top's first line when the simulator refused the trace, which
 * names a stack it does not have (the [stack not in trace] row): the rows
 * are still there, the new column is '-' and the line says why */
#define SIM_REFUSED "# new: - (the simulator could not replay it (vmreplay: %s: bad: " \
	"pid 100 refers to stack 99, which the trace does not have); give --results " \
	"R.json from vmreplay --per-event)\n"

int main(void)
{
	char want[8192];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	uint64_t rel_alpha;
	const char *b = getenv("VMREC_BUILD");

	snprintf(want, sizeof(want), "%s/bin/vmtrace", b ? b : "build");
	if (access(want, X_OK) != 0) {   /* a missing build product fails */
		ok(0, "%s is built", want);
		return done_testing();
	}
	if (n < 0)
		return 1;
	exe[n] = '\0';
	dl_iterate_phdr(find_self, NULL);
	rel_alpha = (uint64_t)(uintptr_t)site_alpha - self.load_bias;
	if ((uint64_t)(uintptr_t)site_alpha < self.start + 16) {
		printf("1..0 # SKIP site_alpha starts the text segment\n");
		return 0;
	}
	write_trace();

	snprintf(want, sizeof(want), SIM_REFUSED
		 "  events   vmas   latency_us    new  call site\n"
		 "       4      4          4.0      -  site_alpha (synthetic_test.c:%d)\n"
		 "       1      1          1.0      -  0x1234\n"
		 "       1      1          1.0      -  [empty stack]\n"
		 "       1      1          1.0      -  [no stack]\n"
		 "       1      1          1.0      -  [stack not in trace]\n", trace, alpha_line);
	is_str(run("top"), want, "top: names and lines; a fork child uses its parent's modules, "
	       "an exec'ed process its new image's");

	snprintf(want, sizeof(want), SIM_REFUSED
		 "  events   vmas   latency_us    new  call site\n"
		 "       2      2          2.0      -  site_alpha (synthetic_test.c:%d)\n"
		 "       2      2          2.0      -  site_alpha (synthetic_test.c:%d) < site_beta (synthetic_test.c:%d)\n"
		 "       1      1          1.0      -  0x1234\n"
		 "       1      1          1.0      -  [empty stack]\n"
		 "       1      1          1.0      -  [no stack]\n"
		 "       1      1          1.0      -  [stack not in trace]\n",
		 trace, alpha_line, alpha_line, beta_line);
	is_str(run("top --depth 3"), want, "top --depth 3 stops at the outermost frame");

	is_str(run("top --folded --by latency"),
	       "site_alpha 2000\nsite_beta;site_alpha 2000\n0x1234 1000\n[empty stack] 1000\n"
	       "[no stack] 1000\n[stack not in trace] 1000\n",
	       "--folded: outermost first, counts in ns for --by latency");

	snprintf(want, sizeof(want), " > %s(site_alpha+0x6) [0x%llx]\n", exe,
		 (unsigned long long)rel_alpha + 6);
	ok(strstr(run("dump -k"), want) != NULL, "dump -k: %s", want);
	ok(strstr(run("dump -k"), " > [unknown] [0x1234]\n") != NULL,
	   "dump -k: an ip in no module");

	write_libc_trace();
	{
		const char *out = run("top"), *row = strstr(out, "call site\n       2 ");

		if (!ok(row && strstr(row, "  pthread_create") && !strstr(out, "mmap"),
			"stacks wholly in libc go to the frame past the wrapper"))
			diag("%s", out);
	}
	unlink(trace);
	return done_testing();
}
