/* AIM9 page_test's loop: sbrk(-64 KiB) then 16 x sbrk(4 KiB), touching a
 * byte every 128 bytes of each new page.  Prints CPU nanoseconds (the machine is shared: CPU time, not wall
 * time, so waiting for a core does not count) per brk call
 * of the loop alone (start-up excluded).  Usage: shim-page_test ROUNDS */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 2000;
	char *old = sbrk(0);
	sbrk(1 << 20);
	double t0 = now();
	for (long r = 0; r < rounds; r++) {
		sbrk(-(64 << 10));
		for (int i = 0; i < 16; i++) {
			char *p = sbrk(4096);
			for (int j = 0; j < 4096; j += 128)
				p[j] = (char)j;
		}
	}
	double t1 = now();
	brk(old);
	printf("%.1f\n", (t1 - t0) / (rounds * 17.0));
	return 0;
}
