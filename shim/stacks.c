/* stacks.c - call stacks for --stacks=N: libunwind's unw_backtrace,
 * dlopen'ed only when stacks are asked for (so it is not mapped into
 * programs recorded without them), deduplicated in a per-process hash
 * table in recorder memory.  A new stack is written once as a
 * VMT_REC_STACK; events name it by id.  The unw_init_local/unw_step loop
 * is used rather than unw_backtrace, whose per-thread trace cache costs
 * every new thread ~1 ms of page faults (18x on thread churn, measured).  Loaded objects are described by
 * VMT_REC_MODULE records (text range, load bias, build-id) at start and
 * whenever a new object appears, for offline symbolisation.
 *
 * Unwinding is cached: every step libunwind takes is remembered as
 * (ip, sp) -> (caller's ip, caller's sp).  A capture first follows the
 * cache from its own frame, and trusts a remembered step only while the
 * return address really is in the stack at caller_sp - 8 (where the call
 * instruction put it), so a stack already seen costs a few loads per frame
 * and libunwind runs only from the first frame that differs.  The leading
 * frames inside libvmrec.so are dropped. */
#include "stacks.h"
#include "arena.h"
#include "hooks.h"
#include "image.h"
#include "maps.h"
#include "raw.h"
#include "record.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/syscall.h>

#define SLOTS 65536
#define MAX_DEPTH 128
#define MAX_MODULES 1024
#define STEPS 16384             /* remembered unwinding steps (512 KiB) */
/* Steps are kept in sets of WAYS by (ip, sp): one function called at
 * the same depth from two places (a loop alternating sbrk(-N) and
 * sbrk(+n)) has one step per caller, and a direct-mapped table made the
 * two evict each other, a full unwind at every switch. */
#define WAYS 4

/* One unwinding step; next_ip 0: the outermost frame. */
struct step { uint64_t ip, sp, next_ip, next_sp; };

struct slot { uint64_t hash; uint32_t id, depth; uint64_t *ips; };

static int (*getcontext_fn)(unw_context_t *);
static int (*init_local_fn)(unw_cursor_t *, unw_context_t *);
static int (*step_fn)(unw_cursor_t *);
static int (*get_reg_fn)(unw_cursor_t *, int, unw_word_t *);
static struct slot *table;
static uint32_t next_id;
static volatile int lock;
static uint64_t module_start[MAX_MODULES];
static int nmodules;
static int modules_dirty;
static struct step *steps;
static uint64_t self_lo, self_hi;     /* libvmrec.so's text */

static void lock_table(void)
{
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		__builtin_ia32_pause();
}

static void unlock_table(void) { __atomic_store_n(&lock, 0, __ATOMIC_RELEASE); }

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size; (void)arg;
	uint64_t me = (uint64_t)(uintptr_t)&find_self;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && me >= lo && me < lo + ph->p_memsz) {
			self_lo = lo;
			self_hi = lo + ph->p_memsz;
			return 1;
		}
	}
	return 0;
}

int stacks_init(int depth)
{
	(void)depth;
	void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return -1;
	getcontext_fn = (int (*)(unw_context_t *))dlsym(h, "_Ux86_64_getcontext");
	init_local_fn = (int (*)(unw_cursor_t *, unw_context_t *))dlsym(h, "_ULx86_64_init_local");
	step_fn = (int (*)(unw_cursor_t *))dlsym(h, "_ULx86_64_step");
	get_reg_fn = (int (*)(unw_cursor_t *, int, unw_word_t *))dlsym(h, "_ULx86_64_get_reg");
	table = arena_alloc(sizeof *table * SLOTS);
	steps = arena_alloc(sizeof *steps * STEPS);
	modules_dirty = 1;
	dl_iterate_phdr(find_self, NULL);
	return getcontext_fn && init_local_fn && step_fn && get_reg_fn && table && steps ? 0 : -1;
}

void stacks_forget(void)
{
	if (table)
		memset(table, 0, sizeof *table * SLOTS);
	next_id = 0;
	nmodules = 0;          /* the same objects, described again for this pid */
	modules_dirty = 1;
	lock = 0;
}

void stacks_modules_changed(void) { modules_dirty = 1; }

static int known_module(uint64_t start)
{
	for (int i = 0; i < nmodules; i++)
		if (module_start[i] == start)
			return 1;
	return 0;
}

