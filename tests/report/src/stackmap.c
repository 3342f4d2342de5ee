/* stackmap.c - two adjacent anonymous mappings made from known functions,
 * for stacks.t.  The lower one is a MAP_STACK: 6.8 marks it VM_NOHUGEPAGE
 * (c4608d1bf7c6), so it no longer merges with the one above, and the
 * simulator's 6.1 and 6.8 profiles part at event 3, made by
 * map_thread_stack:
 *   0 mmap (reserve 4 pages)  1 munmap  2 map_buffer  3 map_thread_stack */
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096

__attribute__((noinline)) static void *map_at(char *at, int extra)
{
	void *p = mmap(at, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | extra, -1, 0);
	if (p == MAP_FAILED)
		abort();
	return p;
}

__attribute__((noinline)) static void *map_buffer(char *at)
{
	return map_at(at, 0);
}

__attribute__((noinline)) static void *map_thread_stack(char *at)
{
	return map_at(at, MAP_STACK);
}

int main(void)
{
	char *base = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return 1;
	munmap(base, 4 * PAGE);
	map_buffer(base + 2 * PAGE);
	map_thread_stack(base);
	return 0;
}
