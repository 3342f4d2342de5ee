/* sysfmt_tables.c - the names strace 6.1 prints for memory-call arguments,
 * as {value, name} tables in strace's own order (ascending value), so the
 * formatter prints names in the order strace does.  Values are the x86-64
 * ABI's, spelled out so the host's headers cannot change them. */
#include "lib/sysfmt.h"

#define TABLE(var, unknown_name, ...) \
	static const struct sysfmt_name var##_names[] = { __VA_ARGS__ }; \
	const struct sysfmt_table var = { var##_names, \
		sizeof(var##_names) / sizeof(var##_names[0]), unknown_name }

TABLE(sysfmt_prot, "PROT_???",
	{ 0x0, "PROT_NONE" },
	{ 0x1, "PROT_READ" },
	{ 0x2, "PROT_WRITE" },
	{ 0x4, "PROT_EXEC" },
	{ 0x8, "PROT_SEM" },
	{ 0x01000000, "PROT_GROWSDOWN" },
	{ 0x02000000, "PROT_GROWSUP" });

/* The MAP_TYPE bits (0x0f) are an enumeration, the rest are flags. */
TABLE(sysfmt_map_type, "MAP_???",
	{ 0x01, "MAP_SHARED" },
	{ 0x02, "MAP_PRIVATE" },
	{ 0x03, "MAP_SHARED_VALIDATE" });

TABLE(sysfmt_map_flags, "MAP_???",
	{ 0x10, "MAP_FIXED" },
	{ 0x20, "MAP_ANONYMOUS" },
	{ 0x40, "MAP_32BIT" },
	{ 0x100, "MAP_GROWSDOWN" },
	{ 0x800, "MAP_DENYWRITE" },
	{ 0x1000, "MAP_EXECUTABLE" },
	{ 0x2000, "MAP_LOCKED" },
	{ 0x4000, "MAP_NORESERVE" },
	{ 0x8000, "MAP_POPULATE" },
	{ 0x10000, "MAP_NONBLOCK" },
	{ 0x20000, "MAP_STACK" },
	{ 0x40000, "MAP_HUGETLB" },
	{ 0x80000, "MAP_SYNC" },
	{ 0x100000, "MAP_FIXED_NOREPLACE" },
	{ 0x4000000, "MAP_UNINITIALIZED" });

TABLE(sysfmt_madvise, "MADV_???",
	{ 0, "MADV_NORMAL" },
	{ 1, "MADV_RANDOM" },
	{ 2, "MADV_SEQUENTIAL" },
	{ 3, "MADV_WILLNEED" },
	{ 4, "MADV_DONTNEED" },
	{ 8, "MADV_FREE" },
	{ 9, "MADV_REMOVE" },
	{ 10, "MADV_DONTFORK" },
	{ 11, "MADV_DOFORK" },
	{ 12, "MADV_MERGEABLE" },
	{ 13, "MADV_UNMERGEABLE" },
	{ 14, "MADV_HUGEPAGE" },
	{ 15, "MADV_NOHUGEPAGE" },
	{ 16, "MADV_DONTDUMP" },
	{ 17, "MADV_DODUMP" },
	{ 18, "MADV_WIPEONFORK" },
	{ 19, "MADV_KEEPONFORK" },
	{ 20, "MADV_COLD" },
	{ 21, "MADV_PAGEOUT" },
	{ 22, "MADV_POPULATE_READ" },
	{ 23, "MADV_POPULATE_WRITE" },
	{ 24, "MADV_DONTNEED_LOCKED" },
	{ 25, "MADV_COLLAPSE" },
	{ 100, "MADV_HWPOISON" },
	{ 101, "MADV_SOFT_OFFLINE" },
	/* newer than strace 6.1, named as later strace releases do */
	{ 102, "MADV_GUARD_INSTALL" },
	{ 103, "MADV_GUARD_REMOVE" });

TABLE(sysfmt_mremap, "MREMAP_???",
	{ 0x1, "MREMAP_MAYMOVE" },
	{ 0x2, "MREMAP_FIXED" },
	{ 0x4, "MREMAP_DONTUNMAP" });

TABLE(sysfmt_mlock, "MLOCK_???",
	{ 0x1, "MLOCK_ONFAULT" });

TABLE(sysfmt_mcl, "MCL_???",
	{ 0x1, "MCL_CURRENT" },
	{ 0x2, "MCL_FUTURE" },
	{ 0x4, "MCL_ONFAULT" });

TABLE(sysfmt_shmat, "SHM_???",
	{ 010000, "SHM_RDONLY" },
	{ 020000, "SHM_RND" },
	{ 040000, "SHM_REMAP" },
	{ 0100000, "SHM_EXEC" });

TABLE(sysfmt_at_flags, "AT_???",
	{ 0x100, "AT_SYMLINK_NOFOLLOW" },
	{ 0x1000, "AT_EMPTY_PATH" });

/* clone's and clone3's flags (clone keeps the exit signal in the low byte). */
TABLE(sysfmt_clone, "CLONE_???",
	{ 0x00000080, "CLONE_NEWTIME" },
	{ 0x00000100, "CLONE_VM" },
	{ 0x00000200, "CLONE_FS" },
	{ 0x00000400, "CLONE_FILES" },
	{ 0x00000800, "CLONE_SIGHAND" },
	{ 0x00001000, "CLONE_PIDFD" },
	{ 0x00002000, "CLONE_PTRACE" },
	{ 0x00004000, "CLONE_VFORK" },
	{ 0x00008000, "CLONE_PARENT" },
	{ 0x00010000, "CLONE_THREAD" },
	{ 0x00020000, "CLONE_NEWNS" },
	{ 0x00040000, "CLONE_SYSVSEM" },
	{ 0x00080000, "CLONE_SETTLS" },
	{ 0x00100000, "CLONE_PARENT_SETTID" },
	{ 0x00200000, "CLONE_CHILD_CLEARTID" },
	{ 0x00400000, "CLONE_DETACHED" },
	{ 0x00800000, "CLONE_UNTRACED" },
	{ 0x01000000, "CLONE_CHILD_SETTID" },
	{ 0x02000000, "CLONE_NEWCGROUP" },
	{ 0x04000000, "CLONE_NEWUTS" },
	{ 0x08000000, "CLONE_NEWIPC" },
	{ 0x10000000, "CLONE_NEWUSER" },
	{ 0x20000000, "CLONE_NEWPID" },
	{ 0x40000000, "CLONE_NEWNET" },
	{ 0x80000000, "CLONE_IO" },
	{ 0x100000000ULL, "CLONE_CLEAR_SIGHAND" },
	{ 0x200000000ULL, "CLONE_INTO_CGROUP" });

/* mbind's mode: an enumeration in the low bits, MPOL_F_* flags above. */
TABLE(sysfmt_mpol_mode, "MPOL_???",
	{ 0, "MPOL_DEFAULT" },
	{ 1, "MPOL_PREFERRED" },
	{ 2, "MPOL_BIND" },
	{ 3, "MPOL_INTERLEAVE" },
	{ 4, "MPOL_LOCAL" },
	{ 5, "MPOL_PREFERRED_MANY" },
	/* newer than strace 6.1, named as later strace releases do */
	{ 6, "MPOL_WEIGHTED_INTERLEAVE" });

TABLE(sysfmt_mpol_flags, "MPOL_???",
	{ 0x2000, "MPOL_F_NUMA_BALANCING" },
	{ 0x4000, "MPOL_F_RELATIVE_NODES" },
	{ 0x8000, "MPOL_F_STATIC_NODES" });

TABLE(sysfmt_mbind_flags, "MPOL_???",
	{ 0x1, "MPOL_MF_STRICT" },
	{ 0x2, "MPOL_MF_MOVE" },
	{ 0x4, "MPOL_MF_MOVE_ALL" });

/* remap_file_pages' flags, as strace prints them with mmap's flag names */
TABLE(sysfmt_remap_flags, "MAP_???",
	{ 0x0, "MAP_FILE" },
	{ 0x10000, "MAP_NONBLOCK" });

/* newer than strace 6.1, named as later strace releases do */
TABLE(sysfmt_shstk, "SHADOW_STACK_???",
	{ 0x1, "SHADOW_STACK_SET_TOKEN" },
	{ 0x2, "SHADOW_STACK_SET_MARKER" });

/* the prctl options the table records, as strace 6.1 names them (it has
 * no names for PR_SET_MDWE and PR_SET_MEMORY_MERGE: "0x41 /- PR_??? -/") */
TABLE(sysfmt_prctl, "PR_???",
	{ 41, "PR_SET_THP_DISABLE" },
	{ 0x53564d41, "PR_SET_VMA" });

TABLE(sysfmt_uffd_cmd, "UFFDIO_???",
	{ 0xc020aa00, "UFFDIO_REGISTER" },
	{ 0x8010aa01, "UFFDIO_UNREGISTER" });

TABLE(sysfmt_uffd_mode, "UFFDIO_REGISTER_MODE_???",
	{ 0x1, "UFFDIO_REGISTER_MODE_MISSING" },
	{ 0x2, "UFFDIO_REGISTER_MODE_WP" },
	{ 0x4, "UFFDIO_REGISTER_MODE_MINOR" });

/* the ioctls a registration allows, as bits 1<<_UFFDIO_* (strace 6.1's) */
TABLE(sysfmt_uffd_ioctls, "",
	{ 1ull << 0, "1<<_UFFDIO_REGISTER" },
	{ 1ull << 1, "1<<_UFFDIO_UNREGISTER" },
	{ 1ull << 2, "1<<_UFFDIO_WAKE" },
	{ 1ull << 3, "1<<_UFFDIO_COPY" },
	{ 1ull << 4, "1<<_UFFDIO_ZEROPAGE" },
	{ 1ull << 6, "1<<_UFFDIO_WRITEPROTECT" },
	{ 1ull << 7, "1<<_UFFDIO_CONTINUE" },
	{ 1ull << 63, "1<<_UFFDIO_API" });
