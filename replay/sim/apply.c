/* apply.c - sim_apply: one system call through its handler, then the
 * outcome in lib/outcome.h's vocabulary, classified from the shape of
 * the change the same way for every call (see docs/kernel-profiles.md). */
#include <errno.h>
#include <string.h>
#include "replay/sim/sim_int.h"

/* SH_*: which range the outcome is read from (replay/engine.c's effects) */
enum shape { SH_MAP, SH_UNMAP, SH_MODIFY, SH_BRK, SH_REMAP, SH_NONE, SH_MODIFY23, SH_RANGES };

typedef int64_t (*op_fn)(struct sim_mm *, const struct sim_call *, bool *);

static int64_t do_mlock(struct sim_mm *mm, const struct sim_call *c, bool *ch) { return sim_do_mlock(mm, c, VMT_SYS_MLOCK, ch); }
static int64_t do_mlock2(struct sim_mm *mm, const struct sim_call *c, bool *ch) { return sim_do_mlock(mm, c, VMT_SYS_MLOCK2, ch); }
static int64_t do_munlock(struct sim_mm *mm, const struct sim_call *c, bool *ch) { return sim_do_mlock(mm, c, VMT_SYS_MUNLOCK, ch); }
static int64_t do_mlockall(struct sim_mm *mm, const struct sim_call *c, bool *ch) { return sim_do_mlock(mm, c, VMT_SYS_MLOCKALL, ch); }
static int64_t do_munlockall(struct sim_mm *mm, const struct sim_call *c, bool *ch) { return sim_do_mlock(mm, c, VMT_SYS_MUNLOCKALL, ch); }

static const struct {
	op_fn fn;
	int shape;
	const char *note;   /* for calls whose effect the driver handles */
} ops[VMT_SYS_COUNT] = {
	[VMT_SYS_BRK]           = { sim_do_brk, SH_BRK, NULL },
	[VMT_SYS_MMAP]          = { sim_do_mmap, SH_MAP, NULL },
	[VMT_SYS_MUNMAP]        = { sim_do_munmap, SH_UNMAP, NULL },
	[VMT_SYS_MREMAP]        = { sim_do_mremap, SH_REMAP, NULL },
	[VMT_SYS_MPROTECT]      = { sim_do_mprotect, SH_MODIFY, NULL },
	[VMT_SYS_PKEY_MPROTECT] = { sim_do_pkey_mprotect, SH_MODIFY, NULL },
	[VMT_SYS_MADVISE]       = { sim_do_madvise, SH_MODIFY, NULL },
	[VMT_SYS_MLOCK]         = { do_mlock, SH_MODIFY, NULL },
	[VMT_SYS_MLOCK2]        = { do_mlock2, SH_MODIFY, NULL },
	[VMT_SYS_MUNLOCK]       = { do_munlock, SH_MODIFY, NULL },
	/* no range: the kernel back end names no change (unchanged) */
	[VMT_SYS_MLOCKALL]      = { do_mlockall, SH_NONE, NULL },
	[VMT_SYS_MUNLOCKALL]    = { do_munlockall, SH_NONE, NULL },
	[VMT_SYS_MSEAL]         = { sim_do_mseal, SH_MODIFY, NULL },
	[VMT_SYS_SHMAT]         = { sim_do_shmat, SH_MAP, NULL },
	/* the driver passes the attachment's length as args[1] */
	[VMT_SYS_SHMDT]         = { sim_do_shmdt, SH_UNMAP, NULL },
	/* the calls whose range is in argument 0 and 1, 2 and 3 (PR_SET_VMA),
	 * or the RANGES record (SH_RANGES) */
	[VMT_SYS_MBIND]         = { sim_do_mbind, SH_MODIFY, NULL },
	[VMT_SYS_SET_MEMPOLICY_HOME_NODE] = { sim_do_home_node, SH_MODIFY, NULL },
	[VMT_SYS_PRCTL_SET_VMA] = { sim_do_anon_name, SH_MODIFY23, NULL },
	[VMT_SYS_PRCTL_SET_THP_DISABLE] = { sim_do_thp_disable, SH_NONE, NULL },
	[VMT_SYS_PRCTL_SET_MEMORY_MERGE] = { sim_do_memory_merge, SH_NONE, NULL },
	[VMT_SYS_PRCTL_SET_MDWE] = { sim_do_mdwe, SH_NONE, NULL },
	[VMT_SYS_PROCESS_MADVISE] = { sim_do_process_madvise, SH_RANGES, NULL },
	[VMT_SYS_UFFDIO_REGISTER] = { sim_do_uffd_register, SH_RANGES, NULL },
	[VMT_SYS_UFFDIO_UNREGISTER] = { sim_do_uffd_unregister, SH_RANGES, NULL },
	[VMT_SYS_REMAP_FILE_PAGES] = { sim_do_remap_file_pages, SH_MODIFY, NULL },
	[VMT_SYS_MAP_SHADOW_STACK] = { sim_do_map_shadow_stack, SH_MAP, NULL },
	[VMT_SYS_FORK]          = { NULL, SH_NONE, "fork: the child's address space comes from sim_mm_fork" },
	[VMT_SYS_VFORK]         = { NULL, SH_NONE, "vfork shares the address space" },
	[VMT_SYS_CLONE]         = { NULL, SH_NONE, "clone: threads share the address space; processes use sim_mm_fork" },
	[VMT_SYS_CLONE3]        = { NULL, SH_NONE, "clone3: threads share the address space; processes use sim_mm_fork" },
	[VMT_SYS_EXECVE]        = { NULL, SH_NONE, "exec: the new image starts a new address space (sim_mm_new)" },
	[VMT_SYS_EXECVEAT]      = { NULL, SH_NONE, "exec: the new image starts a new address space (sim_mm_new)" },
	[VMT_SYS_EXIT]          = { NULL, SH_NONE, "exit" },
	[VMT_SYS_EXIT_GROUP]    = { NULL, SH_NONE, "exit" },
};