static void build_id(const struct dl_phdr_info *info, struct vmt_module *m)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const char *desc = p + sizeof *n + ((n->n_namesz + 3) & ~3u);
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(p + sizeof *n, "GNU", 4) == 0) {
				m->build_id_len = n->n_descsz < 20 ? n->n_descsz : 20;
				memcpy(m->build_id, desc, m->build_id_len);
				return;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
}

/* The main program has no name in dl_iterate_phdr. */
static const char *exe_path(void)
{
	static char exe[4096];
	if (!exe[0])
		image_exe(exe, sizeof exe);
	return exe;
}

/* dlopen("./x.so") leaves ld.so's name relative: the mapping's own path in
 * /proc/self/maps is absolute (and the file a later cd cannot change). */
struct find_path { uint64_t addr; char *out; size_t size; };

static int mapped_path(const struct maps_line *l, void *arg)
{
	struct find_path *f = arg;
	size_t n = strlen(l->name);
	if (f->addr < l->start || f->addr >= l->end)
		return 0;
	if (l->name[0] == '/' && n < f->size)
		memcpy(f->out, l->name, n + 1);
	return 1;
}

static const char *module_path(const char *name, uint64_t addr)
{
	static char path[4096];
	if (!name || !name[0])
		return exe_path();
	if (name[0] == '/')
		return name;
	struct find_path f = { addr, path, sizeof path };
	path[0] = 0;
	maps_each(mapped_path, &f);
	return path[0] ? path : name;
}

static int emit_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size; (void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		uint64_t start = info->dlpi_addr + ph->p_vaddr;
		if (known_module(start) || nmodules == MAX_MODULES)
			return 0;
		module_start[nmodules++] = start;
		struct vmt_record rec = { .type = VMT_REC_MODULE };
		struct vmt_module *m = &rec.u.module;
		m->pid = shim.pid;
		m->start = start;
		m->end = start + ph->p_memsz;
		m->offset = ph->p_offset;
		m->load_bias = info->dlpi_addr;
		m->path = module_path(info->dlpi_name, start);
		build_id(info, m);
		shim_write(&rec);
		return 0;
	}
	return 0;
}

static uint64_t hash_ips(const uint64_t *ips, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (int i = 0; i < n; i++)
		h = (h ^ ips[i]) * 0x100000001b3ULL;
	return h | 1;
}

static struct step *step_set(uint64_t ip, uint64_t sp)
{
	uint64_t h = (ip * 0x9e3779b97f4a7c15ULL) ^ (sp * 0xc2b2ae3d27d4eb4fULL);
	return &steps[(h >> 20) % (STEPS / WAYS) * WAYS];
}

/* The recorder's leading frames are dropped but the outermost of them, the
 * hook that replaced libc's entry: it stands where strace -k shows the
 * libc wrapper.  *n < 0 while only recorder frames were seen.  A recorder
 * frame past the program's is a new thread's first, the clone hook that
 * called the thread's function: it stands where libc's clone would, or
 * goes. */
static void keep(uint64_t *ips, int *n, uint64_t ip)
{
	int self = ip >= self_lo && ip < self_hi;
	if (*n <= 0 && self) {
		ips[0] = ip;
		*n = -1;
		return;
	}
	if (self && !(ip = patch_wrapper_return_ip(shim_sites, shim_nsites, ip)))
		return;
	if (*n < 0)
		*n = 1;
	ips[(*n)++] = ip;
}

/* Follows remembered steps from (ip, sp); returns 1 when the whole stack
 * (or depth frames) came from the cache, 0 to unwind from the start. */
static int cached_walk(uint64_t ip, uint64_t sp, uint64_t *ips, int *n, int depth)
{
	*n = 0;
	lock_table();
	while (*n < depth) {
		const struct step *set = step_set(ip, sp), *s = NULL;
		for (int w = 0; w < WAYS && !s; w++)
			if (set[w].ip == ip && set[w].sp == sp &&
			    (!set[w].next_ip || (set[w].next_sp > sp &&
			     *(const uint64_t *)(uintptr_t)(set[w].next_sp - 8) == set[w].next_ip)))
				s = &set[w];
		if (!s)
			break;
		if (!s->next_ip) {
			unlock_table();
			return 1;
		}
		ip = s->next_ip;
		sp = s->next_sp;
		keep(ips, n, ip);
	}
	unlock_table();
	return *n >= depth;     /* a stack of only recorder frames is unwound again */
}

