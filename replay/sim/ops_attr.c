/* ops_attr.c - calls that give a range an attribute merges compare: a
 * mempolicy (mbind P1, set_mempolicy_home_node), an anon name
 * (PR_SET_VMA_ANON_NAME N1), userfaultfd's VM_UFFD_* flags (U1).  Each
 * goes through vma_modify (sim_modify_attr): split at the range's edges,
 * merge where the neighbours now agree.  Whether the machine had what the
 * call needs (NUMA nodes, CONFIG_ANON_VMA_NAME, a userfaultfd the
 * kernel accepted) is not in the trace but in its result: a call that
 * failed when recorded fails alike here, and the rule says so. */
#include <errno.h>
#include <string.h>
#include "replay/sim/sim_int.h"

#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_MODE_FLAGS 0xe000u   /* MPOL_F_STATIC_NODES | RELATIVE_NODES | NUMA_BALANCING */
#define UFFDIO_REGISTER_MODE_MISSING 1
#define UFFDIO_REGISTER_MODE_WP 2
#define UFFDIO_REGISTER_MODE_MINOR 4

/* the recorded failure of a call whose success depends on the machine */
static int64_t as_recorded(struct sim_mm *mm, const struct sim_call *c, const char *what, int rule)
{
	char cite[64];

	sim_rule(mm, "%s failed when recorded: the machine decides, it fails alike (%s)", what,
	         sim_cite(mm, rule, cite, sizeof cite));
	return -c->err;
}

/* [start, end) must be mapped without a hole: *v the first VMA */
static int whole(struct sim_mm *mm, uint64_t start, uint64_t end, struct sim_vma **first)
{
	uint64_t a = start;

	*first = sim_tree_find(&mm->tree, start);
	for (struct sim_vma *v = *first; a < end; v = sim_tree_next(&mm->tree, v)) {
		if (!v || v->start > a)
			return -1;
		a = v->end;
	}
	return 0;
}

/* give every VMA part of [start, end) the flags (set, clear) and the
 * policy, name and userfaultfd context that pol, name and uffd (< 0:
 * kept) compute from the old ones */
static int64_t apply_range(struct sim_mm *mm, uint64_t start, uint64_t end, uint64_t set, uint64_t clear,
                           uint32_t (*pol)(uint32_t, uint64_t), uint64_t arg, int64_t name, int64_t uffd,
                           bool *changed)
{
	struct sim_vma *v = sim_tree_find(&mm->tree, start);
	uint64_t cur = start;
	int err = 0;

	while (v && cur < end && v->start < end) {
		uint64_t s = v->start > cur ? v->start : cur, e = v->end < end ? v->end : end;
		uint64_t nf = (v->flags & ~clear) | set;
		uint32_t np = pol ? pol(v->policy, arg) : v->policy, nn = name < 0 ? v->name : (uint32_t)name;
		uint32_t nu = uffd < 0 ? v->uffd : (uint32_t)uffd;

		if (nf != v->flags || np != v->policy || nn != v->name || nu != v->uffd)
			*changed = true;
		if (!(v = sim_modify_attr(mm, v, s, e, nf, np, nn, nu, &err)))
			return err ? err : -ENOMEM;
		cur = e;
		v = sim_tree_find(&mm->tree, cur);
	}
	return 0;
}

static uint32_t set_policy(uint32_t old, uint64_t id)
{
	(void)old;
	return (uint32_t)id;
}

/* A policy's identity: its mode and its nodes (the RANGES record's
 * nodemask, format 5; without one, the mode alone), as mpol_equal
 * compares them: MPOL_PREFERRED keeps only the mask's first node */
static uint32_t policy_id(uint64_t mode, const struct vmt_ranges *r)
{
	uint32_t h = 2166136261u ^ (uint32_t)mode, n = r ? r->nwords : 0, first = 1;

	while (n && !r->nodes[n - 1])
		n--;   /* a longer mask of the same nodes is the same policy */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t w = r->nodes[i];
		if ((mode & ~MPOL_MODE_FLAGS) == MPOL_PREFERRED)
			w = first ? w & -w : 0;   /* mpol_new_preferred */
		first &= !w;
		for (int b = 0; b < 64; b += 8)
			h = (h ^ (uint8_t)(w >> b)) * 16777619u;
	}
	return n ? h | 1 : 1 + (uint32_t)mode;
}

/* mbind(start, len, mode, nodemask, maxnode, flags) (do_mbind): the range
 * must be mapped whole (EFAULT); two policies are equal when their modes
 * and nodemasks are */
int64_t sim_do_mbind(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[0], end = start + PAGE_ALIGN(c->a[1]), mode = c->a[2];
	struct sim_vma *v;
	char cite[64];

	*changed = false;
	if (c->err)
		return as_recorded(mm, c, "mbind", R_P1_MEMPOLICY);
	if (start & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "mbind: start not page-aligned");
	if (end == start)
		return 0;
	if (whole(mm, start, end, &v))
		return sim_fail(mm, EFAULT, "mbind: a hole in the range");
	sim_rule(mm, "mempolicy %s (%s)", (mode & ~MPOL_MODE_FLAGS) == MPOL_DEFAULT ? "removed" : "set",
	         sim_cite(mm, R_P1_MEMPOLICY, cite, sizeof cite));
	return apply_range(mm, start, end, 0, 0, set_policy,
	                   (mode & ~MPOL_MODE_FLAGS) == MPOL_DEFAULT ? 0 : policy_id(mode, c->ranges), -1, -1, changed);
}

