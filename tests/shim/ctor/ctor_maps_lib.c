/* A library whose constructor maps, protects, advises and unmaps memory:
 * it runs before libvmrec's (ld.so initialises preloaded libraries after
 * the program's other ones), so only the launcher sees its calls. */
#include <stdlib.h>
#include <sys/mman.h>

__attribute__((constructor)) static void ctor_maps(void)
{
	/* tests/shim/launcher-stops.t: the launcher's trampoline address
	 * taken before libvmrec's constructor asks for it */
	if (getenv("CTOR_TAKE_TRAMPOLINE"))
		mmap((void *)0x3dfffff00000, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		     -1, 0);
	char *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	p[0] = 1;
	mprotect(p, 4096, PROT_NONE);
	madvise(p + 8192, 8192, MADV_DONTNEED);
	munmap(p + 65536, 65536);
}

int ctor_maps_value(void) { return 42; }