/* the range a call's outcome is read from and how, as replay/engine.c
 * gives it to the kernel back end; `cur_brk`: the break before the call */
struct effect {
	int fx;              /* enum sim_fx */
	uint64_t lo, hi;
};

static struct effect effect_of(int shape, const uint64_t *a, uint64_t cur_brk, const struct vmt_ranges *r)
{
	uint64_t lo = a[0] & ~(SIM_PAGE - 1), hi = PAGE_ALIGN(a[0] + a[1]);

	switch (shape) {
	case SH_MODIFY23:
		return (struct effect){ SIM_FX_MODIFY, a[2] & ~(SIM_PAGE - 1), PAGE_ALIGN(a[2] + a[3]) };
	case SH_RANGES:   /* the hull of the ranges, as the kernel back end reads it */
		if (!r || !r->n)
			break;
		lo = UINT64_MAX;
		hi = 0;
		for (uint32_t i = 0; i < r->n; i++) {
			if (r->ranges[i].start < lo)
				lo = r->ranges[i].start;
			if (r->ranges[i].start + r->ranges[i].len > hi)
				hi = r->ranges[i].start + r->ranges[i].len;
		}
		return (struct effect){ SIM_FX_MODIFY, lo & ~(SIM_PAGE - 1), PAGE_ALIGN(hi) };
	case SH_MAP:
		return (struct effect){ SIM_FX_CREATE, 0, 0 };   /* known from the result */
	case SH_UNMAP:
		return (struct effect){ SIM_FX_REMOVE, lo, hi };
	case SH_MODIFY:
		return (struct effect){ SIM_FX_MODIFY, lo, hi };
	case SH_REMAP: {
		uint64_t ol = PAGE_ALIGN(a[1]), nl = PAGE_ALIGN(a[2]);
		if (nl > ol)
			return (struct effect){ SIM_FX_CREATE, a[0] + ol, a[0] + nl };
		if (nl < ol)
			return (struct effect){ SIM_FX_REMOVE, a[0] + nl, a[0] + ol };
		break;
	}
	case SH_BRK: {
		uint64_t was = PAGE_ALIGN(cur_brk), now = PAGE_ALIGN(a[0]);
		if (a[0] && cur_brk && now > was)
			return (struct effect){ SIM_FX_CREATE, was, now };
		if (a[0] && cur_brk && now < was)
			return (struct effect){ SIM_FX_REMOVE, now, was };
		break;
	}
	}
	return (struct effect){ SIM_FX_NONE, 0, 0 };
}

