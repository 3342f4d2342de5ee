/* merge.c - when two VMAs may become one (mm/vma.c's is_mergeable_vma and
 * is_mergeable_anon_vma as each release has them), and the three shapes of
 * change built on it: map a new range, unmap a range, modify a range. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "replay/sim/sim_int.h"

/* what is about to sit next to a target VMA */
struct src {
	uint64_t flags;
	uint32_t file_id, anon_vma;
	bool fork_child;   /* an existing VMA (vma_modify), or mremap's copy of one (M5) */
	bool special;
	uint32_t policy, name, uffd;
};

static bool anon_ok(const struct sim_mm *mm, const struct sim_vma *tgt, const struct src *s)
{
	if (sim_has(mm->prof, R_M4_ANON_MERGE)) {
		if (!tgt->anon_vma && s->anon_vma)
			return !s->fork_child;
		if (tgt->anon_vma && !s->anon_vma)
			return !tgt->fork_child;
		return tgt->anon_vma == s->anon_vma;
	}
	/* before 6.16: one side without anon_vma is fine only if the target
	 * has a singular anon_vma chain (faulted, not a fork child) */
	if ((!s->anon_vma || !tgt->anon_vma) && tgt->anon_vma && !tgt->fork_child)
		return true;
	return s->anon_vma == tgt->anon_vma;
}

/* NULL when tgt and s may merge (pgoff contiguity given as pgoff_ok), else
 * the reason, written into buf */
static const char *why_not(const struct sim_mm *mm, const struct sim_vma *tgt, const struct src *s,
                           bool pgoff_ok, char *buf, size_t n)
{
	uint64_t diff = (tgt->flags ^ s->flags) & ~VM_SOFTDIRTY;
	char c[64];

	if (tgt->special || s->special || ((tgt->flags | s->flags) & VM_SPECIAL))
		return "VM_SPECIAL never merges";
	if (diff) {
		uint64_t bit = diff & -diff;
		const char *why = "";

		if (bit == VM_NOHUGEPAGE && sim_has(mm->prof, R_T4_STACK_NOHUGE))
			why = " (MAP_STACK";
		else if (bit == VM_SEALED)
			why = " (mseal";
		if (*why)
			snprintf(buf, n, "%s differs%s, %s)", sim_flag_name(bit), why,
			         sim_rule_cite(bit == VM_SEALED ? R_X1_MSEAL : R_T4_STACK_NOHUGE, c, sizeof c));
		else
			snprintf(buf, n, "%s differs", sim_flag_name(bit));
		return buf;
	}
	if (tgt->file_id != s->file_id)
		return "different file";
	if (tgt->policy != s->policy)
		return "mempolicy differs (mpol_equal)";
	if (tgt->name != s->name)
		return "anon name differs (anon_vma_name_eq)";
	if (tgt->uffd != s->uffd)
		return "userfaultfd context differs (is_mergeable_vm_userfaultfd_ctx)";
	if (!pgoff_ok)
		return "pgoff not contiguous";
	if (!anon_ok(mm, tgt, s)) {
		bool m4 = sim_has(mm->prof, R_M4_ANON_MERGE);
		if (m4 && !tgt->anon_vma && s->fork_child)
			snprintf(buf, n, "anon_vma incompatible (a copied fork child; %s)",
			         sim_rule_cite(R_M5_COPIED_FORK_CHILD, c, sizeof c));
		else if (m4)
			snprintf(buf, n, "anon_vma incompatible (fork child; %s)",
			         sim_rule_cite(R_M4_ANON_MERGE, c, sizeof c));
		else if (!tgt->anon_vma || !s->anon_vma)
			snprintf(buf, n, "anon_vma incompatible (unfaulted next to faulted or fork child; "
			         "allowed from %s)", sim_rule_cite(R_M4_ANON_MERGE, c, sizeof c));
		else
			snprintf(buf, n, "anon_vma differs");
		return buf;
	}
	return NULL;
}

static bool both_anon_ok(const struct sim_vma *p, const struct sim_vma *n)
{
	return !p->anon_vma || !n->anon_vma || p->anon_vma == n->anon_vma;
}

static void take_anon(struct sim_vma *dst, uint32_t av, bool fork_child)
{
	if (!dst->anon_vma && av) {
		dst->anon_vma = av;
		dst->fork_child = fork_child;
	}
}

static struct sim_vma *adjacent_prev(struct sim_mm *mm, uint64_t start)
{
	struct sim_vma *p = start ? sim_tree_find(&mm->tree, start - 1) : NULL;
	return p && p->end == start ? p : NULL;
}

static struct sim_vma *adjacent_next(struct sim_mm *mm, uint64_t end)
{
	struct sim_vma *n = sim_tree_find(&mm->tree, end);
	return n && n->start == end ? n : NULL;
}

