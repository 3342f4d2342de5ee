/* synth_emit.c - the records of a synthetic trace, in the order the
 * recorder writes them: header; per process its process record, file
 * records, memory map and start (or fork) checkpoint; events; exit
 * checkpoint.  Metadata takes the seq of the event that follows it.
 *
 * The initial memory map is that of a small dynamically linked C program
 * on this Debian 12 host (glibc 2.36, kernel 6.18): 5 VMAs of the
 * executable, [heap], libc's TLS block, 5 of libc.so.6, its bss, ld.so's
 * early anonymous page, [vvar], [vvar_vclock], [vdso], 5 of ld.so,
 * [stack], [vsyscall]: 24 VMAs.  --seed 0 places it as an unrandomized
 * process (setarch -R); another seed moves the four ASLR bases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "analysis/vmtrace.h"
#include "analysis/vmtrace_files.h"
#include "analysis/synth/synth.h"

#define MAP_FIXED     0x10u
#define MAP_ANONYMOUS 0x20u
#define MAP_STACK     0x20000u
#define CLONE_THREAD  0x00010000u

static uint64_t rnd(struct synth *s)
{
	uint64_t z = (s->seed_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t page_up(uint64_t v)
{
	return (v + VMT_PAGE - 1) & ~(uint64_t)(VMT_PAGE - 1);
}

static int put(struct synth *s, const struct vmt_record *rec)
{
	if (s->failed)
		return -1;
	if (vmt_write(s->w, rec) < 0) {
		fprintf(stderr, "vmtrace: %s\n", vmt_writer_error(s->w));
		s->failed = 1;
		return -1;
	}
	return 0;
}

int synth_begin(struct synth *s, const struct synth_opts *o, const char *cmdline)
{
	s->out = o->out;
	s->seed_state = o->seed;
	s->seq = 0;
	s->now_ns = 2400000000000ull;   /* 40 minutes of uptime */
	s->next_pid = 4242 + (int32_t)(o->seed % 20000);
	if (!(s->w = vmtrace_create(o->out)))
		return -1;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct vmt_record rec = { .type = VMT_REC_HEADER };
	rec.u.header.version = VMT_FORMAT_VERSION;
	rec.u.header.start_realtime_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
	rec.u.header.cmdline = cmdline;
	vmt_host_probe(&rec.u.header.host);
	return put(s, &rec);
}

int synth_end(struct synth *s)
{
	int err = 0;
	if (s->failed)
		vmt_writer_discard(s->w);   /* the output stays as it was */
	else
		err = vmt_writer_close(s->w);
	s->w = NULL;
	if (err < 0 && !s->failed)
		fprintf(stderr, "vmtrace: %s: %s\n", s->out, vmt_strerror(err));
	return err < 0 || s->failed ? -1 : 0;
}

void synth_think(struct synth *s, uint64_t ns)
{
	s->now_ns += ns;
}

static int put_file(struct synth *s, const struct synth_proc *p,
                    const struct synth_file_rec *f)
{
	struct vmt_record rec = { .type = VMT_REC_FILE };
	rec.u.file = (struct vmt_file){ .id = f->id, .pid = p->pid, .dev = 0xfe00,
	                                .ino = 332000 + f->id, .size = f->size, .path = f->path };
	return put(s, &rec);
}

static uint32_t add_file(struct synth *s, struct synth_proc *p, uint32_t id,
                         const char *path, uint64_t size)
{
	if (p->nfiles == (int)(sizeof(p->files) / sizeof(p->files[0]))) {
		fprintf(stderr, "vmtrace: synth: too many files\n");
		s->failed = 1;
		return 0;
	}
	struct synth_file_rec *f = &p->files[p->nfiles++];
	f->id = id;
	f->size = size;
	snprintf(f->path, sizeof(f->path), "%s", path);
	return put_file(s, p, f) < 0 ? 0 : id;
}

uint32_t synth_file(struct synth *s, struct synth_proc *p, const char *path, uint64_t size)
{
	uint32_t id = 1;
	for (int i = 0; i < p->nfiles; i++)
		if (p->files[i].id >= id)
			id = p->files[i].id + 1;
	return add_file(s, p, id, path, size);
}

struct seg {
	uint64_t size, offset;
	uint32_t prot;
};