/* The call zaps or changes page-table entries of a range, which ends in
 * one TLB-flush range (the model's unit; not whether any page was there). */
static bool flushes(int sys, const uint64_t *a, int64_t r, bool changed)
{
	if (vmt_raw_failed(r))
		return false;
	switch (sys) {
	case VMT_SYS_MUNMAP: case VMT_SYS_SHMDT: case VMT_SYS_MPROTECT: case VMT_SYS_PKEY_MPROTECT:
		return changed;
	/* a brk shrink counts its own (sim_do_brk) */
	case VMT_SYS_MREMAP:
		return (uint64_t)r != a[0] || PAGE_ALIGN(a[2]) < PAGE_ALIGN(a[1]);
	case VMT_SYS_MADVISE:
		return a[2] == MADV_DONTNEED || a[2] == MADV_DONTNEED_LOCKED || a[2] == MADV_FREE;
	}
	return false;
}

/* the rule text of this call, valid for the life of the process */
static const char *kept_rule(struct sim_mm *mm)
{
	if (mm->rule[0])
		return sim_intern(mm->rule);
	if (!mm->rule_fixed)
		return NULL;
	if (mm->kept[0].src == mm->rule_fixed)
		return mm->kept[0].kept;
	if (mm->kept[1].src != mm->rule_fixed) {
		mm->kept[1].kept = sim_intern(mm->rule_fixed);
		mm->kept[1].src = mm->rule_fixed;
	}
	/* the one used now first */
	const char *src = mm->kept[1].src, *kept = mm->kept[1].kept;
	mm->kept[1] = mm->kept[0];
	mm->kept[0].src = src;
	mm->kept[0].kept = kept;
	return kept;
}

static struct vr_ranges ranges_of(const struct sim_snap *s)
{
	return (struct vr_ranges){ .n = s->n, .stored = s->n < SIM_SNAP_MAX ? s->n : SIM_SNAP_MAX,
	                           .r = (const uint64_t (*)[2])s->r };
}

/* CREATE's view: the VMA covering lo afterwards, if any. */
static void snap_covering(const struct sim_mm *mm, uint64_t lo, struct sim_snap *s)
{
	/* a brk's heap VMA is known: the tree need not be searched again */
	const struct sim_vma *v = mm->grown && mm->grown->start <= lo && lo < mm->grown->end
	                          ? mm->grown : sim_tree_find(&mm->tree, lo);
	s->n = v && v->start <= lo;
	if (s->n) {
		s->r[0][0] = v->start;
		s->r[0][1] = v->end;
	}
}

static const int change_of[] = {
	[SIM_FX_CREATE] = VR_CH_CREATE, [SIM_FX_REMOVE] = VR_CH_REMOVE, [SIM_FX_MODIFY] = VR_CH_MODIFY,
};

