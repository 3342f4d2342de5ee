/* sysfmt_test - each system call and flag family formatted exactly as
 * strace 6.1 prints it (expected lines checked against strace's decoders
 * and, where this host can make the call, against real strace output).
 * The formatter's sources are compiled in: tests link only libvmt. */
#include "lib/sysfmt.c"
#include "lib/sysfmt_parse.c"
#include "lib/sysfmt_tables.c"
#include "tests/tap.h"

#define NEG1 ((uint64_t)-1)

static void expect(int sys, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4, uint64_t a5, int64_t result, int err, unsigned flags,
                   const char *want)
{
	struct vmt_event ev = { .sys = (uint16_t)sys, .result = err ? -1 : result,
	                        .err = err, .flags = (uint16_t)flags,
	                        .args = { a0, a1, a2, a3, a4, a5 } };
	char got[512];
	sysfmt_call(got, sizeof(got), &ev);
	is_str(got, want, "%s", want);
}

#define CALL(sys, a0, a1, a2, a3, a4, a5, result, want) \
	expect(VMT_SYS_##sys, a0, a1, a2, a3, a4, a5, result, 0, 0, want)
#define FAIL(sys, a0, a1, a2, a3, a4, a5, err, want) \
	expect(VMT_SYS_##sys, a0, a1, a2, a3, a4, a5, -1, err, 0, want)

static void test_mmap(void)
{
	CALL(MMAP, 0, 4096, 3, 0x22, NEG1, 0, 0x7f0000001000,
	     "mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000001000");
	CALL(MMAP, 0x7f65607e7000, 1400832, 5, 0x812, 3, 0x26000, 0x7f65607e7000,
	     "mmap(0x7f65607e7000, 1400832, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE, 3, 0x26000) = 0x7f65607e7000");
	CALL(MMAP, 0, 16384, 3, 0x20122, NEG1, 0, 0x7f0000004000,
	     "mmap(NULL, 16384, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_GROWSDOWN|MAP_STACK, -1, 0) = 0x7f0000004000");
	CALL(MMAP, 0x10000, 4096, 1, 0x100021, NEG1, 0, 0x10000,
	     "mmap(0x10000, 4096, PROT_READ, MAP_SHARED|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0) = 0x10000");
	CALL(MMAP, 0, 2 << 20, 3, 0x22 | 0x40000 | (21ull << 26), NEG1, 0, 0x7f0000200000,
	     "mmap(NULL, 2097152, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_HUGETLB|21<<MAP_HUGE_SHIFT, -1, 0) = 0x7f0000200000");
	CALL(MMAP, 0, 4096, 0, 0x202, NEG1, 0, 0x7f0000001000,
	     "mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE|0x200, -1, 0) = 0x7f0000001000");
	CALL(MMAP, 0, 4096, 1, 0x03, 4, 0, 0x7f0000001000,
	     "mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE, 4, 0) = 0x7f0000001000");
	FAIL(MMAP, 0, 1ull << 47, 1, 0x22, NEG1, 0, 12,
	     "mmap(NULL, 140737488355328, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = -1 ENOMEM (Cannot allocate memory)");
	FAIL(MMAP, 0, 4096, 1, 0x02, NEG1, 0, 9,
	     "mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, -1, 0) = -1 EBADF (Bad file descriptor)");
}

static void test_prot_and_advice(void)
{
	CALL(MPROTECT, 0x7f0000001000, 4096, 0, 0, 0, 0, 0, "mprotect(0x7f0000001000, 4096, PROT_NONE) = 0");
	CALL(MPROTECT, 0x7f0000001000, 4096, 7, 0, 0, 0, 0,
	     "mprotect(0x7f0000001000, 4096, PROT_READ|PROT_WRITE|PROT_EXEC) = 0");
	CALL(MPROTECT, 0x7f0000001000, 4096, 0x01000003, 0, 0, 0, 0,
	     "mprotect(0x7f0000001000, 4096, PROT_READ|PROT_WRITE|PROT_GROWSDOWN) = 0");
	FAIL(MPROTECT, 0x7f0000001000, 4096, 0x10, 0, 0, 0, 22,
	     "mprotect(0x7f0000001000, 4096, 0x10 /* PROT_??? */) = -1 EINVAL (Invalid argument)");
	FAIL(MPROTECT, 0x7f0000001000, 4096, 0x11, 0, 0, 0, 22,
	     "mprotect(0x7f0000001000, 4096, PROT_READ|0x10) = -1 EINVAL (Invalid argument)");
	CALL(PKEY_MPROTECT, 0x7f0000001000, 4096, 1, NEG1, 0, 0, 0,
	     "pkey_mprotect(0x7f0000001000, 4096, PROT_READ, -1) = 0");
	CALL(MADVISE, 0x7f0000001000, 16384, 4, 0, 0, 0, 0, "madvise(0x7f0000001000, 16384, MADV_DONTNEED) = 0");
	CALL(MADVISE, 0x7f0000001000, 16384, 0, 0, 0, 0, 0, "madvise(0x7f0000001000, 16384, MADV_NORMAL) = 0");
	CALL(MADVISE, 0x7f0000001000, 16384, 14, 0, 0, 0, 0, "madvise(0x7f0000001000, 16384, MADV_HUGEPAGE) = 0");
	CALL(MADVISE, 0x7f0000001000, 16384, 25, 0, 0, 0, 0, "madvise(0x7f0000001000, 16384, MADV_COLLAPSE) = 0");
	FAIL(MADVISE, 0x7f0000001000, 16384, 12345, 0, 0, 0, 22,
	     "madvise(0x7f0000001000, 16384, 0x3039 /* MADV_??? */) = -1 EINVAL (Invalid argument)");
}

static void test_remap_lock_seal(void)
{
	CALL(MREMAP, 0x7f0000001000, 16384, 32768, 1, 0, 0, 0x7f0000010000,
	     "mremap(0x7f0000001000, 16384, 32768, MREMAP_MAYMOVE) = 0x7f0000010000");
	CALL(MREMAP, 0x7f0000001000, 4096, 4096, 3, 0x7f0000040000, 0, 0x7f0000040000,
	     "mremap(0x7f0000001000, 4096, 4096, MREMAP_MAYMOVE|MREMAP_FIXED, 0x7f0000040000) = 0x7f0000040000");
	CALL(MREMAP, 0x7f0000001000, 4096, 4096, 7, 0x7f0000040000, 0, 0x7f0000040000,
	     "mremap(0x7f0000001000, 4096, 4096, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP, 0x7f0000040000) = 0x7f0000040000");
	FAIL(MREMAP, 0x7f0000001000, 4096, 8192, 0, 0, 0, 12,
	     "mremap(0x7f0000001000, 4096, 8192, 0) = -1 ENOMEM (Cannot allocate memory)");
	CALL(MLOCK, 0x7f0000001000, 4096, 0, 0, 0, 0, 0, "mlock(0x7f0000001000, 4096) = 0");
	CALL(MUNLOCK, 0x7f0000001000, 4096, 0, 0, 0, 0, 0, "munlock(0x7f0000001000, 4096) = 0");
	CALL(MLOCK2, 0x7f0000001000, 4096, 1, 0, 0, 0, 0, "mlock2(0x7f0000001000, 4096, MLOCK_ONFAULT) = 0");
	CALL(MLOCK2, 0x7f0000001000, 4096, 0, 0, 0, 0, 0, "mlock2(0x7f0000001000, 4096, 0) = 0");
	CALL(MLOCKALL, 7, 0, 0, 0, 0, 0, 0, "mlockall(MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT) = 0");
	FAIL(MLOCKALL, 0, 0, 0, 0, 0, 0, 22, "mlockall(0) = -1 EINVAL (Invalid argument)");
	CALL(MUNLOCKALL, 0, 0, 0, 0, 0, 0, 0, "munlockall() = 0");
	FAIL(MSEAL, 0x7f0000001000, 4096, 0, 0, 0, 0, 1, "mseal(0x7f0000001000, 4096, 0) = -1 EPERM (Operation not permitted)");
	CALL(SHMAT, 0, 0, 010000, 0, 0, 0, 0x7f0000050000, "shmat(0, NULL, SHM_RDONLY) = 0x7f0000050000");
	CALL(SHMAT, 3, 0x7f0000060000, 0, 0, 0, 0, 0x7f0000060000, "shmat(3, 0x7f0000060000, 0) = 0x7f0000060000");
	CALL(SHMDT, 0x7f0000050000, 0, 0, 0, 0, 0, 0, "shmdt(0x7f0000050000) = 0");
	CALL(BRK, 0, 0, 0, 0, 0, 0, 0x555555559000, "brk(NULL) = 0x555555559000");
	CALL(BRK, 0x55555557a000, 0, 0, 0, 0, 0, 0x55555557a000, "brk(0x55555557a000) = 0x55555557a000");
	FAIL(MUNMAP, NEG1, 131072, 0, 0, 0, 0, 22, "munmap(0xffffffffffffffff, 131072) = -1 EINVAL (Invalid argument)");
}

static void test_processes(void)
{
	CALL(FORK, 0, 0, 0, 0, 0, 0, 123, "fork() = 123");
	CALL(VFORK, 0, 0, 0, 0, 0, 0, 124, "vfork() = 124");
	CALL(CLONE, 0x1200011, 0, 0, 0x7f791672ca10, 0, 0, 9298,
	     "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f791672ca10) = 9298");
	CALL(CLONE, 17, 0, 0, 0, 0, 0, 5, "clone(child_stack=NULL, flags=SIGCHLD) = 5");
	CALL(CLONE, 0, 0x7f0000100000, 0, 0, 0, 0, 6, "clone(child_stack=0x7f0000100000, flags=0) = 6");
	CALL(CLONE, 0x3d0f00, 0x7f0000100000, 0x7f0000100990, 0x7f0000100990, 0x7f00001006c0, 0, 4243,
	     "clone(child_stack=0x7f0000100000, flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, parent_tid=[4243], tls=0x7f00001006c0, child_tidptr=0x7f0000100990) = 4243");
	CALL(CLONE3, 0x3d0f00, 0x7f7915f1b000, 0x7fff80, 0x7f791671b990, 0x7f791671b990, 0x7f791671b6c0, 9297,
	     "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f791671b990, parent_tid=0x7f791671b990, exit_signal=0, stack=0x7f7915f1b000, stack_size=0x7fff80, tls=0x7f791671b6c0} => {parent_tid=[9297]}, 88) = 9297");
	CALL(CLONE3, 0x4100, 0x7f0000200000, 0x9000, 0, 0, 0, 777,
	     "clone3({flags=CLONE_VM|CLONE_VFORK, exit_signal=SIGCHLD, stack=0x7f0000200000, stack_size=0x9000}, 88) = 777");
	FAIL(CLONE3, 0x3d0f00, 0x7f7915f1b000, 0x7fff80, 0x7f791671b990, 0x7f791671b990, 0x7f791671b6c0, 11,
	     "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f791671b990, parent_tid=0x7f791671b990, exit_signal=0, stack=0x7f7915f1b000, stack_size=0x7fff80, tls=0x7f791671b6c0}, 88) = -1 EAGAIN (Resource temporarily unavailable)");
	CALL(EXECVE, 0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000, 0, 0, 0, 0,
	     "execve(0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000) = 0");
	expect(VMT_SYS_EXECVE, 0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000, 0, 0, 0, 0, 0,
	       VMT_EV_NORETURN, "execve(0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000) = 0");
	expect(VMT_SYS_EXIT_GROUP, 0, 0, 0, 0, 0, 0, 0, 0, VMT_EV_NORETURN, "exit_group(0) = ?");
	expect(VMT_SYS_EXIT, 3, 0, 0, 0, 0, 0, 0, 0, VMT_EV_NORETURN, "exit(3) = ?");
}

/* execve's file name from its FILE record, quoted as strace quotes it */
static void expect_file(int sys, uint64_t a0, const char *file, const char *want)
{
	struct vmt_event ev = { .sys = (uint16_t)sys,
	                        .args = { a0, 0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000, 0x1000 } };
	if (sys == VMT_SYS_EXECVE)
		ev.args[1] = 0x7ffc00001000, ev.args[2] = 0x7ffc00002000;
	char got[512];
	sysfmt_args_with(got, sizeof(got), &ev, &(struct sysfmt_strings){ .file = file });
	is_str(got, want, "%s", want);
}

/* execve's argv and envp count from its ARGV record.  The lines are real
 * strace 6.1 output of the same calls (tests/shim/exec-argv.t makes them). */
static void expect_argv(uint64_t path, uint64_t argv, uint64_t envp, const struct vmt_argv *a,
                        const char *file, const char *what, const char *want)
{
	struct vmt_event ev = { .sys = VMT_SYS_EXECVE, .args = { path, argv, envp } };
	char got[2048];
	sysfmt_args_with(got, sizeof(got), &ev, &(struct sysfmt_strings){ .file = file, .argv = a });
	is_str(got, want, "%s", what);
}

#define S(text) { VMT_ARG_STR, text, 0 }
#define ARGV(a_end, n_env, e_end, ...) \
	(&(struct vmt_argv){ .argc = sizeof((struct vmt_arg[]){ __VA_ARGS__ }) / sizeof(struct vmt_arg), \
	                     .args = (struct vmt_arg[]){ __VA_ARGS__ }, .argv_end = a_end, .envc = n_env, \
	                     .envp_end = e_end })
#define NO_ARGS(a_end, n_env, e_end) \
	(&(struct vmt_argv){ .argv_end = a_end, .envc = n_env, .envp_end = e_end })

static void test_exec_argv(void)
{
	const uint64_t argv = 0x7ffc5ac4b1a8, envp = 0x7ffc5ac4b4e8;
	expect_argv(0, argv, envp, ARGV(VMT_ARGV_NULL, 42, VMT_ARGV_NULL, S("python3"), S("-c"), S("import json")),
	            "/usr/bin/python3", "argv's strings, envp's count",
	            "execve(\"/usr/bin/python3\", [\"python3\", \"-c\", \"import json\"], 0x7ffc5ac4b4e8 /* 42 vars */)");
	expect_argv(0, argv, envp, ARGV(VMT_ARGV_NULL, 41, VMT_ARGV_NULL, S("0123456789abcdef0123456789abcdef"),
	            { VMT_ARG_CUT, "0123456789abcdef0123456789abcdef", 0 }, S("tab\there\"q\\"), S("\001\0017")),
	            "/nonexistent", "a string cut at 32 bytes ends in ..., escapes as strace's",
	            "execve(\"/nonexistent\", [\"0123456789abcdef0123456789abcdef\", \"0123456789abcdef0123456789abcdef\"..., "
	            "\"tab\\there\\\"q\\\\\", \"\\1\\0017\"], 0x7ffc5ac4b4e8 /* 41 vars */)");
	expect_argv(0, argv, envp, ARGV(VMT_ARGV_MORE, 41, VMT_ARGV_NULL, S("x"), S("x"), S("x")),
	            "/nonexistent", "more elements than kept: ...",
	            "execve(\"/nonexistent\", [\"x\", \"x\", \"x\", ...], 0x7ffc5ac4b4e8 /* 41 vars */)");
	expect_argv(0, 0x7f609cbd3ff0, 0x7f609cbd3ff0, ARGV(VMT_ARGV_FAULT, 2, VMT_ARGV_FAULT, S("a"), S("b")),
	            "/nonexistent", "arrays that run into unreadable memory: where argv stopped, envp unterminated",
	            "execve(\"/nonexistent\", [\"a\", \"b\", ... /* 0x7f609cbd4000 */], 0x7f609cbd3ff0 /* 2 vars, unterminated */)");
	expect_argv(0, argv, 1, ARGV(VMT_ARGV_NULL, 0, VMT_ARGV_FAULT, S("ok"), { VMT_ARG_FAULT, NULL, 1 }),
	            "/nonexistent", "an unreadable string and an unreadable envp: their addresses",
	            "execve(\"/nonexistent\", [\"ok\", 0x1], 0x1)");
	expect_argv(1, argv, 0, ARGV(VMT_ARGV_NULL, 0, VMT_ARGV_FAULT, S("ok"), { VMT_ARG_FAULT, NULL, 1 }),
	            NULL, "an unreadable path: its address; a NULL envp",
	            "execve(0x1, [\"ok\", 0x1], NULL)");
	expect_argv(0, 0, 0, NO_ARGS(VMT_ARGV_FAULT, 0, VMT_ARGV_FAULT), "/nonexistent", "NULL argv and envp",
	            "execve(\"/nonexistent\", NULL, NULL)");
	expect_argv(0, argv, argv, NO_ARGS(VMT_ARGV_NULL, 0, VMT_ARGV_NULL), "/nonexistent", "empty arrays",
	            "execve(\"/nonexistent\", [], 0x7ffc5ac4b1a8 /* 0 vars */)");
	expect_argv(0, argv, envp, NO_ARGS(VMT_ARGV_NULL, 1, VMT_ARGV_NULL), "/nonexistent", "one var",
	            "execve(\"/nonexistent\", [], 0x7ffc5ac4b4e8 /* 1 var */)");
	expect_argv(0, 0x7f609cbd4000, envp, NO_ARGS(VMT_ARGV_FAULT, 1, VMT_ARGV_NULL), "/nonexistent",
	            "an unreadable argv: its address",
	            "execve(\"/nonexistent\", 0x7f609cbd4000, 0x7ffc5ac4b4e8 /* 1 var */)");

	struct vmt_event ev = { .sys = VMT_SYS_EXECVEAT, .args = { 3, 0x55d0c0de0000, argv, envp, 0x1000 } };
	char got[512];
	sysfmt_args_with(got, sizeof(got), &ev, &(struct sysfmt_strings){ .file = "",
	                 .argv = ARGV(VMT_ARGV_NULL, 3, VMT_ARGV_NULL, S("true")) });
	is_str(got, "execveat(3, \"\", [\"true\"], 0x7ffc5ac4b4e8 /* 3 vars */, AT_EMPTY_PATH)",
	       "execveat: argv and envp after its fd and path");
	ev = (struct vmt_event){ .sys = VMT_SYS_MUNMAP, .args = { 0x7f0000001000, 8192 } };
	sysfmt_args_with(got, sizeof(got), &ev, &(struct sysfmt_strings){ .file = "/x",
	                 .argv = NO_ARGS(VMT_ARGV_NULL, 0, VMT_ARGV_NULL) });
	is_str(got, "munmap(0x7f0000001000, 8192)",
	       "other calls ignore the strings");
}

static void test_exec_names(void)
{
	expect_file(VMT_SYS_EXECVE, 0x55d0c0de0000, "/bin/true",
	            "execve(\"/bin/true\", 0x7ffc00001000, 0x7ffc00002000)");
	expect_file(VMT_SYS_EXECVE, 0x55d0c0de0000, NULL,
	            "execve(0x55d0c0de0000, 0x7ffc00001000, 0x7ffc00002000)");
	expect_file(VMT_SYS_EXECVEAT, 3, "", "execveat(3, \"\", 0x7ffc00001000, 0x7ffc00002000, AT_EMPTY_PATH)");
	expect_file(VMT_SYS_EXECVEAT, (uint64_t)-100, "/bin/true",
	            "execveat(AT_FDCWD, \"/bin/true\", 0x7ffc00001000, 0x7ffc00002000, AT_EMPTY_PATH)");
	expect_file(VMT_SYS_EXECVE, 0, "a\"b\\c\td\n\033[1m\0331\377",
	            "execve(\"a\\\"b\\\\c\\td\\n\\33[1m\\0331\\377\", 0x7ffc00001000, 0x7ffc00002000)");
}

static void test_halves_and_truncation(void)
{
	struct vmt_event ev = { .sys = VMT_SYS_MUNMAP, .args = { 0x7f0000001000, 8192 } };
	char buf[64];
	sysfmt_args(buf, sizeof(buf), &ev);
	is_str(buf, "munmap(0x7f0000001000, 8192)", "arguments alone");
	sysfmt_result(buf, sizeof(buf), &ev);
	is_str(buf, "0", "result alone");
	char small[8];
	size_t want = sysfmt_call(small, sizeof(small), &ev);
	is_int(want, strlen("munmap(0x7f0000001000, 8192) = 0"), "returns the length it wanted");
	is_str(small, "munmap(", "a short buffer gets a terminated prefix");
}

static void test_parse_back(void)
{
	uint64_t v = 0;
	ok(sysfmt_parse_value(&sysfmt_map_flags, "MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK", &v) == 0 &&
	   v == 0x20022, "MAP_ flags parse back with their type");
	ok(sysfmt_parse_value(&sysfmt_madvise, "0x3039 /* MADV_??? */", &v) == 0 && v == 12345,
	   "an unknown advice parses back from its number");
	ok(sysfmt_parse_value(&sysfmt_clone, "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD", &v) == 0 &&
	   v == 0x1200011, "clone flags parse back with the exit signal");
	ok(sysfmt_parse_value(&sysfmt_map_flags, "MAP_PRIVATE|21<<MAP_HUGE_SHIFT", &v) == 0 &&
	   v == (0x2 | (21ull << 26)), "huge page size bits parse back");
	ok(sysfmt_parse_value(&sysfmt_prot, "PROT_BOGUS", &v) < 0, "an unknown name is refused");
	is_int(sysfmt_errno_from_name("ENOMEM"), 12, "errno names parse back");
	is_int(sysfmt_errno_from_name("ENOTANERRNO"), 0, "unknown errno names give 0");
}

int main(void)
{
	test_mmap();
	test_prot_and_advice();
	test_remap_lock_seal();
	test_processes();
	test_exec_names();
	test_exec_argv();
	test_halves_and_truncation();
	test_parse_back();
	return done_testing();
}
