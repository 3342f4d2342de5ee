/* A statically linked program (the launcher records all of it) making N
 * ioctl(TCGETS) and prctl(PR_GET_NAME) calls, which the launcher's
 * filter lets pass (their numbers are recorded only for some commands),
 * then naming an anonymous mapping with prctl(PR_SET_VMA), which it
 * records.  Prints 0 when every call behaved.
 *   static_ctl N */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <termios.h>

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 0, bad = 0;
	char name[16];
	struct termios t;
	for (int i = 0; i < n; i++) {
		ioctl(0, TCGETS, &t);           /* a terminal or not: either answer */
		bad += prctl(PR_GET_NAME, name, 0, 0, 0) != 0;
	}
	void *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bad += p == MAP_FAILED;
	/* EINVAL where the kernel has no CONFIG_ANON_VMA_NAME: recorded all the same */
	prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)p, 8192, (unsigned long)"vmrec-test");
	printf("%d\n", bad);
	return 0;
}