static uint32_t home_policy(uint32_t old, uint64_t node)
{
	return old ? old ^ (uint32_t)((node + 1) << 16) : 0;
}

/* set_mempolicy_home_node(start, len, home_node, flags): VMAs with a
 * policy get one with the home node (a new policy: merges compare it) */
int64_t sim_do_home_node(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[0], end = start + PAGE_ALIGN(c->a[1]);
	char cite[64];

	*changed = false;
	if (c->err)
		return as_recorded(mm, c, "set_mempolicy_home_node", R_P1_MEMPOLICY);
	if ((start & (SIM_PAGE - 1)) || c->a[3])
		return sim_fail(mm, EINVAL, "set_mempolicy_home_node: start not page-aligned or flags");
	sim_rule(mm, "home node set on the VMAs with a policy (%s)", sim_cite(mm, R_P1_MEMPOLICY, cite, sizeof cite));
	return apply_range(mm, start, end, 0, 0, home_policy, c->a[2], -1, -1, changed);
}

/* FNV-1a of the name: the identity anon_vma_name_eq compares */
static uint32_t name_id(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h | 1;
}

/* prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, start, len, name)
 * (madvise_set_anon_name): anonymous VMAs only (EBADF), holes are skipped
 * and answered with ENOMEM; NULL removes the name.  EINVAL without
 * CONFIG_ANON_VMA_NAME, as recorded. */
int64_t sim_do_anon_name(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t start = c->a[2], end = start + PAGE_ALIGN(c->a[3]);
	const struct vmt_ranges *r = c->ranges;
	uint32_t id = r && r->name ? name_id(r->name) : 0;
	struct sim_vma *v;
	int64_t e;
	char cite[64];

	*changed = false;
	if (!sim_has(mm->prof, R_N1_ANON_NAME))
		return sim_fail_by(mm, EINVAL, "PR_SET_VMA: not in this release", R_N1_ANON_NAME);
	if (c->err)
		return as_recorded(mm, c, "PR_SET_VMA_ANON_NAME", R_N1_ANON_NAME);
	if (start & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "PR_SET_VMA_ANON_NAME: start not page-aligned");
	for (v = sim_tree_find(&mm->tree, start); v && v->start < end; v = sim_tree_next(&mm->tree, v))
		if (v->file_id)
			return sim_fail(mm, EBADF, "PR_SET_VMA_ANON_NAME: a file mapping in the range");
	sim_rule(mm, "anon name %s (%s)", id ? "set" : "removed", sim_cite(mm, R_N1_ANON_NAME, cite, sizeof cite));
	if ((e = apply_range(mm, start, end, 0, 0, NULL, 0, id, -1, changed)))
		return e;
	return whole(mm, start, end, &v) ? -ENOMEM : 0;
}

static uint64_t uffd_flags(uint64_t mode)
{
	return (mode & UFFDIO_REGISTER_MODE_MISSING ? VM_UFFD_MISSING : 0) |
	       (mode & UFFDIO_REGISTER_MODE_WP ? VM_UFFD_WP : 0) |
	       (mode & UFFDIO_REGISTER_MODE_MINOR ? VM_UFFD_MINOR : 0);
}

/* ioctl(UFFDIO_REGISTER / UNREGISTER): the range from the RANGES record;
 * the range must be mapped whole (EINVAL); which VMAs a userfaultfd
 * accepts is the recording's answer */
static int64_t uffd_range(struct sim_mm *mm, const struct sim_call *c, bool reg, bool *changed)
{
	const struct vmt_ranges *r = c->ranges;
	uint64_t start, end;
	struct sim_vma *v;
	char cite[64];

	*changed = false;
	if (c->err)
		return as_recorded(mm, c, reg ? "UFFDIO_REGISTER" : "UFFDIO_UNREGISTER", R_U1_UFFD_FLAGS);
	if (!r || !r->n)
		return sim_fail(mm, EFAULT, "UFFDIO_(UN)REGISTER: no RANGES record for the call");
	start = r->ranges[0].start;
	end = start + r->ranges[0].len;
	if ((start | end) & (SIM_PAGE - 1) || end <= start)
		return sim_fail(mm, EINVAL, "UFFDIO_(UN)REGISTER: range not page-aligned or empty");
	if (whole(mm, start, end, &v))
		return sim_fail(mm, EINVAL, "UFFDIO_(UN)REGISTER: a hole in the range");
	sim_rule(mm, "VM_UFFD_* %s (%s)", reg ? "set" : "cleared", sim_cite(mm, R_U1_UFFD_FLAGS, cite, sizeof cite));
	/* the context: the userfaultfd's descriptor (+ 1); VMAs registered
	 * with two never merge */
	return apply_range(mm, start, end, reg ? uffd_flags(r->mode) : 0, reg ? 0 : VM_UFFD_FLAGS, NULL, 0, -1,
	                   reg ? (int64_t)(uint32_t)c->a[0] + 1 : 0, changed);
}

int64_t sim_do_uffd_register(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	return uffd_range(mm, c, true, changed);
}

int64_t sim_do_uffd_unregister(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	return uffd_range(mm, c, false, changed);
}
