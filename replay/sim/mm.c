/* mm.c - simulated address spaces: creation from a recorded map, fork,
 * iteration, page touches. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/sim/sim_int.h"

struct sim_vma *sim_vma_new(struct sim_mm *mm)
{
	struct sim_vma *v = calloc(1, sizeof *v);
	mm->cost.vma_alloc++;
	return v;
}

void sim_vma_free(struct sim_mm *mm, struct sim_vma *v)
{
	mm->cost.vma_free++;
	free(v);
}

void sim_rule_fixed(struct sim_mm *mm, const char *text)
{
	if (!mm->rule[0] && !mm->rule_fixed)
		mm->rule_fixed = text;
	else
		sim_rule(mm, "%s", text);
}

void sim_rule(struct sim_mm *mm, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (mm->rule_fixed) {
		snprintf(mm->rule, sizeof mm->rule, "%s", mm->rule_fixed);
		mm->rule_fixed = NULL;
	}
	n = strlen(mm->rule);
	if (n && n + 2 < sizeof mm->rule) {
		memcpy(mm->rule + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(mm->rule + n, sizeof mm->rule - n, fmt, ap);
	va_end(ap);
}

void sim_rule_force(struct sim_mm *mm, const char *fmt, ...)
{
	va_list ap;

	mm->rule_fixed = NULL;
	va_start(ap, fmt);
	vsnprintf(mm->rule, sizeof mm->rule, fmt, ap);
	va_end(ap);
}

int64_t sim_fail_by(struct sim_mm *mm, int err, const char *why, int rule)
{
	mm->cited |= 1u << rule;
	sim_rule_force(mm, "%s (%s %s)", why, sim_rules[rule].tag, sim_rules[rule].commit);
	return -err;
}

static bool is_special_name(const char *name)
{
	static const char *const names[] = { "[vdso]", "[vvar]", "[vvar_vclock]", "[vsyscall]", "[uprobes]" };

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (name && strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* vm_flags of a VMA found in a recorded map, as the kernel would have set
 * them when it created it (private writable memory is accounted). */
static uint64_t flags_of_map_vma(const struct vmt_vma *m)
{
	uint64_t f = VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC | VM_SOFTDIRTY;

	if (m->prot & VMT_PROT_READ)
		f |= VM_READ;
	if (m->prot & VMT_PROT_WRITE)
		f |= VM_WRITE;
	if (m->prot & VMT_PROT_EXEC)
		f |= VM_EXEC;
	if (m->flags & VMT_VMA_SHARED)
		f |= VM_SHARED | VM_MAYSHARE;
	else if (m->prot & VMT_PROT_WRITE)
		f |= VM_ACCOUNT;
	if (m->name && strcmp(m->name, "[stack]") == 0)
		f |= VM_GROWSDOWN;
	if (is_special_name(m->name))
		f = (f & VM_ACCESS_FLAGS) | VM_DONTEXPAND | VM_MAYREAD | VM_MAYEXEC;
	return f;
}

/* mmap_base: the top-down allocator starts just above the highest mapping
 * below the stack's reserved gap (the dynamic loader or the vDSO is the
 * first thing the kernel maps top-down from mmap_base).  The kernel's own
 * formula needs the random offset, which a map does not record. */
static uint64_t derive_mmap_base(struct sim_mm *mm, uint64_t stack_start)
{
	const uint64_t min_gap = 128ull << 20;
	uint64_t limit = stack_start ? stack_start - min_gap : SIM_TASK_SIZE - min_gap;
	uint64_t base = 0;

	for (size_t i = 0; i < mm->tree.count; i++) {
		const struct sim_vma *v = sim_tree_at(&mm->tree, i);
		if (v->end <= limit && v->end > base)
			base = v->end;
	}
	return base ? base : SIM_TASK_SIZE - min_gap;
}

struct sim_mm *sim_mm_new(const struct sim_profile *p, const struct vmt_map *map,
                          const struct vmt_host *host)
{
	return sim_mm_new_thp(p, map, host, SIM_THP_HOST);
}