/* A new step takes a free way of its set, or the next one in turn. */
static void remember(uint64_t ip, uint64_t sp, uint64_t next_ip, uint64_t next_sp)
{
	static unsigned turn;
	lock_table();
	struct step *set = step_set(ip, sp), *s = NULL;
	for (int w = 0; w < WAYS && !s; w++)
		if (!set[w].ip || (set[w].ip == ip && set[w].sp == sp && set[w].next_ip == next_ip))
			s = &set[w];
	if (!s)
		s = &set[turn++ % WAYS];
	*s = (struct step){ ip, sp, next_ip, next_sp };
	unlock_table();
}

static int unwind(unw_context_t *ctx, uint64_t *ips, int depth)
{
	unw_cursor_t cur;
	unw_word_t ip, sp;
	int n = 0;
	if (init_local_fn(&cur, ctx) != 0 || get_reg_fn(&cur, UNW_REG_IP, &ip) < 0 ||
	    get_reg_fn(&cur, UNW_REG_SP, &sp) < 0)
		return 0;
	while (n < depth) {
		unw_word_t nip = 0, nsp = 0;
		if (step_fn(&cur) > 0 && (get_reg_fn(&cur, UNW_REG_IP, &nip) < 0 ||
		                          get_reg_fn(&cur, UNW_REG_SP, &nsp) < 0))
			break;
		remember(ip, sp, nip, nsp);
		if (!nip)
			break;
		ip = nip;
		sp = nsp;
		keep(ips, &n, ip);
	}
	return n;
}

/* The top frame as strace -k shows it: for a hooked call, the syscall in
 * libc's wrapper the hook replaced; for a trapped one, the interrupted
 * instruction (the handler and the signal frame above it dropped). */
static int show_as_strace(uint64_t *ips, int n)
{
	if (n <= 0)
		return n;
	if (shim_trap_ip) {
		for (int k = 0; k < n; k++)
			if (ips[k] == shim_trap_ip) {
				memmove(ips, ips + k, (size_t)(n - k) * sizeof *ips);
				return n - k;
			}
		return n;
	}
	if (ips[0] >= self_lo && ips[0] < self_hi) {
		uint64_t w = patch_wrapper_ip(shim_sites, shim_nsites, ips[0]);
		if (w)
			ips[0] = w;
	}
	return n;
}

uint32_t stacks_capture(int depth)
{
	uint64_t ips[MAX_DEPTH];
	unw_context_t ctx;
	if (!step_fn || !table)
		return 0;
	if (depth > MAX_DEPTH)
		depth = MAX_DEPTH;
	if (modules_dirty && !shim_trap_flags) {   /* not inside the loader */
		modules_dirty = 0;
		dl_iterate_phdr(emit_module, NULL);
	}
	int n = 0;
	shim_self.internal++;                       /* libunwind's own calls */
	if (getcontext_fn(&ctx) == 0 &&
	    !cached_walk((uint64_t)ctx.uc_mcontext.gregs[REG_RIP], (uint64_t)ctx.uc_mcontext.gregs[REG_RSP],
	                 ips, &n, depth))
		n = unwind(&ctx, ips, depth);
	shim_self.internal--;
	n = show_as_strace(ips, n);
	if (n <= 0)
		return 0;
	uint64_t h = hash_ips(ips, n);
	uint32_t id = 0;
	lock_table();
	for (uint32_t i = 0; i < SLOTS; i++) {
		struct slot *s = &table[(h + i) % SLOTS];
		if (s->hash == h && s->depth == (uint32_t)n && memcmp(s->ips, ips, n * sizeof *ips) == 0) {
			id = s->id;
			break;
		}
		if (!s->hash) {
			s->ips = arena_alloc(n * sizeof *ips);
			if (!s->ips)
				break;
			memcpy(s->ips, ips, n * sizeof *ips);
			s->depth = (uint32_t)n;
			s->id = id = ++next_id;
			s->hash = h;
			unlock_table();
			struct vmt_record rec = { .type = VMT_REC_STACK };
			rec.u.stack = (struct vmt_stack){ .id = id, .pid = shim.pid, .depth = (uint32_t)n,
			                                  .ips = s->ips };
			shim_write(&rec);
			return id;
		}
	}
	unlock_table();
	return id;
}
