/* gen.c - the random operation generator (see gen.h) */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "replay/sim/gen.h"
#include "replay/sim/vm_flags.h"

#define PG ((unsigned long long)VMT_PAGE)
#define MB (1ull << 20)

static uint64_t rnd(struct sim_gen *g)
{
	uint64_t x = g->rng;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return g->rng = x;
}

static uint64_t pick(struct sim_gen *g, uint64_t n)
{
	return n ? rnd(g) % n : 0;
}

void sim_gen_init(struct sim_gen *g, uint64_t seed, uint64_t base, uint64_t size)
{
	memset(g, 0, sizeof *g);
	g->rng = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	g->base = base;
	g->size = size;
	for (int i = 0; i < 4; i++)
		rnd(g);
}

static uint64_t any_len(struct sim_gen *g)
{
	static const uint64_t lens[] = {
		PG, PG, 2 * PG, 3 * PG, 16 * PG, 16 * PG, 33 * PG, MB,
		2 * MB, 2 * MB, 4 * MB, 2 * MB + PG, 4 * MB + PG, 8 * MB + PG,
	};
	return lens[pick(g, sizeof lens / sizeof lens[0])];
}

static uint64_t any_prot(struct sim_gen *g)
{
	static const uint64_t prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
		PROT_READ, PROT_NONE, PROT_READ | PROT_EXEC,
	};
	return prots[pick(g, sizeof prots / sizeof prots[0])];
}

/* window VMAs: pick one at random; 0 if none */
static int window_vma(struct sim_gen *g, const struct sim_mm *mm, struct sim_vma_view *out)
{
	size_t n = sim_vma_count(mm), cnt = 0, want;
	struct sim_vma_view v;

	for (size_t i = 0; i < n; i++)
		if (!sim_vma_at(mm, i, &v) && v.start >= g->base && v.end <= g->base + g->size)
			cnt++;
	if (!cnt)
		return 0;
	want = pick(g, cnt);
	for (size_t i = 0; i < n; i++)
		if (!sim_vma_at(mm, i, &v) && v.start >= g->base && v.end <= g->base + g->size && !want--) {
			*out = v;
			return 1;
		}
	return 0;
}

/* a sub-range of v: whole, head, tail, middle, or running past its end */
static void sub_range(struct sim_gen *g, const struct sim_vma_view *v, uint64_t *s, uint64_t *len)
{
	uint64_t pages = (v->end - v->start) / PG, a, b;

	switch (pick(g, 5)) {
	case 0: a = 0; b = pages; break;
	case 1: a = 0; b = 1 + pick(g, pages); break;
	case 2: a = pick(g, pages); b = pages; break;
	case 3: a = pick(g, pages); b = a + 1 + pick(g, pages - a); break;
	default: a = pick(g, pages); b = pages + 1 + pick(g, 4); break;
	}
	*s = v->start + a * PG;
	*len = (b - a) * PG;
}

/* a window offset for a fixed mapping of len: next to a VMA or anywhere */
static uint64_t fixed_off(struct sim_gen *g, const struct sim_mm *mm, uint64_t len)
{
	struct sim_vma_view v;
	uint64_t off;

	if (pick(g, 3) && window_vma(g, mm, &v)) {
		off = pick(g, 2) ? v.end - g->base : v.start - g->base - len;
		if (off <= g->size - len)
			return off;
	}
	return pick(g, (g->size - len) / PG) * PG;
}

static void set(struct sim_gen_op *op, uint16_t sys, uint8_t rel, uint64_t a0, uint64_t a1,
                uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
	memset(op, 0, sizeof *op);
	op->sys = sys;
	op->rel = rel;
	op->args[0] = a0; op->args[1] = a1; op->args[2] = a2;
	op->args[3] = a3; op->args[4] = a4; op->args[5] = a5;
}

