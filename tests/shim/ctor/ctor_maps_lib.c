/* A library whose constructor maps, protects, advises and unmaps memory:
 * it runs before libvmrec's (ld.so initialises preloaded libraries after
 * the program's other ones), so only the launcher sees its calls. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* CTOR_THREAD: a thread started here, before libvmrec is live, that ends
 * once main has run (ctor_maps_value): its exit comes after the hand-over
 * (tests/shim/launcher-threads.t) */
static pthread_t early;
static int early_started, gate[2];

static void *early_thread(void *arg)
{
	char c;
	(void)arg;
	while (read(gate[0], &c, 1) < 0)
		;
	return NULL;
}

__attribute__((constructor)) static void ctor_maps(void)
{
	/* tests/shim/launcher-stops.t: the launcher's trampoline address
	 * taken before libvmrec's constructor asks for it */
	if (getenv("CTOR_TAKE_TRAMPOLINE"))
		mmap((void *)0x3dfffff00000, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		     -1, 0);
	if (getenv("CTOR_THREAD") && pipe(gate) == 0)
		early_started = pthread_create(&early, NULL, early_thread, NULL) == 0;
	char *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	p[0] = 1;
	mprotect(p, 4096, PROT_NONE);
	madvise(p + 8192, 8192, MADV_DONTNEED);
	munmap(p + 65536, 65536);
}

int ctor_maps_value(void)
{
	if (early_started) {
		if (write(gate[1], "x", 1) == 1)
			pthread_join(early, NULL);
		early_started = 0;
	}
	return 42;
}