struct sim_mm *sim_mm_new_thp(const struct sim_profile *p, const struct vmt_map *map,
                              const struct vmt_host *host, int thp)
{
	struct sim_mm *mm = calloc(1, sizeof *mm);
	uint64_t stack_start = 0;

	if (!mm || !p) {
		free(mm);
		return NULL;
	}
	mm->prof = p;
	mm->page = host && host->page_size ? host->page_size : SIM_PAGE;
	mm->mmap_min_addr = host && host->mmap_min_addr ? host->mmap_min_addr : 4096;
	mm->max_map_count = host && host->max_map_count ? host->max_map_count : 65530;
	mm->next_anon_vma = 1;
	mm->next_shmem = SIM_SHMEM_ID;
	mm->tree.seed = 0x9e3779b9u;
	struct sim_vma *prev = NULL;
	for (uint32_t i = 0; map && i < map->nvma; i++) {
		const struct vmt_vma *m = &map->vmas[i];
		struct sim_vma *v;

		struct sim_vma *o = sim_tree_find(&mm->tree, m->start);

		if (m->start >= SIM_TASK_SIZE && m->end > m->start) {
			mm->gate_vmas = 1;
			mm->gate_start = m->start;
			mm->gate_end = m->end;
			continue;
		}
		if (m->start >= m->end || m->end > SIM_TASK_SIZE || (o && o->start < m->end))
			continue;  /* gate VMA above TASK_SIZE, or overlapping garbage */
		if (!(v = sim_vma_new(mm)))
			break;
		v->start = m->start;
		v->end = m->end;
		v->flags = flags_of_map_vma(m);
		v->special = is_special_name(m->name);
		v->file_id = m->file_id;
		if (m->file_id)
			v->pgoff = m->offset / SIM_PAGE;
		else if (m->flags & VMT_VMA_SHARED)
			v->file_id = mm->next_shmem++;
		else
			v->pgoff = m->start / SIM_PAGE;
		/* private writable memory of a running image has been written */
		if ((v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE && !v->special)
			v->anon_vma = mm->next_anon_vma++;
		/* apart from an equal private neighbour in the recording: it
		 * differed in what a map does not show, as a RELRO part does
		 * (written, charged while writable); the kernel back end's
		 * stand-ins are made the same way (keep_apart) */
		if (prev && prev->end == v->start && !v->special && !prev->special &&
		    !(v->flags & VM_SHARED) && ((prev->flags ^ v->flags) & ~VM_SOFTDIRTY) == 0 &&
		    prev->file_id == v->file_id && prev->pgoff + vma_pages(prev) == v->pgoff &&
		    (!prev->anon_vma || !v->anon_vma)) {
			v->flags |= VM_ACCOUNT;
			if (!v->anon_vma)
				v->anon_vma = mm->next_anon_vma++;
		}
		prev = v;
		if (m->name && strcmp(m->name, "[stack]") == 0)
			stack_start = m->start;
		if (m->name && strcmp(m->name, "[heap]") == 0) {
			mm->start_brk = m->start;
			mm->brk = m->end;
		}
		sim_tree_insert(&mm->tree, v);
	}
	mm->mmap_base = derive_mmap_base(mm, stack_start);
	{
		char c[64], c1[64] = "", m[64] = "";
		sim_rule_cite(R_B1_BRK_EXPAND, c, sizeof c);
		/* what the expansion costs in this release (ops_map.c brk_grow) */
		mm->brk_prealloc = sim_has(p, R_C1_BRK_PREALLOC);
		mm->brk_rewalks = sim_has(p, R_M1_MERGE_REWRITE) && !sim_has(p, R_M2_EXPAND_ONLY) ? 2 : 0;
		if (sim_has(p, R_C1_BRK_PREALLOC))
			snprintf(c1, sizeof c1, "; preallocates (%s)", sim_rule_cite(R_C1_BRK_PREALLOC, m, sizeof m));
		if (sim_has(p, R_M2_EXPAND_ONLY))
			sim_rule_cite(R_M2_EXPAND_ONLY, m, sizeof m);
		else if (sim_has(p, R_M1_MERGE_REWRITE))
			sim_rule_cite(R_M1_MERGE_REWRITE, m, sizeof m);
		else
			m[0] = 0;
		snprintf(mm->brk_msg[0], sizeof mm->brk_msg[0], "brk expanded the heap VMA (%s)%s%s%s%s", c, c1,
		         *m ? (sim_has(p, R_M2_EXPAND_ONLY) ? "; expand-only, no re-walk (" : "; re-walks prev and next (") : "",
		         m, *m ? ")" : "");
		snprintf(mm->brk_msg[1], sizeof mm->brk_msg[1], "brk shrink unmaps the released pages");
		/* the rules brk_msg[0] cites */
		mm->brk_cited = 1u << R_B1_BRK_EXPAND;
		if (sim_has(p, R_C1_BRK_PREALLOC))
			mm->brk_cited |= 1u << R_C1_BRK_PREALLOC;
		if (sim_has(p, R_M2_EXPAND_ONLY))
			mm->brk_cited |= 1u << R_M2_EXPAND_ONLY;
		else if (sim_has(p, R_M1_MERGE_REWRITE))
			mm->brk_cited |= 1u << R_M1_MERGE_REWRITE;
		mm->seal_precheck = sim_has(p, R_X7_SEAL_PRECHECK);
	}
	sim_mm_set_thp(mm, thp);
	if (thp == SIM_THP_HOST) {   /* this machine's folio sizes too */
		uint32_t always, madvise;
		sim_mthp_host(&always, &madvise);
		sim_mm_set_mthp(mm, always, madvise);
	}
	sim_cost_reset(mm);
	return mm;
}

void sim_mm_set_brk(struct sim_mm *mm, uint64_t start_brk, uint64_t brk)
{
	mm->start_brk = start_brk;
	mm->brk = brk;
}

void sim_mm_set_mmap_base(struct sim_mm *mm, uint64_t base)
{
	mm->mmap_base = base;
}

uint64_t sim_mm_mmap_base(const struct sim_mm *mm)
{
	return mm->mmap_base;
}

void sim_mm_set_cap_rawio(struct sim_mm *mm, int has)
{
	mm->cap_rawio = has;
}

void sim_mm_set_faulted(struct sim_mm *mm, uint64_t addr, int faulted)
{
	struct sim_vma *v = sim_tree_find(&mm->tree, addr);

	if (!v || v->start > addr)
		return;
	if (!faulted)
		v->anon_vma = 0, v->fork_child = false;
	else if (!v->anon_vma)
		v->anon_vma = mm->next_anon_vma++;
}

struct sim_mm *sim_mm_fork(const struct sim_mm *parent)
{
	struct sim_mm *mm = malloc(sizeof *mm);

	if (!mm)
		return NULL;
	*mm = *parent;
	mm->grown = NULL;   /* the parent's VMAs are not the child's */
	memset(&mm->tree, 0, sizeof mm->tree);
	memset(&mm->cost, 0, sizeof mm->cost);   /* the child pays for the copy */
	memset(&mm->kept_cost, 0, sizeof mm->kept_cost);   /* kept with its first event */
	mm->cited = 0;
	mm->cost.mm_copy = 1;
	mm->runs = NULL;   /* the copied VMAs' pages come below */
	mm->nruns = mm->caprun = 0;
	mm->tree.seed = parent->tree.seed ^ 0x5bd1e995u;
	mm->def_flags = parent->def_flags & VM_NOHUGEPAGE;
	if (parent->mdwe_no_inherit)
		mm->mdwe = mm->mdwe_no_inherit = false;   /* W1: mmf_init_flags */
	for (size_t i = 0; i < parent->tree.count; i++) {
		const struct sim_vma *pv = sim_tree_at(&parent->tree, i);
		struct sim_vma *v;

		if (pv->flags & VM_DONTCOPY)
			continue;
		if (!(v = sim_vma_new(mm))) {
			sim_mm_free(mm);
			return NULL;
		}
		*v = *pv;
		v->flags &= ~VM_LOCKED_MASK;
		if (pv->anon_vma && !(pv->flags & VM_WIPEONFORK)) {
			/* copy_page_range: only VMAs with an anon_vma (the
			 * others fault their pages in again) */
			sim_res_fork(mm, parent, pv);
			/* anon_vma_fork: a fresh anon_vma chained to the parent's */
			v->anon_vma = mm->next_anon_vma++;
			v->fork_child = true;
		} else {
			v->anon_vma = 0;
			v->fork_child = false;
		}
		sim_tree_insert(&mm->tree, v);
	}
	return mm;
}

void sim_mm_free(struct sim_mm *mm)
{
	if (!mm)
		return;
	sim_tree_free(&mm->tree);
	sim_res_free(mm);
	free(mm);
}

/* as /proc/PID/maps counts them: with the gate VMA of the map */
size_t sim_vma_count(const struct sim_mm *mm)
{
	return mm ? mm->tree.count + mm->gate_vmas : 0;
}

static bool anon_compatible(const struct sim_vma *a, const struct sim_vma *b)
{
	return a->end == b->start && a->file_id == b->file_id &&
	       !((a->flags ^ b->flags) & ~(VM_ACCESS_FLAGS | VM_SOFTDIRTY)) &&
	       b->pgoff == a->pgoff + vma_pages(a);
}

/* anon_vma_prepare: reuse the anon_vma of a compatible neighbour that is
 * not a fork child (find_mergeable_anon_vma, next first), else a new one */
void sim_fault(struct sim_mm *mm, struct sim_vma *v)
{
	struct sim_vma *n = sim_tree_next(&mm->tree, v), *p = sim_tree_prev(&mm->tree, v);

	if (v->anon_vma)
		return;
	mm->cost.anon_vma++;
	if (n && n->anon_vma && !n->fork_child && anon_compatible(v, n))
		v->anon_vma = n->anon_vma;
	else if (p && p->anon_vma && !p->fork_child && anon_compatible(p, v))
		v->anon_vma = p->anon_vma;
	else
		v->anon_vma = mm->next_anon_vma++;
	v->fork_child = false;
}

/* A PMD-aligned 2 MiB block inside v meets [lo, hi): a read fault there
 * (THP madvise mode, VM_HUGEPAGE) goes to do_huge_pmd_anonymous_page, which
 * prepares an anon_vma before it maps the huge zero page. */
static bool thp_read_fault(const struct sim_vma *v, uint64_t lo, uint64_t hi)
{
	uint64_t b0 = (v->start + SIM_PMD - 1) & ~(SIM_PMD - 1), b1 = v->end & ~(SIM_PMD - 1);

	if (!(v->flags & VM_HUGEPAGE) || b0 >= b1)
		return false;
	lo = lo > b0 ? lo : b0;
	hi = hi < b1 ? hi : b1;
	return lo < hi;
}

/* Populating [lo, hi) (MAP_POPULATE, mlock) of private file memory gives
 * it an anon_vma only when it is written.  Private anonymous memory: when
 * it is writable; read-only but accessible, before Z1 always (observed on
 * the 6.18 build the release profiles were checked on), with Z1 only where
 * a huge page fault prepares one (reads map the zero page). */
static bool populate_faults(const struct sim_mm *mm, const struct sim_vma *v, uint64_t lo, uint64_t hi)
{
	if (v->special || (v->flags & VM_SHARED))
		return false;
	if (!vma_is_anon(v) || (v->flags & VM_WRITE))
		return v->flags & VM_WRITE;
	if (!(v->flags & VM_ACCESS_FLAGS))
		return false;
	return !sim_has(mm->prof, R_Z1_RO_POPULATE) || thp_read_fault(v, lo, hi);
}

void sim_populate(struct sim_mm *mm, struct sim_vma *v, uint64_t lo, uint64_t hi)
{
	char cite[64];

	if (populate_faults(mm, v, lo, hi))
		sim_fault(mm, v);
	if (!v->special && (v->flags & VM_ACCESS_FLAGS))
		sim_res_populate(mm, v, lo, hi);
	if (!v->anon_vma && vma_is_anon(v) && !(v->flags & (VM_SHARED | VM_WRITE)) &&
	    (v->flags & VM_ACCESS_FLAGS))
		sim_rule(mm, "populated read-only: zero page, no anon_vma (%s)",
		         sim_cite(mm, R_Z1_RO_POPULATE, cite, sizeof cite));
}

/* A touch below a VM_GROWSDOWN VMA grows it (expand_downwards): up to
 * RLIMIT_STACK (8 MiB assumed) and not within the guard gap of the VMA
 * before it. */
static bool grow_stack(struct sim_mm *mm, struct sim_vma *v, uint64_t addr)
{
	struct sim_vma *p = sim_tree_prev(&mm->tree, v);

	addr &= ~(SIM_PAGE - 1);
	if (!(v->flags & VM_GROWSDOWN) || v->end - addr > (8ull << 20))
		return false;
	if (p && !(p->flags & VM_GROWSDOWN) && (p->flags & VM_ACCESS_FLAGS) && addr - p->end < SIM_GUARD_GAP)
		return false;
	v->pgoff -= (v->start - addr) / SIM_PAGE;
	v->start = addr;
	sim_tree_changed(&mm->tree, v);
	return true;
}

/* Write-faultable (private and writable) VMAs get an anon_vma when a page
 * of theirs is found resident.  The record comes from the trace: its start
 * need not be page-aligned (the page holding it counts) and its pages may
 * run past the address space; every step moves forward. */
void sim_touch(struct sim_mm *mm, const struct vmt_residency *res)
{
	if (!mm || !res || !res->bits)
		return;
	uint64_t base = res->start & ~(SIM_PAGE - 1);
	uint64_t last = base >= SIM_TASK_SIZE ? 0 : (SIM_TASK_SIZE - base) / SIM_PAGE;
	uint64_t n = res->npages < last ? res->npages : last;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t a = base + i * SIM_PAGE;
		struct sim_vma *v;

		if (!(res->bits[i / 8] & (1u << (i % 8))))
			continue;
		v = sim_tree_find(&mm->tree, a);
		if (!v)
			break;   /* nothing at or above a */
		if (v->start > a && !grow_stack(mm, v, a)) {
			/* on to the VMA above the hole */
			uint64_t to = (v->start - base) / SIM_PAGE;
			if (to > i)
				i = to - 1;
			continue;
		}
		if ((v->flags & (VM_WRITE | VM_SHARED)) == VM_WRITE && !v->special)
			sim_fault(mm, v);
		/* skip the rest of this VMA (its end is page-aligned) */
		uint64_t past = (v->end - base) / SIM_PAGE;
		sim_res_touch(mm, v, a, past < n ? v->end : base + n * SIM_PAGE, base, res->bits);
		if (past > i + 1)
			i = past - 1;
	}
	sim_cost_keep(mm, res->seq);
}