static void gen_mmap(struct sim_gen *g, const struct sim_mm *mm, struct sim_gen_op *op)
{
	static const uint64_t extra[] = { 0, 0, 0, 0, MAP_STACK, MAP_STACK, MAP_GROWSDOWN,
	                                  MAP_NORESERVE, MAP_POPULATE };
	uint64_t len = any_len(g), flags = MAP_PRIVATE | MAP_ANONYMOUS | extra[pick(g, 9)];
	uint64_t prot = any_prot(g);

	switch (pick(g, 8)) {
	case 0: case 1: case 2:   /* anywhere */
		set(op, VMT_SYS_MMAP, 0, 0, len, prot, flags, (uint64_t)-1, 0);
		break;
	case 3: case 4: case 5:   /* fixed in the window */
		if (len > 4 * MB)
			len = 16 * PG;
		set(op, VMT_SYS_MMAP, 1, fixed_off(g, mm, len), len, prot,
		    flags | (pick(g, 6) ? MAP_FIXED : MAP_FIXED_NOREPLACE), (uint64_t)-1, 0);
		break;
	case 6:                   /* a hint */
		set(op, VMT_SYS_MMAP, 1, fixed_off(g, mm, len > 4 * MB ? 4 * MB : len), len, prot,
		    flags, (uint64_t)-1, 0);
		break;
	default: {                /* a file, or shared anonymous memory */
		uint64_t pages = 1 + pick(g, 32), off = pick(g, SIM_GEN_FILE_SIZE / PG - pages) * PG;
		uint64_t type = pick(g, 2) ? MAP_PRIVATE : MAP_SHARED;
		uint8_t file = (uint8_t)(1 + pick(g, SIM_GEN_FILES));
		uint64_t addr = pick(g, 2) ? fixed_off(g, mm, pages * PG) : 0;

		if (pick(g, 5) == 0) {
			set(op, VMT_SYS_MMAP, addr ? 1 : 0, addr, pages * PG, prot,
			    MAP_SHARED | MAP_ANONYMOUS | (addr ? MAP_FIXED : 0), (uint64_t)-1, 0);
			break;
		}
		set(op, VMT_SYS_MMAP, addr ? 1 : 0, addr, pages * PG, prot,
		    type | (addr ? MAP_FIXED : 0), 0, off);
		op->file = file;
	}
	}
}

static void gen_range_op(struct sim_gen *g, const struct sim_mm *mm, struct sim_gen_op *op, int which)
{
	static const int advs[] = {
		MADV_NORMAL, MADV_RANDOM, MADV_SEQUENTIAL, MADV_DONTFORK, MADV_DOFORK, MADV_WIPEONFORK,
		MADV_KEEPONFORK, MADV_DONTDUMP, MADV_DODUMP, MADV_HUGEPAGE, MADV_NOHUGEPAGE,
		MADV_WILLNEED, MADV_DONTNEED, MADV_POPULATE_WRITE,
	};
	struct sim_vma_view v;
	uint64_t s, len;

	if (!window_vma(g, mm, &v)) {
		gen_mmap(g, mm, op);
		return;
	}
	sub_range(g, &v, &s, &len);
	s -= g->base;
	if (s + len > g->size)       /* never past the window: the runner's own maps are above */
		len = g->size - s;
	switch (which) {
	case 0:
		set(op, VMT_SYS_MUNMAP, 1, s, len, 0, 0, 0, 0);
		break;
	case 1:
		set(op, VMT_SYS_MPROTECT, 1, s, len, any_prot(g), 0, 0, 0);
		break;
	case 2: {
		int adv = advs[pick(g, sizeof advs / sizeof advs[0])];
		/* populate only what can be written without a fault error */
		if (adv == MADV_POPULATE_WRITE && (v.vm_flags & (VM_WRITE | VM_READ)) != (VM_WRITE | VM_READ))
			adv = MADV_WILLNEED;
		if (adv == MADV_POPULATE_WRITE)
			len = len > v.end - g->base - s ? v.end - g->base - s : len;
		set(op, VMT_SYS_MADVISE, 1, s, len, (uint64_t)adv, 0, 0, 0);
		break;
	}
	case 3: {
		static const uint16_t locks[] = { VMT_SYS_MLOCK, VMT_SYS_MLOCK2, VMT_SYS_MUNLOCK, VMT_SYS_MUNLOCK };
		uint16_t sys = locks[pick(g, 4)];
		set(op, sys, 1, s, len, sys == VMT_SYS_MLOCK2 ? pick(g, 2) : 0, 0, 0, 0);
		break;
	}
	case 4: {   /* mremap: shrink, grow, move */
		uint64_t inside = v.end - g->base - s, ol = len > inside ? inside : len;
		uint64_t nl = pick(g, 3) ? ol + PG * (1 + pick(g, 16)) : (ol > PG ? ol - PG : ol);
		/* populating past the end of a file faults (SIGBUS): not modelled */
		if (v.file_id || (v.vm_flags & VM_SHARED))
			nl = ol;
		if (pick(g, 2))
			set(op, VMT_SYS_MREMAP, 1, s, ol, nl, MREMAP_MAYMOVE, 0, 0);
		else
			set(op, VMT_SYS_MREMAP, 1 | 16, s, ol, nl, MREMAP_MAYMOVE | MREMAP_FIXED,
			    fixed_off(g, mm, nl), 0);
		break;
	}
	case 5: {   /* touch a writable private VMA */
		uint64_t inside = v.end - g->base - s;
		if ((v.vm_flags & (VM_WRITE | VM_SHARED)) != VM_WRITE && !(v.vm_flags & VM_SHARED && v.vm_flags & VM_WRITE)) {
			set(op, VMT_SYS_MADVISE, 1, s, len, MADV_WILLNEED, 0, 0, 0);
			break;
		}
		set(op, SIM_GEN_TOUCH, 1, s, len > inside ? inside : len, 0, 0, 0, 0);
		break;
	}
	default:
		set(op, VMT_SYS_MSEAL, 1, s, len, 0, 0, 0, 0);
	}
}

