/* apply.c - sim_apply: one system call through its handler, then the
 * outcome in replay/outcome.h's vocabulary, classified from the shape of
 * the change the same way for every call (see docs/kernel-profiles.md). */
#include <errno.h>
#include <string.h>
#include "replay/sim/sim_int.h"

enum shape { SH_MAP, SH_UNMAP, SH_MODIFY, SH_BRK, SH_REMAP, SH_NONE, SH_UNMODELLED };

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
	[VMT_SYS_MLOCKALL]      = { do_mlockall, SH_MODIFY, NULL },
	[VMT_SYS_MUNLOCKALL]    = { do_munlockall, SH_MODIFY, NULL },
	[VMT_SYS_MSEAL]         = { sim_do_mseal, SH_MODIFY, NULL },
	[VMT_SYS_SHMAT]         = { NULL, SH_UNMODELLED, "shmat is not modelled" },
	[VMT_SYS_SHMDT]         = { NULL, SH_UNMODELLED, "shmdt is not modelled" },
	[VMT_SYS_FORK]          = { NULL, SH_NONE, "fork: the child's address space comes from sim_mm_fork" },
	[VMT_SYS_VFORK]         = { NULL, SH_NONE, "vfork shares the address space" },
	[VMT_SYS_CLONE]         = { NULL, SH_NONE, "clone: threads share the address space; processes use sim_mm_fork" },
	[VMT_SYS_CLONE3]        = { NULL, SH_NONE, "clone3: threads share the address space; processes use sim_mm_fork" },
	[VMT_SYS_EXECVE]        = { NULL, SH_NONE, "exec: the new image starts a new address space (sim_mm_new)" },
	[VMT_SYS_EXECVEAT]      = { NULL, SH_NONE, "exec: the new image starts a new address space (sim_mm_new)" },
	[VMT_SYS_EXIT]          = { NULL, SH_NONE, "exit" },
	[VMT_SYS_EXIT_GROUP]    = { NULL, SH_NONE, "exit" },
};

static struct sim_vma *at(struct sim_mm *mm, uint64_t addr)
{
	struct sim_vma *v = tree_find(&mm->tree, addr);
	return v && v->start <= addr ? v : NULL;
}

static int removal(bool changed, int64_t delta)
{
	if (!changed)
		return VR_UNCHANGED;
	return delta > 0 ? VR_SPLIT : delta < 0 ? VR_REMOVE : VR_SHRINK;
}

/* where [start, end) now sits, for calls that changed flags in place */
static int modify_shape(struct sim_mm *mm, uint64_t start, uint64_t end, bool changed, int64_t delta)
{
	struct sim_vma *v = at(mm, start), *w = end > start ? at(mm, end - 1) : NULL;

	if (!changed)
		return VR_UNCHANGED;
	if (v && v == w && v->start < start && v->end > end)
		return VR_MERGE_BOTH;
	if (v && v->start < start && delta <= 0)
		return VR_EXPAND_PREV;
	if (w && w->end > end && delta <= 0)
		return VR_EXPAND_NEXT;
	if (delta > 0)
		return VR_SPLIT;
	if (delta < 0)
		return VR_EXPAND_PREV;
	return VR_UNCHANGED;
}

void sim_apply(struct sim_mm *mm, const struct vmt_event *ev, const struct vmt_file *file,
               struct vr_result *out)
{
	struct sim_call c;
	int sys = ev->sys;
	size_t before;
	int64_t r, delta;
	bool changed = false;
	uint64_t page_len;

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
	if (sys <= VMT_SYS_NONE || sys >= VMT_SYS_COUNT || (!ops[sys].fn && !ops[sys].note)) {
		out->ret = -1;
		out->err = ENOSYS;
		out->outcome = VR_FAILED;
		out->vma_count = (int64_t)sim_vma_count(mm);
		out->rule = "unknown system call";
		return;
	}
	memcpy(c.a, ev->args, sizeof c.a);
	c.file = file;
	c.file_id = ev->file_id ? ev->file_id : file ? file->id : 0;
	before = mm->tree.count;
	if (ops[sys].fn) {
		r = ops[sys].fn(mm, &c, &changed);
	} else {
		r = ops[sys].shape == SH_UNMODELLED ? -ENOSYS : 0;
		sim_rule(mm, "%s", ops[sys].note);
	}
	delta = (int64_t)mm->tree.count - (int64_t)before;
	out->vma_count = (int64_t)sim_vma_count(mm);
	out->rule = mm->rule[0] ? mm->rule : mm->rule_fixed;
	if (r < 0 && r > -4096 && sys != VMT_SYS_BRK) {
		out->ret = -1;
		out->err = (int)-r;
		out->outcome = VR_FAILED;
		return;
	}
	out->ret = r;
	page_len = (c.a[1] + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	switch (ops[sys].shape) {
	case SH_MAP:
		out->outcome = mm->how;
		break;
	case SH_BRK:
		out->outcome = !changed ? VR_UNCHANGED : delta < 0 || mm->how == VR_UNCHANGED
		               ? removal(changed, delta) : mm->how;
		break;
	case SH_REMAP:
		if ((uint64_t)r != c.a[0])
			out->outcome = VR_MOVE;
		else if (c.a[2] > c.a[1] && changed)
			out->outcome = mm->how;
		else
			out->outcome = removal(changed, delta);
		break;
	case SH_UNMAP:
		out->outcome = removal(changed, delta);
		break;
	case SH_MODIFY:
		if (sys == VMT_SYS_MLOCKALL || sys == VMT_SYS_MUNLOCKALL)
			out->outcome = !changed ? VR_UNCHANGED : delta > 0 ? VR_SPLIT :
			               delta < 0 ? VR_EXPAND_PREV : VR_UNCHANGED;
		else
			out->outcome = modify_shape(mm, c.a[0] & ~(SIM_PAGE - 1),
			                            (c.a[0] & ~(SIM_PAGE - 1)) + page_len, changed, delta);
		break;
	default:
		out->outcome = VR_UNCHANGED;
	}
}
