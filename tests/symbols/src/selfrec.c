/* selfrec.c - see selfrec.h.  The SIGSYS handler re-issues each trapped
 * call from one allow-listed instruction, timing it, and copies the stack
 * (glibc's backtrace(), through the signal frame) into a static array:
 * nothing in the handler allocates. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "vmt.h"
#include "selfrec.h"

#define MAX_EVENTS 4096
#define MAX_DEPTH 48

struct rec {
	struct vmt_event ev;
	uint32_t depth;
	uint64_t ips[MAX_DEPTH];
};

static struct rec recs[MAX_EVENTS];
static atomic_uint nrec;
static atomic_int recording;
static __thread int in_handler;

/* The one instruction the filter lets through: syscall, then ret. */
long selfrec_syscall(long nr, long a, long b, long c, long d, long e, long f);
extern const char selfrec_syscall_ret[];
__asm__(".text\n"
	".globl selfrec_syscall\n"
	".type selfrec_syscall, @function\n"
	"selfrec_syscall:\n"
	"\tmov %rdi, %rax\n\tmov %rsi, %rdi\n\tmov %rdx, %rsi\n"
	"\tmov %rcx, %rdx\n\tmov %r8, %r10\n\tmov %r9, %r8\n"
	"\tmov 8(%rsp), %r9\n"
	"\tsyscall\n"
	".globl selfrec_syscall_ret\n"
	"selfrec_syscall_ret:\n"
	"\tret\n"
	".size selfrec_syscall, .-selfrec_syscall\n");

static const struct {
	long nr;
	int sys;
} trapped[] = {
	{ __NR_mmap, VMT_SYS_MMAP }, { __NR_munmap, VMT_SYS_MUNMAP },
	{ __NR_mprotect, VMT_SYS_MPROTECT }, { __NR_mremap, VMT_SYS_MREMAP },
	{ __NR_brk, VMT_SYS_BRK },
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_sigsys(int sig, siginfo_t *si, void *ctx)
{
	greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	long args[6] = { g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], g[REG_R8], g[REG_R9] };
	int saved = errno, record = atomic_load(&recording) && !in_handler;
	uint64_t t0 = now_ns();
	long ret;
	unsigned i;

	(void)sig;
	in_handler++;
	ret = selfrec_syscall(si->si_syscall, args[0], args[1], args[2], args[3],
			      args[4], args[5]);
	g[REG_RAX] = ret;
	if (record && (i = atomic_fetch_add(&nrec, 1)) < MAX_EVENTS) {
		struct rec *r = &recs[i];
		void *bt[MAX_DEPTH + 8];
		int n = backtrace(bt, MAX_DEPTH + 8), k;

		r->ev.seq = i;
		r->ev.time_ns = t0;
		r->ev.latency_ns = now_ns() - t0;
		r->ev.pid = getpid();
		r->ev.tid = gettid();
		for (size_t j = 0; j < sizeof(trapped) / sizeof(*trapped); j++)
			if (trapped[j].nr == si->si_syscall)
				r->ev.sys = (uint16_t)trapped[j].sys;
		r->ev.err = vmt_raw_failed(ret) ? (int32_t)-ret : 0;
		r->ev.result = r->ev.err ? -1 : ret;
		for (int j = 0; j < 6; j++)
			r->ev.args[j] = (uint64_t)args[j];
		/* start at the interrupted instruction: drop the handler and
		 * the signal trampoline */
		for (k = 0; k < n && bt[k] != (void *)g[REG_RIP]; k++)
			;
		if (k == n)
			k = 0;
		for (r->depth = 0; k < n && r->depth < MAX_DEPTH; k++)
			r->ips[r->depth++] = (uint64_t)(uintptr_t)bt[k];
	}
	in_handler--;
	errno = saved;
}

void selfrec_start(void)
{
	uint64_t ip = (uint64_t)(uintptr_t)selfrec_syscall_ret;
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer) + 4),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(ip >> 32), 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, instruction_pointer)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ip, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_munmap, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mremap, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_brk, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(*f), .filter = f };
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO | SA_NODEFER };
	void *warm[4];

	backtrace(warm, 4); /* loads libgcc_s now, not inside the handler */
	if (sigaction(SIGSYS, &sa, NULL) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("selfrec: seccomp");
		exit(77);
	}
	atomic_store(&recording, 1);
}