void sim_gen_next(struct sim_gen *g, const struct sim_mm *mm, struct sim_gen_op *op)
{
	/* weights: mmap, munmap, mprotect, madvise, mlock, mremap, touch, fork, brk, mseal */
	static const int weights[] = { 9, 4, 6, 4, 2, 3, 4, 1, 2, 1 };
	int total = 0, r, k;

	for (k = 0; k < 10; k++)
		total += weights[k];
	r = (int)pick(g, (uint64_t)total);
	for (k = 0; r >= weights[k]; k++)
		r -= weights[k];
	switch (k) {
	case 0: gen_mmap(g, mm, op); break;
	case 1: gen_range_op(g, mm, op, 0); break;
	case 2: gen_range_op(g, mm, op, 1); break;
	case 3: gen_range_op(g, mm, op, 2); break;
	case 4: gen_range_op(g, mm, op, 3); break;
	case 5: gen_range_op(g, mm, op, 4); break;
	case 6: gen_range_op(g, mm, op, 5); break;
	case 7:
		if (g->forks++ < 2) {
			set(op, SIM_GEN_FORK, 0, 0, 0, 0, 0, 0, 0);
			break;
		}
		gen_mmap(g, mm, op);
		break;
	case 8:   /* brk relative to the current break: args[0] pages, sign in args[1] */
		set(op, VMT_SYS_BRK, 0, PG * (1 + pick(g, 8)), pick(g, 3) == 0, 0, 0, 0, 0);
		break;
	default:
		gen_range_op(g, mm, op, 6);
	}
}

void sim_gen_event(const struct sim_gen_op *op, uint64_t base, struct vmt_event *ev)
{
	memset(ev, 0, sizeof *ev);
	ev->sys = op->sys == SIM_GEN_TOUCH ? VMT_SYS_NONE : op->sys;
	for (int i = 0; i < 6; i++)
		ev->args[i] = op->args[i] + ((op->rel >> i) & 1 ? base : 0);
	if (op->file) {
		ev->file_id = op->file;
		ev->args[4] = 2 + op->file;
	}
}

const char *sim_gen_format(const struct sim_gen_op *op, char *buf, size_t n)
{
	const char *name = op->sys == SIM_GEN_TOUCH ? "touch" : vmt_sys_name(op->sys);
	size_t k = (size_t)snprintf(buf, n, "%s(", name ? name : "?");
	int nargs = op->sys == SIM_GEN_TOUCH ? 2 : op->sys == VMT_SYS_BRK ? 2 : vmt_sys_nargs(op->sys);

	for (int i = 0; i < nargs && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s%#llx", i ? ", " : "",
		                      (op->rel >> i) & 1 ? "W+" : "", (unsigned long long)op->args[i]);
	if (k < n)
		snprintf(buf + k, n - k, ")%s", op->file ? " [file]" : "");
	return buf;
}
