/* Threads under the vmrec launcher: N pthreads one after another, each
 * mapping and unmapping through libc (libvmrec records those) and, unless
 * "plain", with a raw mmap/munmap of its own issued in this program's
 * text (the launcher records those: each thread must be traced, or its
 * raw calls would fail with ENOSYS).  Unless "plain", one more thread is
 * made by a raw clone in this program's text, not through libc, and
 * makes the same raw calls.  Prints "ok" when every call succeeded.
 *   launch_threads N [plain] */
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int plain;
static volatile int bad;

static long raw6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}

static void raw_calls(void)
{
	long p = raw6(SYS_mmap, 0, 20480, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p < 0 && p > -4096)
		bad++;
	else if (raw6(SYS_munmap, p, 20480, 0, 0, 0, 0) != 0)
		bad++;
}

static void *run(void *arg)
{
	void *p = mmap(NULL, 28672, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p, 28672) != 0)
		bad++;
	if (!plain)
		raw_calls();
	return arg;
}

/* A thread made by clone(2) in this program's text: the child runs on
 * its own stack, makes the raw calls, and exits; the kernel clears
 * `done` (CLONE_CHILD_CLEARTID) and wakes the parent. */
static volatile int done;

__attribute__((noreturn, used)) static void raw_child(void)
{
	raw_calls();
	for (;;)
		raw6(SYS_exit, 0, 0, 0, 0, 0, 0);
}

static void raw_thread(void)
{
	size_t size = 1 << 16;
	char *stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED) {
		bad++;
		return;
	}
	done = 1;
	long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
	             CLONE_SYSVSEM | CLONE_CHILD_CLEARTID;
	register long r10 __asm__("r10") = (long)&done;
	long ret;
	__asm__ volatile("syscall\n\t"
	                 "test %%rax,%%rax\n\t"
	                 "jnz 1f\n\t"
	                 "and $-16,%%rsp\n\t"
	                 "call raw_child\n"
	                 "1:"
	                 : "=a"(ret)
	                 : "0"((long)SYS_clone), "D"(flags), "S"(stack + size), "d"(0L), "r"(r10)
	                 : "rcx", "r11", "memory");
	if (ret < 0) {
		bad++;
		done = 0;
	}
	while (done)
		syscall(SYS_futex, &done, FUTEX_WAIT, 1, NULL, NULL, 0);
	munmap(stack, size);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	plain = argc > 2 && strcmp(argv[2], "plain") == 0;
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, run, NULL) != 0 || pthread_join(t, NULL) != 0)
			bad++;
	}
	if (!plain)
		raw_thread();
	puts(bad ? "bad" : "ok");
	return bad != 0;
}