struct module_ctx {
	struct vmt_writer *w;
	int err;
};

static void build_id_of(struct dl_phdr_info *info, struct vmt_module *m)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const char *desc = p + sizeof(*n) + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(p + sizeof(*n), "GNU", 4) && n->n_descsz <= 20) {
				m->build_id_len = n->n_descsz;
				memcpy(m->build_id, desc, n->n_descsz);
				return;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
}

static int write_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct module_ctx *c = arg;
	char exe[4096];
	const char *path = info->dlpi_name;
	ssize_t n;

	(void)size;
	if (!*path) {
		if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) < 0)
			return 0;
		exe[n] = '\0';
		path = exe;
	}
	if (*path != '/')
		return 0; /* the vdso */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		struct vmt_record rec = { .type = VMT_REC_MODULE };
		struct vmt_module *m = &rec.u.module;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		m->pid = getpid();
		m->start = info->dlpi_addr + ph->p_vaddr;
		m->end = m->start + ph->p_memsz;
		m->offset = ph->p_offset;
		m->load_bias = info->dlpi_addr;
		m->path = path;
		build_id_of(info, m);
		if (!c->err)
			c->err = vmt_write(c->w, &rec);
	}
	return 0;
}

/* The id of the first recorded stack equal to r's, or r's own. */
static uint32_t stack_id(unsigned i)
{
	for (unsigned j = 0; j < i; j++)
		if (recs[j].depth == recs[i].depth &&
		    !memcmp(recs[j].ips, recs[i].ips, recs[i].depth * sizeof(uint64_t)))
			return j + 1;
	return i + 1;
}

int selfrec_write(const char *path, int argc, char **argv)
{
	unsigned n = atomic_load(&nrec);
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	struct module_ctx c = { 0 };
	char cmdline[4096] = "", exe[4096] = "";
	int err = 0;

	atomic_store(&recording, 0);
	if (n > MAX_EVENTS) {
		fprintf(stderr, "selfrec: more than %d events\n", MAX_EVENTS);
		return -1;
	}
	for (int i = 0; i < argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline),
			 "%s%s", i ? " " : "", argv[i]);
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
		strcpy(exe, argv[0]);
	if (!(c.w = vmt_writer_open(path, NULL, &err))) {
		fprintf(stderr, "selfrec: %s: %s\n", path, vmt_strerror(err));
		return -1;
	}
	rec.u.header.version = VMT_FORMAT_VERSION;
	vmt_host_probe(&rec.u.header.host);
	rec.u.header.cmdline = cmdline;
	c.err = vmt_write(c.w, &rec);
	rec = (struct vmt_record){ .type = VMT_REC_PROCESS };
	rec.u.process = (struct vmt_process){ .pid = getpid(), .ppid = getppid(),
		.exe = exe, .cmdline = cmdline };
	if (!c.err)
		c.err = vmt_write(c.w, &rec);
	dl_iterate_phdr(write_module, &c);
	for (unsigned i = 0; i < n && !c.err; i++) {
		uint32_t id = stack_id(i);

		if (id == i + 1) {
			rec = (struct vmt_record){ .type = VMT_REC_STACK };
			rec.u.stack = (struct vmt_stack){ .id = id, .pid = recs[i].ev.pid,
				.depth = recs[i].depth, .ips = recs[i].ips };
			c.err = vmt_write(c.w, &rec);
		}
		rec = (struct vmt_record){ .type = VMT_REC_EVENT };
		rec.u.event = recs[i].ev;
		rec.u.event.stack_id = id;
		if (!c.err)
			c.err = vmt_write(c.w, &rec);
	}
	err = vmt_writer_close(c.w);
	if (c.err || err) {
		fprintf(stderr, "selfrec: %s: %s\n", path, vmt_strerror(c.err ? c.err : err));
		return -1;
	}
	return 0;
}