struct sim_vma *sim_map_range(struct sim_mm *mm, const struct sim_newrange *nr, int *how)
{
	struct sim_vma *prev = adjacent_prev(mm, nr->start), *next = adjacent_next(mm, nr->end), *v;
	/* a new range has no source VMA whose fork-child state counts, but
	 * mremap's copy does from M5 on (vmg->copied_from) */
	struct src s = { nr->flags, nr->file_id, nr->anon_vma,
	                 nr->copied && nr->fork_child && sim_has(mm->prof, R_M5_COPIED_FORK_CHILD), nr->special,
	                 nr->policy, nr->name, nr->uffd };
	uint64_t pages = (nr->end - nr->start) / SIM_PAGE;
	const char *wp = NULL, *wn = NULL;
	char bp[120], bn[120], c[64];

	if (prev)
		wp = prev == nr->apart || nr->alone ? nr->apart_why
		   : why_not(mm, prev, &s, prev->pgoff + vma_pages(prev) == nr->pgoff, bp, sizeof bp);
	if (next)
		wn = next == nr->apart || nr->alone ? nr->apart_why
		   : why_not(mm, next, &s, next->pgoff == nr->pgoff + pages, bn, sizeof bn);
	/* 6.1-6.11 mmap_region took next first, then prev only if it could
	 * merge with next's anon_vma (6.12's vma_merge_new_range, M1, tries
	 * prev first: then next is dropped) */
	if (prev && next && !wp && !wn && !both_anon_ok(prev, next)) {
		if (nr->next_first) {
			snprintf(bp, sizeof bp, "anon_vma differs from next's, tried first (mmap_region before %s)",
			         sim_cite(mm, R_M1_MERGE_REWRITE, c, sizeof c));
			wp = bp;
		} else {
			wn = "prev and next anon_vma differ";
		}
	}
	if (prev && !wp && next && !wn) {
		prev->end = next->end;
		take_anon(prev, nr->anon_vma, nr->fork_child);
		take_anon(prev, next->anon_vma, next->fork_child);
		sim_tree_erase(&mm->tree, next);
		sim_vma_free(mm, next);
		sim_tree_changed(&mm->tree, prev);
		sim_rule(mm, "merged with prev and next");
		mm->how = *how = VR_MERGE_BOTH;
		return prev;
	}
	if (prev && !wp) {
		prev->end = nr->end;
		take_anon(prev, nr->anon_vma, nr->fork_child);
		sim_tree_changed(&mm->tree, prev);
		if (next)
			sim_rule(mm, "merged with prev; not next: %s", wn);
		else
			sim_rule(mm, "merged with prev");
		mm->how = *how = VR_EXPAND_PREV;
		return prev;
	}
	if (next && !wn) {
		next->start = nr->start;
		next->pgoff = nr->pgoff;
		take_anon(next, nr->anon_vma, nr->fork_child);
		sim_tree_changed(&mm->tree, next);
		if (prev)
			sim_rule(mm, "merged with next; not prev: %s", wp);
		else
			sim_rule(mm, "merged with next");
		mm->how = *how = VR_EXPAND_NEXT;
		return next;
	}
	if (!(v = sim_vma_new(mm)))
		return NULL;
	v->start = nr->start;
	v->end = nr->end;
	v->pgoff = nr->pgoff;
	v->flags = nr->flags;
	v->file_id = nr->file_id;
	v->anon_vma = nr->anon_vma;
	v->fork_child = nr->fork_child;
	v->special = nr->special;
	v->policy = nr->policy;
	v->name = nr->name;
	v->uffd = nr->uffd;
	sim_tree_insert(&mm->tree, v);
	if (prev && next)
		sim_rule(mm, "no merge: prev: %s; next: %s", wp, wn);
	else if (prev)
		sim_rule(mm, "no merge with prev: %s", wp);
	else if (next)
		sim_rule(mm, "no merge with next: %s", wn);
	else
		sim_rule(mm, "no adjacent VMA");
	mm->how = *how = VR_NEW;
	return v;
}

struct sim_vma *sim_split(struct sim_mm *mm, struct sim_vma *v, uint64_t addr)
{
	struct sim_vma *u = sim_vma_new(mm);

	if (!u)
		return NULL;
	*u = *v;
	u->start = addr;
	u->pgoff = v->pgoff + (addr - v->start) / SIM_PAGE;
	v->end = addr;
	sim_tree_changed(&mm->tree, v);
	sim_tree_insert(&mm->tree, u);
	return u;
}

/* do_vmi_munmap: split the edges, then remove; a sealed VMA stops it
 * after the splits made so far (6.12 on; 6.10/6.11 refuse up front) */
