/* vm_flags.c - names of the modelled VM_* bits */
#include <string.h>
#include "replay/sim/vm_flags.h"

/* smaps order (fs/proc/task_mmu.c show_smap_vma_flags) */
const struct sim_flag_name sim_flag_names[] = {
	{ VM_READ, "rd", "VM_READ" },
	{ VM_WRITE, "wr", "VM_WRITE" },
	{ VM_EXEC, "ex", "VM_EXEC" },
	{ VM_SHARED, "sh", "VM_SHARED" },
	{ VM_MAYREAD, "mr", "VM_MAYREAD" },
	{ VM_MAYWRITE, "mw", "VM_MAYWRITE" },
	{ VM_MAYEXEC, "me", "VM_MAYEXEC" },
	{ VM_MAYSHARE, "ms", "VM_MAYSHARE" },
	{ VM_GROWSDOWN, "gd", "VM_GROWSDOWN" },
	{ VM_UFFD_MISSING, "um", "VM_UFFD_MISSING" },
	{ VM_UFFD_WP, "uw", "VM_UFFD_WP" },
	{ VM_PFNMAP, "pf", "VM_PFNMAP" },
	{ VM_LOCKED, "lo", "VM_LOCKED" },
	{ VM_IO, "io", "VM_IO" },
	{ VM_SEQ_READ, "sr", "VM_SEQ_READ" },
	{ VM_RAND_READ, "rr", "VM_RAND_READ" },
	{ VM_DONTCOPY, "dc", "VM_DONTCOPY" },
	{ VM_DONTEXPAND, "de", "VM_DONTEXPAND" },
	{ VM_LOCKONFAULT, "lf", "VM_LOCKONFAULT" },
	{ VM_ACCOUNT, "ac", "VM_ACCOUNT" },
	{ VM_NORESERVE, "nr", "VM_NORESERVE" },
	{ VM_HUGETLB, "ht", "VM_HUGETLB" },
	{ VM_WIPEONFORK, "wf", "VM_WIPEONFORK" },
	{ VM_DONTDUMP, "dd", "VM_DONTDUMP" },
	{ VM_SOFTDIRTY, "sd", "VM_SOFTDIRTY" },
	{ VM_MIXEDMAP, "mm", "VM_MIXEDMAP" },
	{ VM_HUGEPAGE, "hg", "VM_HUGEPAGE" },
	{ VM_NOHUGEPAGE, "nh", "VM_NOHUGEPAGE" },
	{ VM_MERGEABLE, "mg", "VM_MERGEABLE" },
	{ VM_SHADOW_STACK, "ss", "VM_SHADOW_STACK" },
	{ VM_DROPPABLE, "??", "VM_DROPPABLE" },   /* smaps shows no name for it */
	{ VM_UFFD_MINOR, "ui", "VM_UFFD_MINOR" },
	{ VM_SEALED, "sl", "VM_SEALED" },
};
const size_t sim_flag_names_count = sizeof sim_flag_names / sizeof sim_flag_names[0];

char *sim_flags_smaps(uint64_t flags, char *buf, size_t size)
{
	size_t n = 0;

	if (size)
		buf[0] = 0;
	for (size_t i = 0; i < sim_flag_names_count; i++) {
		if (!(flags & sim_flag_names[i].bit) || n + 4 > size)
			continue;
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, sim_flag_names[i].smaps, 3);
		n += 2;
	}
	return buf;
}

uint64_t sim_flag_from_smaps(const char *two)
{
	for (size_t i = 0; i < sim_flag_names_count; i++)
		if (two[0] == sim_flag_names[i].smaps[0] && two[1] == sim_flag_names[i].smaps[1])
			return sim_flag_names[i].bit;
	return 0;
}

const char *sim_flag_name(uint64_t bits)
{
	for (size_t i = 0; i < sim_flag_names_count; i++)
		if (bits & sim_flag_names[i].bit)
			return sim_flag_names[i].name;
	return "?";
}
