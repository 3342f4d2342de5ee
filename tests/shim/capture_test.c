/* capture_test - shim/capture.c, the code both recorders build records
 * with, over a memory of its own: which calls are recorded (match
 * included), the event's fields, which file a call names, what a RANGES
 * record reads (and nothing where the memory cannot be read), execve's
 * argv and envp count. */
#include <string.h>
#include "shim/capture.h"
#include "tests/tap.h"

/* A fake caller's memory: [BASE, BASE + sizeof mem) is readable. */
#define BASE 0x10000ull
static unsigned char mem[8192];
static unsigned reads;

static size_t fake_read(void *opaque, void *dst, uint64_t addr, size_t n, size_t unit)
{
	(void)opaque;
	(void)unit;
	reads++;
	if (addr < BASE || addr >= BASE + sizeof mem)
		return 0;
	size_t off = addr - BASE, got = n < sizeof mem - off ? n : sizeof mem - off;
	memcpy(dst, mem + off, got);
	return got;
}

static const struct capture_mem fake = { fake_read, NULL, NULL };

static void put64(uint64_t addr, uint64_t v) { memcpy(mem + (addr - BASE), &v, 8); }
static void putstr(uint64_t addr, const char *s) { memcpy(mem + (addr - BASE), s, strlen(s) + 1); }

static void test_sys(void)
{
	uint64_t a[6] = { 0 };
	is_int(capture_sys(9, a), VMT_SYS_MMAP, "mmap is recorded");
	is_int(capture_sys(0, a), VMT_SYS_NONE, "read is not");
	a[1] = 0xc020aa00;
	is_int(capture_sys(16, a), VMT_SYS_UFFDIO_REGISTER, "ioctl(UFFDIO_REGISTER) is");
	a[1] = 0x5401;
	is_int(capture_sys(16, a), VMT_SYS_NONE, "ioctl(TCGETS) is not");
	a[0] = 41;
	is_int(capture_sys(157, a), VMT_SYS_PRCTL_SET_THP_DISABLE, "prctl(PR_SET_THP_DISABLE) is");
	a[0] = 15;
	is_int(capture_sys(157, a), VMT_SYS_NONE, "prctl(PR_SET_NAME) is not");
}

static void test_event(void)
{
	uint64_t a[6] = { 1, 2, 3, 4, 5, 6 };
	struct vmt_event ev;
	memset(&ev, 0xff, sizeof ev);
	capture_event(&ev, VMT_SYS_MUNMAP, a, -22, VMT_EV_TRAPPED);
	ok(ev.sys == VMT_SYS_MUNMAP && ev.err == 22 && ev.result == -1 && ev.flags == VMT_EV_TRAPPED &&
	   !memcmp(ev.args, a, sizeof a), "a failed call: errno, result -1, flags, registers");
	capture_event(&ev, VMT_SYS_MMAP, a, 0x7f0000000000, 0);
	ok(ev.err == 0 && ev.result == 0x7f0000000000, "a successful one: its result");
}

static void test_file(void)
{
	struct capture_file f;
	uint64_t mm[6] = { 0, 4096, 1, 0x02, 7, 0 };
	ok(capture_file(VMT_SYS_MMAP, mm, &f) && f.kind == CAPTURE_FILE_FD && f.fd == 7, "mmap of fd 7 names it");
	mm[3] = 0x22;
	ok(!capture_file(VMT_SYS_MMAP, mm, &f), "an anonymous mmap names none");
	mm[3] = 0x02;
	mm[4] = (uint64_t)-1;
	ok(!capture_file(VMT_SYS_MMAP, mm, &f), "nor one of fd -1");
	uint64_t sh[6] = { 42, 0, 0 };
	ok(capture_file(VMT_SYS_SHMAT, sh, &f) && f.kind == CAPTURE_FILE_SYSV && f.fd == 42, "shmat names its segment");
	uint64_t ex[6] = { 5, BASE, 0, 0, 0x1000, 0 };
	ok(capture_file(VMT_SYS_EXECVEAT, ex, &f) && f.kind == CAPTURE_FILE_PATH && f.fd == 5 &&
	   f.path == BASE && f.flags == 0x1000, "execveat names its path, dirfd and flags");
	ok(!capture_file(VMT_SYS_MPROTECT, ex, &f), "mprotect names none");
}

