/* ops_shm.c - SysV shared memory: shmat and shmdt (ipc/shm.c do_shmat,
 * ksys_shmdt).  A segment is a shmem file; every attachment maps it through
 * a struct file of its own (shm_file_data), so each attachment gets its own
 * file identity here (SIM_SYSV_ID and up): it never merges with anonymous
 * neighbours, nor with another attachment, only with its own pieces. */
#include <errno.h>
#include <sys/shm.h>
#include "replay/sim/sim_int.h"
#include "lib/compat.h"

#define SIM_SHMLBA SIM_PAGE   /* x86 */

static bool is_sysv(const struct sim_vma *v) { return v->file_id >= SIM_SYSV_ID; }

/* c->a: shmid, address, shmflg; c->file: the segment (its size). */
int64_t sim_do_shmat(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t addr = c->a[1], shmflg = c->a[2], prot, flags = MAP_SHARED, size;
	struct sim_vma *v;

	*changed = false;
	if ((int64_t)c->a[0] < 0 || (int32_t)c->a[0] < 0)
		return sim_fail(mm, EINVAL, "shmat: invalid segment id");
	if (!c->file || !c->file->size) {
		sim_rule(mm, "shmat: the segment's size is unknown");
		return -EINVAL;
	}
	size = c->file->size;
	if (addr) {
		if (addr & (SIM_SHMLBA - 1)) {
			if (!(shmflg & SHM_RND))
				return sim_fail(mm, EINVAL, "shmat: address not SHMLBA-aligned and no SHM_RND");
			addr &= ~(SIM_SHMLBA - 1);
			if (!addr && (shmflg & SHM_REMAP))
				return sim_fail(mm, EINVAL, "shmat: SHM_REMAP at address 0");
		}
		flags |= MAP_FIXED;
	} else if (shmflg & SHM_REMAP) {
		return sim_fail(mm, EINVAL, "shmat: SHM_REMAP without an address");
	}
	prot = shmflg & SHM_RDONLY ? PROT_READ : PROT_READ | PROT_WRITE;
	if (shmflg & SHM_EXEC)
		prot |= PROT_EXEC;
	/* without SHM_REMAP a busy range is refused, not replaced */
	if (addr && !(shmflg & SHM_REMAP)) {
		if (addr + size < addr)
			return sim_fail(mm, EINVAL, "shmat: range wraps around");
		v = sim_tree_find(&mm->tree, addr);
		if (v && v->start < addr + size)
			return sim_fail(mm, EINVAL, "shmat: the range is not free and no SHM_REMAP (find_vma_intersection)");
	}
	if (!mm->next_sysv)
		mm->next_sysv = SIM_SYSV_ID;
	struct sim_call m = { .a = { addr, size, prot, flags, (uint64_t)-1, 0 },
	                      .file = c->file, .file_id = mm->next_sysv++ };
	int64_t r = sim_do_mmap(mm, &m, changed);
	if (r < 0)
		return r;
	/* a read-only attachment's file is not open for writing: do_mmap
	 * drops VM_MAYWRITE and VM_SHARED (maps still shows 's') */
	if ((shmflg & SHM_RDONLY) && (v = sim_tree_find(&mm->tree, (uint64_t)r)))
		v->flags &= ~(VM_MAYWRITE | VM_SHARED);
	sim_rule(mm, "shmat: a shared mapping of the segment's shmem file, a file of its own per attachment (ipc/shm.c do_shmat)");
	return r;
}

/* c->a[0]: the attach address; c->a[1]: the attachment's length when the
 * driver knows it (the kernel reads it from the segment), else 0: up to
 * the first VMA of another file. */
int64_t sim_do_shmdt(struct sim_mm *mm, const struct sim_call *c, bool *changed)
{
	uint64_t addr = c->a[0], bound = c->a[1] ? addr + PAGE_ALIGN(c->a[1]) : SIM_TASK_SIZE;
	struct sim_vma *v;
	uint32_t id = 0;

	*changed = false;
	if (addr & (SIM_PAGE - 1))
		return sim_fail(mm, EINVAL, "shmdt: address not page-aligned");
	/* the first piece of an attachment made at addr: its pgoff says how
	 * far from addr it starts */
	for (v = sim_tree_find(&mm->tree, addr); v && v->start < bound; v = sim_tree_next(&mm->tree, v))
		if (is_sysv(v) && v->start - addr == v->pgoff * SIM_PAGE) {
			id = v->file_id;
			break;
		}
	if (!id)
		return sim_fail(mm, EINVAL, "shmdt: no attachment at the address");
	for (uint64_t pos = v->start; (v = sim_tree_find(&mm->tree, pos)) && v->start < bound; ) {
		pos = v->end;
		if (v->file_id != id) {
			if (!c->a[1])
				break;
			continue;
		}
		if (v->start - addr != v->pgoff * SIM_PAGE || v->end > bound)
			continue;
		int e = sim_unmap_range(mm, v->start, v->end, changed);
		if (e)
			return e;
	}
	sim_rule(mm, "shmdt: every piece of the attachment at the address goes (ipc/shm.c ksys_shmdt)");
	return 0;
}