int sim_unmap_range(struct sim_mm *mm, uint64_t start, uint64_t end, bool *changed)
{
	struct sim_vma *v = sim_tree_find(&mm->tree, start), *x;
	char cite[64];

	*changed = false;
	if (!v || v->start >= end)
		return 0;
	if (mm->seal_precheck)   /* X7 */
		for (x = v; x && x->start < end; x = sim_tree_next(&mm->tree, x))
			if (x->flags & VM_SEALED)
				goto sealed;
	if (v->start < start) {
		if (end < v->end && mm->tree.count >= mm->max_map_count) {
			sim_rule(mm, "split refused: vm.max_map_count (%llu) reached",
			         (unsigned long long)mm->max_map_count);
			return -ENOMEM;
		}
		if (v->flags & VM_SEALED)
			goto sealed;
		if (!(v = sim_split(mm, v, start)))
			return sim_fail(mm, ENOMEM, "out of memory in the simulator");
		*changed = true;
	}
	for (x = v; x && x->start < end; x = sim_tree_next(&mm->tree, x)) {
		if (x->flags & VM_SEALED)
			goto sealed;
		if (x->end > end) {
			if (!sim_split(mm, x, end))
				return sim_fail(mm, ENOMEM, "out of memory in the simulator");
			*changed = true;
		}
	}
	while (v && v->start < end) {
		struct sim_vma *nx = sim_tree_next(&mm->tree, v);
		sim_tree_erase(&mm->tree, v);
		sim_vma_free(mm, v);
		v = nx;
		*changed = true;
	}
	sim_res_drop(mm, start, end);
	return 0;
sealed:
	sim_rule(mm, "sealed VMA in the range (%s)", sim_cite(mm, R_X1_MSEAL, cite, sizeof cite));
	return -EPERM;
}

static int split_checked(struct sim_mm *mm, struct sim_vma *v, uint64_t addr, struct sim_vma **upper)
{
	if (mm->tree.count >= mm->max_map_count) {
		sim_rule(mm, "split refused: vm.max_map_count (%llu) reached",
		         (unsigned long long)mm->max_map_count);
		return -ENOMEM;
	}
	*upper = sim_split(mm, v, addr);
	return *upper ? 0 : -ENOMEM;
}

struct sim_vma *sim_modify(struct sim_mm *mm, struct sim_vma *v, uint64_t start, uint64_t end,
                           uint64_t nf, int *err)
{
	return sim_modify_attr(mm, v, start, end, nf, v->policy, v->name, v->uffd, err);
}

struct sim_vma *sim_modify_attr(struct sim_mm *mm, struct sim_vma *v, uint64_t start, uint64_t end,
                                uint64_t nf, uint32_t policy, uint32_t name, uint32_t uffd, int *err)
{
	struct sim_vma *prev = start == v->start ? adjacent_prev(mm, start) : NULL;
	struct sim_vma *next = end == v->end ? adjacent_next(mm, end) : NULL;
	struct src s = { nf, v->file_id, v->anon_vma, v->fork_child, v->special, policy, name, uffd };
	uint64_t pg = v->pgoff + (start - v->start) / SIM_PAGE;
	const char *wp = NULL, *wn = NULL;
	char bp[120], bn[120];
	struct sim_vma *u;

	*err = 0;
	if (nf == v->flags && policy == v->policy && name == v->name && uffd == v->uffd)
		return v;
	if (prev)
		wp = why_not(mm, prev, &s, prev->pgoff + vma_pages(prev) == pg, bp, sizeof bp);
	if (next)
		wn = why_not(mm, next, &s, next->pgoff == pg + (end - start) / SIM_PAGE, bn, sizeof bn);
	if (prev && next && !wp && !wn && !both_anon_ok(prev, next))
		wn = "prev and next anon_vma differ";
	if (prev && !wp && next && !wn) {          /* whole v, both sides */
		prev->end = next->end;
		take_anon(prev, v->anon_vma, v->fork_child);
		take_anon(prev, next->anon_vma, next->fork_child);
		sim_tree_erase(&mm->tree, v);
		sim_tree_erase(&mm->tree, next);
		sim_vma_free(mm, v);
		sim_vma_free(mm, next);
		sim_tree_changed(&mm->tree, prev);
		sim_rule(mm, "merged with prev and next");
		return prev;
	}
	if (prev && !wp) {
		take_anon(prev, v->anon_vma, v->fork_child);
		prev->end = end;
		if (end == v->end) {
			sim_tree_erase(&mm->tree, v);
			sim_vma_free(mm, v);
		} else {
			v->pgoff += (end - v->start) / SIM_PAGE;
			v->start = end;
			sim_tree_changed(&mm->tree, v);
		}
		sim_tree_changed(&mm->tree, prev);
		sim_rule(mm, "merged with prev");
		return prev;
	}
	if (next && !wn) {
		take_anon(next, v->anon_vma, v->fork_child);
		/* v leaves (or shrinks) first: the tree is keyed by start */
		if (start == v->start) {
			sim_tree_erase(&mm->tree, v);
			sim_vma_free(mm, v);
		} else {
			v->end = start;
			sim_tree_changed(&mm->tree, v);
		}
		next->start = start;
		next->pgoff = pg;
		sim_tree_changed(&mm->tree, next);
		sim_rule(mm, "merged with next");
		return next;
	}
	if (prev)
		sim_rule(mm, "no merge with prev: %s", wp);
	if (next)
		sim_rule(mm, "no merge with next: %s", wn);
	if (start > v->start) {
		if ((*err = split_checked(mm, v, start, &u)))
			return NULL;
		v = u;
	}
	if (end < v->end && (*err = split_checked(mm, v, end, &u)))
		return NULL;
	v->flags = nf;
	v->policy = policy;
	v->name = name;
	v->uffd = uffd;
	return v;
}
