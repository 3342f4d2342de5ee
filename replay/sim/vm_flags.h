/* vm_flags.h - the kernel's VM_* bits as the simulator models them (x86-64
 * values, include/linux/mm.h) and their /proc/PID/smaps "VmFlags" names. */
#ifndef VMREC_SIM_VM_FLAGS_H
#define VMREC_SIM_VM_FLAGS_H

#include <stddef.h>
#include <stdint.h>

#define VM_READ         0x00000001ull
#define VM_WRITE        0x00000002ull
#define VM_EXEC         0x00000004ull
#define VM_SHARED       0x00000008ull
#define VM_MAYREAD      0x00000010ull
#define VM_MAYWRITE     0x00000020ull
#define VM_MAYEXEC      0x00000040ull
#define VM_MAYSHARE     0x00000080ull
#define VM_GROWSDOWN    0x00000100ull
#define VM_UFFD_MISSING 0x00000200ull
#define VM_PFNMAP       0x00000400ull
#define VM_UFFD_WP      0x00001000ull
#define VM_LOCKED       0x00002000ull
#define VM_IO           0x00004000ull
#define VM_SEQ_READ     0x00008000ull
#define VM_RAND_READ    0x00010000ull
#define VM_DONTCOPY     0x00020000ull
#define VM_DONTEXPAND   0x00040000ull
#define VM_LOCKONFAULT  0x00080000ull
#define VM_ACCOUNT      0x00100000ull
#define VM_NORESERVE    0x00200000ull
#define VM_HUGETLB      0x00400000ull
#define VM_WIPEONFORK   0x02000000ull
#define VM_DONTDUMP     0x04000000ull
#define VM_SOFTDIRTY    0x08000000ull
#define VM_MIXEDMAP     0x10000000ull
#define VM_HUGEPAGE     0x20000000ull
#define VM_NOHUGEPAGE   0x40000000ull
#define VM_MERGEABLE    0x80000000ull
#define VM_SHADOW_STACK (1ull << 37)   /* VM_HIGH_ARCH_5 on x86 */
#define VM_DROPPABLE    (1ull << 40)
#define VM_UFFD_MINOR   (1ull << 41)
#define VM_SEALED       (1ull << 63)

#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
#define VM_LOCKED_MASK  (VM_LOCKED | VM_LOCKONFAULT)
#define VM_UFFD_FLAGS   (VM_UFFD_MISSING | VM_UFFD_WP | VM_UFFD_MINOR)
#define VM_SPECIAL      (VM_IO | VM_DONTEXPAND | VM_PFNMAP | VM_MIXEDMAP)

struct sim_flag_name {
	uint64_t bit;
	const char *smaps;  /* two letters, as smaps prints them */
	const char *name;   /* "VM_NOHUGEPAGE" */
};
extern const struct sim_flag_name sim_flag_names[];
extern const size_t sim_flag_names_count;

/* "rd wr mr mw me ac" (smaps order); returns buf. */
char *sim_flags_smaps(uint64_t flags, char *buf, size_t size);
/* The smaps two-letter name -> bit, 0 when the model does not know it. */
uint64_t sim_flag_from_smaps(const char *two);
/* "VM_NOHUGEPAGE" for one bit (the lowest set), "?" if unknown. */
const char *sim_flag_name(uint64_t bits);

#endif