static void apply_call(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
                       const struct vmt_ranges *ranges, struct vr_result *out)
{
	struct sim_call c;
	int sys = ev->sys;
	int64_t r;
	bool changed = false;
	static __thread struct sim_snap before, after;
	const char *why = NULL;

	memset(out, 0, sizeof *out);
	out->vma_count = -1;
	if (!mm) {
		out->ret = -1;
		out->err = EINVAL;
		out->outcome = VR_FAILED;
		return;
	}
	mm->rule[0] = 0;
	mm->rule_fixed = NULL;
	mm->how = VR_UNCHANGED;
	mm->grown = NULL;
	if (sys <= VMT_SYS_NONE || sys >= VMT_SYS_COUNT || (!ops[sys].fn && !ops[sys].note)) {
		out->ret = -1;
		out->err = ENOSYS;
		out->outcome = VR_FAILED;
		out->vma_count = (int64_t)sim_vma_count(mm);
		out->rule = "unknown system call";
		return;
	}
	mm->cost.calls++;
	memcpy(c.a, ev->args, sizeof c.a);
	c.file = file;
	c.file_id = ev->file_id ? ev->file_id : file ? file->id : 0;
	c.ranges = ranges;
	c.err = ev->err;
	c.pid = ev->pid;
	struct effect fx = effect_of(ops[sys].shape, c.a, mm->brk, ranges);
	if (fx.fx == SIM_FX_REMOVE)
		sim_snap_intersecting(mm, fx.lo, fx.hi, &before);
	else if (fx.fx == SIM_FX_MODIFY)
		sim_snap_around(mm, fx.lo, fx.hi, &before);
	if (ops[sys].fn) {
		r = ops[sys].fn(mm, &c, &changed);
		mm->cost.mt_walk++;   /* the call's own lookup of its range */
		if (flushes(sys, c.a, r, changed))
			mm->cost.tlb_flush++;
	} else {
		r = 0;
		sim_rule(mm, "%s", ops[sys].note);
	}
	out->vma_count = (int64_t)sim_vma_count(mm);
	if (vmt_raw_failed(r) && sys != VMT_SYS_BRK) {
		out->ret = -1;
		out->err = (int)-r;
		out->outcome = VR_FAILED;
		out->rule = kept_rule(mm);
		return;
	}
	out->ret = r;
	if (sys == VMT_SYS_BRK && (uint64_t)r != c.a[0])
		fx.fx = SIM_FX_NONE;     /* refused: brk answers the old break */
	if (sys == VMT_SYS_MREMAP && (uint64_t)r != c.a[0]) {
		/* what the range did at its destination */
		struct vr_change ch = { .kind = VR_CH_MOVE, .lo = (uint64_t)r, .hi = (uint64_t)r + PAGE_ALIGN(c.a[2]) };
		snap_covering(mm, ch.lo, &after);
		ch.after = ranges_of(&after);
		out->outcome = vr_classify(&ch, NULL);
	} else if (fx.fx != SIM_FX_NONE) {
		if (fx.fx == SIM_FX_CREATE && (sys == VMT_SYS_MMAP || sys == VMT_SYS_MAP_SHADOW_STACK)) {
			fx.lo = (uint64_t)r;
			fx.hi = (uint64_t)r + PAGE_ALIGN(c.a[1]);
		} else if (sys == VMT_SYS_SHMAT) {
			fx.lo = (uint64_t)r;
			fx.hi = (uint64_t)r + PAGE_ALIGN(file->size);
		}
		if (fx.fx == SIM_FX_CREATE)
			snap_covering(mm, fx.lo, &after);
		else if (fx.fx == SIM_FX_MODIFY)
			sim_snap_around(mm, fx.lo, fx.hi, &after);
		/* an mremap that grew in place: its new tail */
		int kind = sys == VMT_SYS_MREMAP && fx.fx == SIM_FX_CREATE ? VR_CH_GROW : change_of[fx.fx];
		struct vr_change ch = { .kind = kind, .lo = fx.lo, .hi = fx.hi,
		                        .before = ranges_of(&before), .after = ranges_of(&after) };
		out->outcome = vr_classify(&ch, &why);
		if (why)
			sim_rule(mm, "%s", why);
	} else {
		out->outcome = VR_UNCHANGED;
		if (changed && ops[sys].shape == SH_NONE)
			sim_rule(mm, "outcome unchanged: the call names no range");
	}
	out->rule = kept_rule(mm);
}

void sim_apply(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
               struct vr_result *out)
{
	sim_apply_ranges(mm, ev, file, NULL, out);
}

void sim_apply_ranges(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
                      const struct vmt_ranges *ranges, struct vr_result *out)
{
	apply_call(mm, ev, file, ranges, out);
	if (mm)
		sim_cost_keep(mm, ev->seq);
}