#define R VMT_PROT_READ
#define W VMT_PROT_WRITE
#define X VMT_PROT_EXEC

static const struct seg exe_segs[] = {
	{ 0x1000, 0x0, R }, { 0x1000, 0x1000, R | X }, { 0x1000, 0x2000, R },
	{ 0x1000, 0x2000, R }, { 0x1000, 0x3000, R | W },
};
static const struct seg libc_segs[] = {
	{ 0x26000, 0x0, R }, { 0x156000, 0x26000, R | X }, { 0x53000, 0x17c000, R },
	{ 0x4000, 0x1cf000, R }, { 0x2000, 0x1d3000, R | W },
};
static const struct seg ld_segs[] = {
	{ 0x1000, 0x0, R }, { 0x26000, 0x1000, R | X }, { 0xa000, 0x27000, R },
	{ 0x2000, 0x31000, R }, { 0x2000, 0x33000, R | W },
};

static const char LIBC[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
static const char LDSO[] = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2";

static int add(struct synth_space *sp, uint64_t start, uint64_t size, uint32_t prot,
               int kind, const char *name, uint32_t file_id, uint64_t offset)
{
	struct synth_vma v = { start, start + size, offset, prot, file_id, (uint8_t)kind, name };
	return synth_space_map(sp, &v);
}

/* Segments laid out upwards from base; returns the end. */
static uint64_t add_object(struct synth_space *sp, uint64_t base, const struct seg *segs,
                           const char *path, uint32_t file_id, int *err)
{
	for (int i = 0; i < 5; i++) {
		*err |= add(sp, base, segs[i].size, segs[i].prot, SK_FILE, path, file_id,
		            segs[i].offset);
		base += segs[i].size;
	}
	return base;
}

static uint64_t object_size(const struct seg *segs)
{
	uint64_t n = 0;
	for (int i = 0; i < 5; i++)
		n += segs[i].size;
	return n;
}

static int build_layout(struct synth *s, struct synth_space *sp, const char *exe)
{
	int err = 0;
	int random = s->seed_state != 0;
	uint64_t exe_base = 0x555555554000ull, heap_gap = 0;
	uint64_t mmap_top = 0x7ffff7ffe000ull, stack_top = 0x7ffffffff000ull;
	if (random) {
		exe_base = 0x550000000000ull + (rnd(s) % (1ull << 28)) * VMT_PAGE;
		heap_gap = (rnd(s) % (1ull << 21)) * VMT_PAGE;
		mmap_top = 0x7f0000000000ull + (rnd(s) % (1ull << 28)) * VMT_PAGE;
		stack_top = 0x7ffc00000000ull + (rnd(s) % (1ull << 20)) * VMT_PAGE;
	}
	memset(sp, 0, sizeof(*sp));
	uint64_t exe_end = add_object(sp, exe_base, exe_segs, exe, 1, &err);
	sp->start_brk = exe_end + heap_gap;
	sp->brk = sp->start_brk + 0x21000;   /* after stdio's first malloc */
	err |= add(sp, sp->start_brk, 0x21000, R | W, SK_SPECIAL, "[heap]", 0, 0);

	/* top down from mmap_base, as ld.so and the kernel placed them */
	uint64_t at = mmap_top - object_size(ld_segs);
	sp->mmap_base = mmap_top;
	add_object(sp, at, ld_segs, LDSO, 3, &err);
	err |= add(sp, at -= 0x2000, 0x2000, R | X, SK_SPECIAL, "[vdso]", 0, 0);
	err |= add(sp, at -= 0x2000, 0x2000, R, SK_SPECIAL, "[vvar_vclock]", 0, 0);
	err |= add(sp, at -= 0x4000, 0x4000, R, SK_SPECIAL, "[vvar]", 0, 0);
	err |= add(sp, at -= 0x2000, 0x2000, R | W, SK_ANON, "", 0, 0);
	at -= 0xe000;   /* where ld.so.cache was mapped while loading */
	err |= add(sp, at -= 0xd000, 0xd000, R | W, SK_ANON, "", 0, 0);
	at -= object_size(libc_segs);
	add_object(sp, at, libc_segs, LIBC, 2, &err);
	err |= add(sp, at - 0x3000, 0x3000, R | W, SK_ANON, "", 0, 0);

	err |= add(sp, stack_top - 0x21000, 0x21000, R | W, SK_SPECIAL, "[stack]", 0, 0);
	err |= add(sp, 0xffffffffff600000ull, 0x1000, X, SK_SPECIAL, "[vsyscall]", 0, 0);
	return err ? -1 : 0;
}

static int put_map(struct synth *s, const struct synth_proc *p)
{
	struct vmt_vma *vmas = calloc(p->space.n, sizeof(*vmas));
	if (!vmas)
		return -1;
	for (size_t i = 0; i < p->space.n; i++) {
		const struct synth_vma *v = &p->space.v[i];
		vmas[i] = (struct vmt_vma){ v->start, v->end, v->offset, v->prot, 0,
		                            v->file_id, v->name };
	}
	struct vmt_record rec = { .type = VMT_REC_MAP };
	rec.u.map = (struct vmt_map){ s->seq + 1, p->pid, (uint32_t)p->space.n, vmas };
	int ret = put(s, &rec);
	free(vmas);
	return ret;
}

static int put_checkpoint(struct synth *s, const struct synth_proc *p, int reason)
{
	struct vmt_record rec = { .type = VMT_REC_CHECKPOINT };
	rec.u.checkpoint = (struct vmt_checkpoint){ s->seq + 1, p->pid, (uint32_t)reason,
	                                            p->space.n, 0 };
	return put(s, &rec);
}

static int put_process(struct synth *s, const struct synth_proc *p)
{
	struct vmt_record rec = { .type = VMT_REC_PROCESS };
	rec.u.process = (struct vmt_process){ s->seq + 1, s->now_ns, p->pid, p->ppid, 0,
	                                      s->exe, s->exe, 0 };
	return put(s, &rec);
}

int synth_start_process(struct synth *s, struct synth_proc *p, const struct synth_opts *o)
{
	(void)o;
	memset(p, 0, sizeof(*p));
	p->pid = s->next_pid++;
	if (build_layout(s, &p->space, s->exe) < 0 || put_process(s, p) < 0)
		return -1;
	/* ids 1-3 are the ones build_layout's VMAs name */
	if (!add_file(s, p, 1, s->exe, 16384) || !add_file(s, p, 2, LIBC, 1926232) ||
	    !add_file(s, p, 3, LDSO, 210968))
		return -1;
	return put_map(s, p) < 0 || put_checkpoint(s, p, VMT_CK_START) < 0 ? -1 : 0;
}

int synth_start_child(struct synth *s, const struct synth_proc *parent, struct synth_proc *child)
{
	int32_t pid = child->pid;
	memset(child, 0, sizeof(*child));
	child->pid = pid;
	child->ppid = parent->pid;
	memcpy(child->fd_file, parent->fd_file, sizeof(child->fd_file));
	memcpy(child->files, parent->files, sizeof(child->files));
	child->nfiles = parent->nfiles;
	if (synth_space_copy(&child->space, &parent->space) < 0 || put_process(s, child) < 0)
		return -1;
	child->space.heap_frozen_end = page_up(parent->space.brk);
	for (int i = 0; i < child->nfiles; i++)
		if (put_file(s, child, &child->files[i]) < 0)
			return -1;
	return put_map(s, child) < 0 || put_checkpoint(s, child, VMT_CK_FORK) < 0 ? -1 : 0;
}

int synth_exit_process(struct synth *s, struct synth_proc *p, int status)
{
	uint64_t args[6] = { (uint64_t)status };
	synth_call(s, p, p->pid, VMT_SYS_EXIT_GROUP, args, 0);
	int ret = put_checkpoint(s, p, VMT_CK_EXIT);
	synth_space_free(&p->space);
	return ret;
}

int synth_residency(struct synth *s, const struct synth_proc *p, uint64_t start,
                    uint64_t npages)
{
	size_t bytes = (size_t)((npages + 7) / 8);
	uint8_t *bits = malloc(bytes);
	if (!bits)
		return -1;
	memset(bits, 0xff, bytes);
	if (npages % 8)
		bits[bytes - 1] = (uint8_t)((1u << (npages % 8)) - 1);
	struct vmt_record rec = { .type = VMT_REC_RESIDENCY };
	rec.u.residency = (struct vmt_residency){ s->seq + 1, p->pid, start, npages, bits, 0, NULL };
	int ret = put(s, &rec);
	free(bits);
	return ret;
}

static int64_t do_brk(struct synth_proc *p, uint64_t want)
{
	struct synth_space *sp = &p->space;
	if (want < sp->start_brk)
		return (int64_t)sp->brk;   /* the kernel answers with the old break */
	uint64_t old_end = page_up(sp->brk), new_end = page_up(want);
	if (new_end < old_end) {
		synth_space_unmap(sp, new_end, old_end);
	} else if (new_end > old_end) {
		/* grows the [heap] VMA (or starts one at start_brk), except
		 * the faulted heap a fork child inherited */
		uint64_t from = old_end;
		for (size_t i = 0; i < sp->n && old_end > sp->heap_frozen_end; i++)
			if (sp->v[i].end == old_end && !strcmp(sp->v[i].name, "[heap]"))
				from = sp->v[i].start;
		add(sp, from, new_end - from, R | W, SK_SPECIAL, "[heap]", 0, 0);
	}
	sp->brk = want;
	return (int64_t)want;
}

static int64_t do_mmap(struct synth_proc *p, const uint64_t *a)
{
	uint64_t len = page_up(a[1]);
	uint32_t flags = (uint32_t)a[3];
	int anon = (flags & MAP_ANONYMOUS) != 0;
	int fd = (int)a[4];
	uint64_t at = a[0];
	if (!(flags & MAP_FIXED))
		at = synth_space_place(&p->space, len, anon && len % SYNTH_PMD == 0);
	if (!at)
		return -12;   /* ENOMEM */
	struct synth_vma v = { at, at + len, anon ? 0 : a[5], (uint32_t)a[2],
	                       anon || fd < 0 || fd >= 64 ? 0 : p->fd_file[fd],
	                       (uint8_t)(anon ? (flags & MAP_STACK ? SK_STACK : SK_ANON) : SK_FILE),
	                       "" };
	synth_space_map(&p->space, &v);
	return (int64_t)at;
}

int64_t synth_call(struct synth *s, struct synth_proc *p, int32_t tid, int sys,
                   const uint64_t args[6], uint64_t latency_ns)
{
	struct vmt_event ev = { 0 };
	ev.seq = ++s->seq;
	ev.time_ns = s->now_ns;
	ev.latency_ns = latency_ns;
	ev.pid = p->pid;
	ev.tid = tid;
	ev.sys = (uint16_t)sys;
	memcpy(ev.args, args, sizeof(ev.args));
	int64_t r = 0;
	/* the calls the workloads make (mmap, munmap, mprotect, madvise, brk,
	 * clone, exit), by what the table says they do */
	switch (vmt_sys_effect(sys)) {
	case VMT_FX_BRK:
		r = do_brk(p, args[0]);
		break;
	case VMT_FX_MAP:
		r = do_mmap(p, args);
		if (args[4] != (uint64_t)-1 && !(args[3] & MAP_ANONYMOUS) && args[4] < 64)
			ev.file_id = p->fd_file[args[4]];
		break;
	case VMT_FX_UNMAP:
		synth_space_unmap(&p->space, args[0], args[0] + page_up(args[1]));
		break;
	case VMT_FX_CHANGE:   /* the advice the workloads give changes no VMA */
		if (sys == VMT_SYS_MPROTECT)
			synth_space_protect(&p->space, args[0], args[0] + page_up(args[1]), (uint32_t)args[2]);
		break;
	case VMT_FX_TASK:
		if (args[0] & CLONE_THREAD)
			ev.flags |= VMT_EV_THREAD;
		r = s->next_pid++;   /* threads and processes share one id space */
		break;
	case VMT_FX_EXIT:
		ev.flags |= VMT_EV_NORETURN;
		break;
	}
	if (vmt_raw_failed(r)) {
		ev.err = (int32_t)-r;
		r = -1;
	}
	ev.result = r;
	s->now_ns += latency_ns;
	struct vmt_record rec = { .type = VMT_REC_EVENT };
	rec.u.event = ev;
	put(s, &rec);
	return r;
}
