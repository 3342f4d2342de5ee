/* sites.c - every libc entry the recorder replaces, with the exact bytes
 * it expects there (glibc 2.36, x86-64).  An entry whose bytes differ is
 * left alone and named on stderr: the trap path still sees its calls. */
#define SHIM_SITES
#include "hooks.h"

#define WRAPPER(b)  "b8 " b " 00 00 00 0f 05 48 3d 01 f0 ff ff"   /* mov $nr,%eax; syscall; cmp */

struct patch_site shim_sites[] = {
	{ "mmap", hook_mmap, "41 89 ca 41 f7 c1 ff 0f 00 00 75 ?? b8 09 00 00 00 0f 05", 0, 0, 0, 0 },
	{ "munmap", hook_munmap, WRAPPER("0b"), 0, 0, 0, 0 },
	{ "mprotect", hook_mprotect, WRAPPER("0a"), 0, 0, 0, 0 },
	{ "pkey_mprotect", hook_pkey_mprotect, "41 89 ca 83 f9 ff 74 ?? b8 49 01 00 00 0f 05", 0, 0, 0, 0 },
	{ "madvise", hook_madvise, WRAPPER("1c"), 0, 0, 0, 0 },
	{ "posix_madvise", hook_posix_madvise, "31 c0 83 fa 04 74 ?? b8 1c 00 00 00 0f 05 f7 d8 c3", 0, 0, 0, 0 },
	{ "mremap", hook_mremap, "48 83 ec 58 4c 89 44 24 40 64 48 8b 04 25 28 00 00 00", 0, 0, 0, 0 },
	{ "brk", hook_brk, "b8 0c 00 00 00 0f 05 48 8b 15 ?? ?? ?? ?? 48 89 02", 0, 0, 0, 0 },
	{ "mlock", hook_mlock, WRAPPER("95"), 0, 0, 0, 0 },
	{ "mlock2", hook_mlock2, "85 d2 74 ?? b8 45 01 00 00 0f 05 48 3d 00 f0 ff ff", 0, 0, 0, 0 },
	{ "munlock", hook_munlock, WRAPPER("96"), 0, 0, 0, 0 },
	{ "mlockall", hook_mlockall, WRAPPER("97"), 0, 0, 0, 0 },
	{ "munlockall", hook_munlockall, WRAPPER("98"), 0, 0, 0, 0 },
	{ "shmat", hook_shmat, "b8 1e 00 00 00 0f 05 48 3d 00 f0 ff ff", 0, 0, 0, 0 },
	{ "shmdt", hook_shmdt, "b8 43 00 00 00 0f 05 48 3d 00 f0 ff ff", 0, 0, 0, 0 },
	/* ioctl and prctl are variadic C functions; their hooks pass every
	 * call but the table's commands straight on */
	{ "ioctl", hook_ioctl, "48 83 ec 58 48 89 54 24 30 64 48 8b 04 25 28 00 00 00 48 89 44 24 18",
	  0, 0, 0, 0 },
	{ "prctl", hook_prctl, "48 83 ec 58 49 89 ca 48 89 74 24 28 48 89 54 24 30 48 89 4c 24 38",
	  0, 0, 0, 0 },
	{ "process_madvise", hook_process_madvise, "49 89 ca b8 b8 01 00 00 0f 05 48 3d 01 f0 ff ff", 0, 0, 0, 0 },
	{ "remap_file_pages", hook_remap_file_pages, "49 89 ca " WRAPPER("d8"), 0, 0, 0, 0 },
	{ "_Fork", hook_Fork,
	  "64 48 8b 04 25 10 00 00 00 45 31 c0 31 d2 31 f6 bf 11 00 20 01 4c 8d 90 d0 02 00 00"
	  " b8 38 00 00 00 0f 05 48 3d 00 f0 ff ff 77 ?? 89 c2 85 c0 75 ?? 64 48 8b 04 25 10 00 00 00"
	  " be 18 00 00 00 48 8d b8 e0 02 00 00 66 48 0f 6e c7 66 0f 6c c0 0f 11 80 d8 02 00 00"
	  " b8 11 01 00 00 0f 05", 0, 0, 0, 0 },
	{ "vfork", shim_hook_vfork, "5f b8 3a 00 00 00 0f 05 57 3d 01 f0 ff ff", 0, 0, 0, 0 },
	{ "clone", shim_hook_clone,
	  "48 c7 c0 ea ff ff ff 48 85 ff 74 ?? 48 83 e6 f0 74 ?? 48 89 4e f8 48 83 ee 10 48 89 3e"
	  " 48 89 d7 4c 89 c2 4d 89 c8 4c 8b 54 24 08 b8 38 00 00 00 0f 05", 0, 0, 0, 0 },
	{ NULL, shim_hook_clone3,   /* __clone3 is not exported: found by its bytes */
	  "b8 ea ff ff ff 48 85 ff 74 ?? 48 85 d2 74 ?? 49 89 c8 b8 b3 01 00 00 0f 05"
	  " 48 85 c0 7c ?? 74 01 c3 31 ed 48 83 e4 f0 4c 89 c7 ff d2 48 89 c7 b8 3c 00 00 00 0f 05", 0, 0, 0, 0 },
	{ "execve", hook_execve, "b8 3b 00 00 00 0f 05 48 3d 01 f0 ff ff", 0, 0, 0, 0 },
	{ "execveat", hook_execveat, "49 89 ca b8 42 01 00 00 0f 05 48 3d 00 f0 ff ff", 0, 0, 0, 0 },
	{ "fexecve", hook_fexecve,
	  "41 55 41 54 55 48 89 d5 53 48 81 ec c8 00 00 00 64 48 8b 04 25 28 00 00 00", 0, 0, 0, 0 },
	{ "_exit", hook__exit, "4c 8b 05 ?? ?? ?? ?? be e7 00 00 00 ba 3c 00 00 00", 0, 0, 0, 0 },
	{ "syscall", shim_hook_syscall,
	  "48 89 f8 48 89 f7 48 89 d6 48 89 ca 4d 89 c2 4d 89 c8 4c 8b 4c 24 08 0f 05", 0, 0, 0, 0 },
};
const size_t shim_nsites = sizeof shim_sites / sizeof shim_sites[0];