static void test_ranges(void)
{
	struct capture_ranges c;
	struct vmt_range buf[4];
	uint64_t iov = BASE + 64;
	for (int i = 0; i < 6; i++) {
		put64(iov + 16u * i, 0x7f0000000000ull + 0x10000ull * i);
		put64(iov + 16u * i + 8, 4096u * (i + 1));
	}
	uint64_t pm[6] = { 3, iov, 3, 20, 0, 0 };
	ok(capture_ranges(&c, VMT_SYS_PROCESS_MADVISE, pm, buf, 4, &fake) == 1 && c.r.kind == VMT_RANGES_IOVEC &&
	   c.r.n == 3 && c.r.ranges[2].start == 0x7f0000020000ull && c.r.ranges[2].len == 12288,
	   "process_madvise: its iovec's 3 ranges");
	pm[2] = 6;
	ok(capture_ranges(&c, VMT_SYS_PROCESS_MADVISE, pm, buf, 4, &fake) == 0 && c.need == 6,
	   "6 ranges in a buffer of 4: not read, the need said");
	pm[2] = 1025;
	ok(capture_ranges(&c, VMT_SYS_PROCESS_MADVISE, pm, buf, 4, &fake) == 0 && c.need == 0,
	   "more than UIO_MAXIOV: the kernel refuses, nothing to read");
	pm[1] = 0x1000;
	pm[2] = 2;
	ok(capture_ranges(&c, VMT_SYS_PROCESS_MADVISE, pm, buf, 4, &fake) == 0, "an unreadable iovec: no record");
	pm[1] = BASE + sizeof mem - 24;
	ok(capture_ranges(&c, VMT_SYS_PROCESS_MADVISE, pm, buf, 4, &fake) == 0, "one read only in part: no record");

	uint64_t reg = BASE + 512;
	put64(reg, 0x7f1000000000ull);
	put64(reg + 8, 0x2000);
	put64(reg + 16, 3);
	put64(reg + 24, 0);
	uint64_t io[6] = { 4, 0xc020aa00, reg, 0, 0, 0 };
	ok(capture_ranges(&c, VMT_SYS_UFFDIO_REGISTER, io, buf, 4, &fake) == 1 && c.r.n == 1 &&
	   c.r.ranges[0].start == 0x7f1000000000ull && c.r.ranges[0].len == 0x2000 && c.r.mode == 3 &&
	   c.r.ioctls == 0, "UFFDIO_REGISTER: its range and mode");
	put64(reg + 24, 0x13c);         /* what the kernel writes back */
	capture_ranges_after(&c, io, 0, &fake);
	is_int((long)c.r.ioctls, 0x13c, "and after it, the ioctls the kernel gave");
	c.r.ioctls = 0;
	capture_ranges_after(&c, io, -22, &fake);
	is_int((long)c.r.ioctls, 0, "none after a failed one");
	io[1] = 0x8010aa01;
	ok(capture_ranges(&c, VMT_SYS_UFFDIO_UNREGISTER, io, buf, 4, &fake) == 1 &&
	   c.r.kind == VMT_RANGES_UFFDIO_RANGE && c.r.n == 1 && c.r.ranges[0].len == 0x2000 && c.r.mode == 0,
	   "UFFDIO_UNREGISTER: its range");
	io[2] = 0;
	ok(capture_ranges(&c, VMT_SYS_UFFDIO_UNREGISTER, io, buf, 4, &fake) == 0, "a NULL struct: no record");

	putstr(BASE + 1024, "my heap");
	uint64_t pr[6] = { 0x53564d41, 0, 0x7f0000000000ull, 4096, BASE + 1024, 0 };
	ok(capture_ranges(&c, VMT_SYS_PRCTL_SET_VMA, pr, buf, 4, &fake) == 1 && c.r.kind == VMT_RANGES_VMA_NAME &&
	   c.r.n == 0 && c.r.name_how == VMT_NAME_STR && !strcmp(c.r.name, "my heap"), "PR_SET_VMA: its name");
	pr[4] = 0;
	ok(capture_ranges(&c, VMT_SYS_PRCTL_SET_VMA, pr, buf, 4, &fake) == 1 && c.r.name_how == VMT_NAME_NULL &&
	   !c.r.name, "a NULL name clears it");
	pr[4] = 0x1000;
	ok(capture_ranges(&c, VMT_SYS_PRCTL_SET_VMA, pr, buf, 4, &fake) == 1 && c.r.name_how == VMT_NAME_FAULT,
	   "an unreadable name is said");
	memset(mem + 2048, 'x', 300);
	mem[2348] = 0;
	pr[4] = BASE + 2048;
	ok(capture_ranges(&c, VMT_SYS_PRCTL_SET_VMA, pr, buf, 4, &fake) == 1 && c.r.name_how == VMT_NAME_FAULT,
	   "so is one longer than 255 bytes");
	reads = 0;
	ok(capture_ranges(&c, VMT_SYS_MADVISE, pr, buf, 4, &fake) == 0 && reads == 0,
	   "madvise reads nothing");
}

static void test_argv(void)
{
	static struct capture_argv_buf b;
	struct vmt_argv a;
	uint64_t argv = BASE + 4096, s = BASE + 5000;
	putstr(s, "ls");
	putstr(s + 8, "0123456789abcdef0123456789abcdefXYZ");
	put64(argv, s);
	put64(argv + 8, s + 8);
	put64(argv + 16, 0x1000);       /* unreadable */
	put64(argv + 24, 0);
	capture_argv(&a, &b, argv, &fake);
	ok(a.argc == 3 && a.argv_end == VMT_ARGV_NULL && a.args[0].kind == VMT_ARG_STR &&
	   !strcmp(a.args[0].str, "ls") && a.args[1].kind == VMT_ARG_CUT &&
	   strlen(a.args[1].str) == CAPTURE_ARG_BYTES && a.args[2].kind == VMT_ARG_FAULT &&
	   a.args[2].addr == 0x1000, "argv: whole, cut and unreadable strings, then its NULL");
	capture_argv(&a, &b, 0x1000, &fake);
	ok(a.argc == 0 && a.argv_end == VMT_ARGV_FAULT, "an unreadable argv is not read");
	uint32_t end;
	put64(BASE + 6000, s);
	put64(BASE + 6008, s);
	put64(BASE + 6016, 0);
	ok(capture_envc(BASE + 6000, &end, &fake) == 2 && end == VMT_ARGV_NULL, "envp: 2, then its NULL");
	put64(BASE + sizeof mem - 16, s);
	put64(BASE + sizeof mem - 8, s);
	ok(capture_envc(BASE + sizeof mem - 16, &end, &fake) == 2 && end == VMT_ARGV_FAULT,
	   "envp running off the memory: 2, then unreadable");
	ok(capture_envc(0, &end, &fake) == 0 && end == VMT_ARGV_FAULT, "a NULL envp");
	char name[16];
	is_int(capture_str(name, sizeof name, s, &fake), 2, "a string's length");
	is_int(capture_str(name, sizeof name, s + 8, &fake), -1, "one longer than the buffer: -1");
}

int main(void)
{
	test_sys();
	test_event();
	test_file();
	test_ranges();
	test_argv();
	return done_testing();
}
