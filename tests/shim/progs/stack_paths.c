/* The same function reached alternately from two callers with equal frames:
 * its mmap has the same ip and stack pointer each time, only the return
 * address above it differs.  A cached unwind must still tell them apart,
 * and keep both.  Usage: stack_paths [ROUNDS] (20) */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

__attribute__((noinline)) static void common(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p, 4096);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void via_a(void) { common(); __asm__ volatile(""); }
__attribute__((noinline)) static void via_b(void) { common(); __asm__ volatile(""); }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;
	for (int i = 0; i < n; i++)
		(i % 2 ? via_b : via_a)();
	puts("PASS");
	return 0;
}
